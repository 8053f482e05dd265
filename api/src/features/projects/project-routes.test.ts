import { compactProjectDocument, projectDocumentIsStale } from '@reelgraph/db'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import { createNodeId, type GraphNode, MAX_CONNECTIONS, MAX_NODES } from '@reelgraph/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, addUser, type TestUser } from '../../testing/members.ts'
import { createTestApp, sessionCookieFrom, type TestApp } from '../../testing/test-app.ts'

function node(type: GraphNode['type'], x = 0, data: GraphNode['data'] = {}): GraphNode {
  return {
    id: createNodeId(type),
    type,
    label: type,
    position: { x, y: 0 },
    data,
    connectionPoints: 'both',
  }
}

describe.each(testDatabaseKinds())('projects REST on $name', (kind) => {
  let t: TestApp
  let owner: string | undefined
  let stranger: string | undefined
  let counter = 0

  async function signUp(): Promise<string | undefined> {
    const res = await t.request('POST', '/api/register', {
      body: {
        name: 'Owner',
        email: `p${++counter}-${Date.now()}@example.com`,
        password: 'paper lantern river',
      },
    })
    return sessionCookieFrom(res)
  }

  async function create(body: Record<string, unknown>, cookie = owner) {
    return t.request('POST', '/api/projects', { body, cookie })
  }

  beforeAll(async () => {
    t = await createTestApp(kind)
    owner = await signUp()
    stranger = await signUp()
  })
  afterAll(() => t.close())

  it('creates a project with the default description and lists it first', async () => {
    const first = await (await create({ name: 'First' })).json()
    const res = await create({ name: '  Second  ' })
    expect(res.status).toBe(201)
    const second = await res.json()
    expect(second).toEqual({ id: expect.any(Number), name: 'Second' })
    const list = await (await t.request('GET', '/api/projects', { cookie: owner })).json()
    expect(list[0]).toMatchObject({ id: second.id, name: 'Second', nodeCount: 0 })
    expect(list[0].description).toMatch(/^Created on [A-Z][a-z]+ \d{1,2}, \d{4}$/)
    expect(list.map((p: { id: number }) => p.id)).toContain(first.id)
  })

  it('stores nodes and connections, dropping duplicate connections', async () => {
    const a = node('script-generator', 0, { topic: 'Tides', style: 'Casual' })
    const b = node('editable-text', 350, { content: 'Hello' })
    const res = await create({
      name: 'Graph',
      nodes: [a, b],
      connections: [
        { source: a.id, target: b.id },
        { source: a.id, target: b.id },
      ],
    })
    const { id } = await res.json()
    const project = await (await t.request('GET', `/api/projects/${id}`, { cookie: owner })).json()
    expect(project.name).toBe('Graph')
    expect(project.nodes).toEqual([a, b])
    expect(project.connections).toEqual([{ source: a.id, target: b.id }])
    const list = await (await t.request('GET', '/api/projects', { cookie: owner })).json()
    expect(list.find((p: { id: number }) => p.id === id).nodeCount).toBe(2)
  })

  it.each<[string, Record<string, unknown>, string, string | RegExp]>([
    ['blank name', { name: '   ' }, 'name', 'Project name is required'],
    [
      'unknown node type',
      { name: 'x', nodes: [{ ...node('scene'), type: 'audio' }] },
      'nodes.0.type',
      /node type must be one of/,
    ],
    [
      'bad node id',
      { name: 'x', nodes: [{ ...node('scene'), id: 'no spaces allowed' }] },
      'nodes.0.id',
      /node id must look like/,
    ],
    [
      'non-numeric position',
      { name: 'x', nodes: [{ ...node('scene'), position: { x: 'left', y: 0 } }] },
      'nodes.0.position.x',
      /number/,
    ],
    [
      'nested data value',
      { name: 'x', nodes: [{ ...node('scene'), data: { nested: { a: 1 } } }] },
      'nodes.0.data.nested',
      /string, a finite number or a boolean/,
    ],
    [
      'text field over 100 KB',
      { name: 'x', nodes: [node('scene', 0, { narration: 'x'.repeat(100 * 1024 + 1) })] },
      'nodes.0.data.narration',
      /at most 100 KB/,
    ],
    [
      'dangling connection',
      {
        name: 'x',
        nodes: [node('scene')],
        connections: [{ source: 'scene-1-a', target: 'scene-2-b' }],
      },
      'connections.0.source',
      /is not a node of this project/,
    ],
  ])('rejects a %s with 400 and the field message', async (_label, body, field, message) => {
    const before = (await (await t.request('GET', '/api/projects', { cookie: owner })).json())
      .length
    const res = await create(body)
    expect(res.status).toBe(400)
    const { error } = await res.json()
    expect(error.code).toBe('VALIDATION_FAILED')
    expect(error.fields[field]).toMatch(message)
    expect((await (await t.request('GET', '/api/projects', { cookie: owner })).json()).length).toBe(
      before,
    )
  })

  it('rejects a duplicate node id and more than the node and connection limits', async () => {
    const a = node('scene')
    const dup = await create({ name: 'x', nodes: [a, { ...a }] })
    expect((await dup.json()).error.fields['nodes.1.id']).toMatch(/Two nodes have the id/)
    const many = Array.from({ length: MAX_NODES + 1 }, (_, i) => ({
      ...node('scene', i),
      id: `scene-${i}-a`,
    }))
    const tooMany = await create({ name: 'x', nodes: many })
    expect(tooMany.status).toBe(400)
    expect((await tooMany.json()).error.message).toMatch(/at most 2,000 nodes/)
    const edges = Array.from({ length: MAX_CONNECTIONS + 1 }, () => ({
      source: 'scene-0-a',
      target: 'scene-1-a',
    }))
    const tooManyEdges = await create({ name: 'x', nodes: many.slice(0, 2), connections: edges })
    expect((await tooManyEdges.json()).error.message).toMatch(/at most 5,000 connections/)
  })

  it('answers 413 for a project over 5 MiB', async () => {
    const big = Array.from({ length: 60 }, (_, i) => ({
      ...node('scene', i, { narration: 'n'.repeat(100 * 1024 - 10) }),
      id: `scene-${i}-big`,
    }))
    const res = await create({ name: 'Big', nodes: big })
    expect(res.status).toBe(413)
    expect((await res.json()).error.message).toMatch(/at most 5 MiB/)
  })

  it('renames a project and answers name and updatedAt', async () => {
    const { id } = await (await create({ name: 'Old' })).json()
    const res = await t.request('PATCH', `/api/projects/${id}`, {
      body: { name: 'New name' },
      cookie: owner,
    })
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body).toEqual({ name: 'New name', updatedAt: expect.any(String) })
    const bad = await t.request('PATCH', `/api/projects/${id}`, {
      body: { name: '' },
      cookie: owner,
    })
    expect(bad.status).toBe(400)
    const both = await t.request('PATCH', `/api/projects/${id}`, {
      body: { name: 'x', nodes: [], connections: [] },
      cookie: owner,
    })
    expect(both.status).toBe(400)
    expect((await both.json()).error.message).toMatch(/separate requests/)
  })

  it('replaces the graph through the document and answers it', async () => {
    const { id } = await (await create({ name: 'Live' })).json()
    const a = node('editable-text', 0, { content: 'Script' })
    const res = await t.request('PATCH', `/api/projects/${id}`, {
      body: { nodes: [a], connections: [] },
      cookie: owner,
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ nodes: [a], connections: [] })
    const stored = await (await t.request('GET', `/api/projects/${id}`, { cookie: owner })).json()
    expect(stored.nodes).toEqual([a])
  })

  it('checks an autosave after the first as fully as the first (nodes it wrote are not parsed again: issue 23)', async () => {
    const { id } = await (await create({ name: 'Autosaved' })).json()
    const image = node('image', 0, { width: '1024' })
    const scene = node('scene', 400, { narration: 'Hello' })
    const save = (nodes: unknown[]) =>
      t.request('PATCH', `/api/projects/${id}`, {
        body: { nodes, connections: [{ source: scene.id, target: image.id }] },
        cookie: owner,
      })
    expect((await save([image, scene])).status).toBe(200)
    // The same graph with one node moved: saved.
    const moved = { ...scene, position: { x: 500, y: 10 } }
    const second = await save([image, moved])
    expect(second.status).toBe(200)
    expect((await second.json()).nodes).toEqual(
      [image, moved].sort((a, b) => (a.id < b.id ? -1 : 1)),
    )
    // A node this process wrote before, now holding what its type refuses: a 400 that says so.
    const bad = await save([{ ...image, data: { width: 'wide' } }, moved])
    expect(bad.status).toBe(400)
    const body = await bad.json()
    expect(body.error.fields['nodes.0.data.width']).toMatch(/"width" must be a number/)
    // ...and a key no node has: refused too (the strict shape of the known-node check).
    const extra = await save([{ ...image, data: { width: '1024', 'k\u0000': 'x' } }, moved])
    expect(extra.status).toBe(400)
    const stored = await (await t.request('GET', `/api/projects/${id}`, { cookie: owner })).json()
    expect(stored.nodes).toEqual([image, moved].sort((a, b) => (a.id < b.id ? -1 : 1)))
  })

  it('reads an autosave in the layout it answered without parsing known nodes, and any other JSON alike (issue 23)', async () => {
    const { id } = await (await create({ name: 'Bytes' })).json()
    const image = node('image', 0, { width: '1024' })
    const scene = node('scene', 400, { narration: 'Hello' })
    const patch = (rawBody: string, cookie = owner, type = 'application/json') =>
      t.request('PATCH', `/api/projects/${id}`, {
        rawBody,
        cookie,
        headers: { 'content-type': type },
      })
    const first = await patch(JSON.stringify({ nodes: [image, scene], connections: [] }))
    expect(first.status).toBe(200)
    // The answer sent back with one node moved, in the answer's own layout.
    const answer = await first.json()
    answer.nodes[1].position = { x: 7, y: 8 }
    const second = await patch(JSON.stringify(answer))
    expect(second.status).toBe(200)
    expect(await second.json()).toEqual(answer)
    // The same graph pretty-printed, and with its keys in another order: the same save.
    answer.nodes[0].label = 'Picture'
    const pretty = await patch(JSON.stringify(answer, null, 2))
    expect(await pretty.json()).toEqual(answer)
    const reordered = await patch(JSON.stringify({ connections: [], nodes: answer.nodes }))
    expect(await reordered.json()).toEqual(answer)
    // Malformed JSON in the autosave layout: the same 400 as any malformed body...
    const malformed = await patch(`{"nodes":[${JSON.stringify(image)},{"id":]`)
    expect(malformed.status).toBe(400)
    expect((await malformed.json()).error.code).toBe('INVALID_JSON')
    // A stranger's autosave, even in the layout, is a 404; a body that is not JSON, a 415.
    expect((await patch(JSON.stringify(answer), stranger)).status).toBe(404)
    const plain = await patch(JSON.stringify(answer), owner, 'text/plain')
    expect(plain.status).toBe(415)
    const stored = await (await t.request('GET', `/api/projects/${id}`, { cookie: owner })).json()
    expect(stored.nodes).toEqual(answer.nodes)
  })

  it('keeps the JSON columns off the PATCH path, and GET materializes them when stale (issue 15)', async () => {
    const { id } = await (await create({ name: 'Appended' })).json()
    const a = node('editable-text', 0, { content: 'First' })
    await t.request('PATCH', `/api/projects/${id}`, {
      body: { nodes: [a], connections: [] },
      cookie: owner,
    })
    // The first PATCH seeded the document; a compaction leaves the columns current.
    await compactProjectDocument({ db: t.deps.db, projectId: id })
    const moved = { ...a, position: { x: 250, y: 40 } }
    const res = await t.request('PATCH', `/api/projects/${id}`, {
      body: { nodes: [moved], connections: [] },
      cookie: owner,
    })
    expect(await res.json()).toEqual({ nodes: [moved], connections: [] })
    // Stored as an append: the columns still hold the graph of the last compaction.
    expect(await projectDocumentIsStale({ db: t.deps.db, projectId: id })).toBe(true)
    const columns = await t.deps.db
      .selectFrom('projects')
      .select('nodes')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(columns.nodes).toEqual([a])
    // GET never serves a graph older than the stored document.
    const read = await (await t.request('GET', `/api/projects/${id}`, { cookie: owner })).json()
    expect(read.nodes).toEqual([moved])
    expect(await projectDocumentIsStale({ db: t.deps.db, projectId: id })).toBe(false)
    const list = await (await t.request('GET', '/api/projects', { cookie: owner })).json()
    expect(list.find((p: { id: number }) => p.id === id)?.updatedAt).toBe(read.updatedAt)
  })

  it('deletes a project', async () => {
    const { id } = await (await create({ name: 'Doomed' })).json()
    expect((await t.request('DELETE', `/api/projects/${id}`, { cookie: owner })).status).toBe(200)
    expect((await t.request('GET', `/api/projects/${id}`, { cookie: owner })).status).toBe(404)
    expect((await t.request('DELETE', `/api/projects/${id}`, { cookie: owner })).status).toBe(404)
  })

  it('answers 404 to anyone but the owner on every call, and 401 to the anonymous', async () => {
    const { id } = await (await create({ name: 'Private' })).json()
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/projects/${id}`],
      ['PATCH', `/api/projects/${id}`, { name: 'Mine now' }],
      ['PATCH', `/api/projects/${id}`, { nodes: [], connections: [] }],
      ['DELETE', `/api/projects/${id}`],
    ]
    for (const [method, path, body] of calls) {
      const res = await t.request(method, path, { body, cookie: stranger })
      expect(res.status, `${method} ${path}`).toBe(404)
      expect((await res.json()).error.code).toBe('NOT_FOUND')
    }
    const theirs = await (await t.request('GET', '/api/projects', { cookie: stranger })).json()
    expect(theirs.map((p: { id: number }) => p.id)).not.toContain(id)
    expect((await t.request('GET', `/api/projects/${id}`, { cookie: owner })).status).toBe(200)
    expect((await t.request('GET', '/api/projects')).status).toBe(401)
    expect((await t.request('GET', '/api/projects/abc', { cookie: owner })).status).toBe(404)
  })

  describe('by role (issue 6)', () => {
    let owner: TestUser
    let editor: TestUser
    let viewer: TestUser
    let outsider: TestUser
    const people = () => ({ owner, editor, viewer, stranger: outsider })
    type Who = keyof ReturnType<typeof people>

    beforeAll(async () => {
      owner = await addUser(t, 'Olive')
      editor = await addUser(t, 'Eddie')
      viewer = await addUser(t, 'Vera')
      outsider = await addUser(t, 'Sam')
    })

    async function sharedProject(name = 'Team film'): Promise<number> {
      const a = node('editable-text', 0, { content: 'Original' })
      const res = await t.request('POST', '/api/projects', {
        body: { name, nodes: [a], connections: [] },
        cookie: owner.cookie,
      })
      const { id } = await res.json()
      await addMember(t, id, editor.id, 'editor')
      await addMember(t, id, viewer.id, 'viewer')
      return id
    }

    /** The project's name and graph as GET serves them (materialized first; issue 15). */
    async function stored(id: number) {
      await compactProjectDocument({ db: t.deps.db, projectId: id })
      return t.deps.db
        .selectFrom('projects')
        .select(['name', 'nodes'])
        .where('id', '=', id)
        .executeTakeFirst()
    }

    it.each<[Who, number, string | undefined]>([
      ['owner', 200, undefined],
      ['editor', 200, undefined],
      ['viewer', 200, undefined],
      ['stranger', 404, 'NOT_FOUND'],
    ])('GET a project as %s answers %i', async (who, status, code) => {
      const id = await sharedProject()
      const res = await t.request('GET', `/api/projects/${id}`, { cookie: people()[who].cookie })
      expect(res.status).toBe(status)
      const body = await res.json()
      if (code) expect(body.error.code).toBe(code)
      else expect(body).toMatchObject({ id, role: who, ownerName: 'Olive' })
    })

    it.each<[Who, number, string | undefined]>([
      ['owner', 200, undefined],
      ['editor', 200, undefined],
      ['viewer', 403, 'FORBIDDEN'],
      ['stranger', 404, 'NOT_FOUND'],
    ])('renaming and replacing the graph as %s answers %i', async (who, status, code) => {
      const id = await sharedProject()
      const before = await stored(id)
      const cookie = people()[who].cookie
      const b = node('scene', 10, { narration: 'New' })
      const rename = await t.request('PATCH', `/api/projects/${id}`, {
        body: { name: `By ${who}` },
        cookie,
      })
      const graph = await t.request('PATCH', `/api/projects/${id}`, {
        body: { nodes: [b], connections: [] },
        cookie,
      })
      for (const res of [rename, graph]) {
        expect(res.status).toBe(status)
        if (code) expect((await res.json()).error.code).toBe(code)
      }
      const after = await stored(id)
      if (code) {
        expect(after).toEqual(before)
      } else {
        expect(after).toEqual({ name: `By ${who}`, nodes: [b] })
      }
    })

    it('tells a viewer why they cannot change the project', async () => {
      const id = await sharedProject()
      const res = await t.request('PATCH', `/api/projects/${id}`, {
        body: { name: 'Nope' },
        cookie: viewer.cookie,
      })
      expect((await res.json()).error.message).toBe(
        'You can view this project but not change it. Ask its owner for edit access.',
      )
    })

    it('lets only the owner delete a project, and closes its document', async () => {
      const id = await sharedProject()
      for (const who of ['editor', 'viewer', 'stranger'] as const) {
        const res = await t.request('DELETE', `/api/projects/${id}`, {
          cookie: people()[who].cookie,
        })
        expect(res.status, who).toBe(who === 'stranger' ? 404 : 403)
        if (who !== 'stranger') {
          expect((await res.json()).error.message).toBe('Only the project’s owner can do this.')
        }
      }
      expect(await stored(id)).toBeDefined()
      const res = await t.request('DELETE', `/api/projects/${id}`, { cookie: owner.cookie })
      expect(res.status).toBe(200)
      expect(await stored(id)).toBeUndefined()
      const members = await t.deps.db
        .selectFrom('project_members')
        .select('user_id')
        .where('project_id', '=', id)
        .execute()
      expect(members).toEqual([])
      for (const who of ['editor', 'viewer'] as const) {
        const get = await t.request('GET', `/api/projects/${id}`, { cookie: people()[who].cookie })
        expect(get.status).toBe(404)
      }
    })

    it('lists shared projects with the member’s role and the owner’s name', async () => {
      const id = await sharedProject('Listed together')
      for (const [who, role] of [
        ['owner', 'owner'],
        ['editor', 'editor'],
        ['viewer', 'viewer'],
      ] as const) {
        const list = await (
          await t.request('GET', '/api/projects', { cookie: people()[who].cookie })
        ).json()
        expect(list.find((p: { id: number }) => p.id === id)).toMatchObject({
          name: 'Listed together',
          role,
          ownerName: 'Olive',
          nodeCount: 1,
          // The card's preview: the node's type where it is (issue 14).
          preview: [{ type: 'editable-text', x: 0, y: 0 }],
        })
      }
      const theirs = await (
        await t.request('GET', '/api/projects', { cookie: outsider.cookie })
      ).json()
      expect(theirs.map((p: { id: number }) => p.id)).not.toContain(id)
    })
  })
})
