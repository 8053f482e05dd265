import { testDatabaseKinds } from '@reelgraph/db/testing'
import {
  createNodeId,
  cutFieldKey,
  GRAPH_FILE_MESSAGES,
  type GraphNode,
  getTimelinesMap,
  MAX_NODES,
  settingKey,
} from '@reelgraph/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROJECT_BODY_LIMIT_BYTES } from '../../config.ts'
import { addMember, addUser, type TestUser } from '../../testing/members.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createAssetId } from '../assets/asset-service.ts'
import { createApiToken } from '../tokens/token-service.ts'

function node(type: GraphNode['type'], x: number, data: GraphNode['data'] = {}): GraphNode {
  return {
    id: createNodeId(type),
    type,
    label: `${type} ${x}`,
    position: { x, y: x / 2 },
    data,
    connectionPoints: 'both',
  }
}

/** Nodes in id order. */
function byId<T extends { id: string }>(nodes: T[]): T[] {
  return [...nodes].sort((a, b) => a.id.localeCompare(b.id))
}

/** Connections in source, then target order. */
function byEnds<T extends { source: string; target: string }>(connections: T[]): T[] {
  const key = (c: T) => `${c.source}->${c.target}`
  return [...connections].sort((a, b) => key(a).localeCompare(key(b)))
}

describe.each(testDatabaseKinds())('the graph file (issue 42 item 2) on $name', (kind) => {
  let t: TestApp
  let owner: TestUser
  let stranger: TestUser

  beforeAll(async () => {
    t = await createTestApp(kind)
    owner = await addUser(t, 'Owner')
    stranger = await addUser(t, 'Stranger')
  })
  afterAll(() => t.close())

  async function createProject(user: TestUser, body: Record<string, unknown>): Promise<number> {
    const res = await t.request('POST', '/api/projects', { body, cookie: user.cookie })
    expect(res.status).toBe(201)
    return ((await res.json()) as { id: number }).id
  }

  async function addAsset(user: TestUser, projectId: number): Promise<string> {
    const id = createAssetId()
    await t.deps.db
      .insertInto('assets')
      .values({
        id,
        user_id: user.id,
        project_id: projectId,
        storage_key: `projects/${projectId}/${id}.png`,
        mime_type: 'image/png',
        byte_size: 10,
      })
      .execute()
    return id
  }

  async function exportFile(projectId: number, cookie = owner.cookie) {
    return t.request('GET', `/api/projects/${projectId}/export.json`, { cookie })
  }

  async function importFile(body: unknown, { cookie = owner.cookie, query = '' } = {}) {
    return t.request('POST', `/api/projects/import${query}`, { body, cookie })
  }

  async function projectCount(): Promise<number> {
    const row = await t.deps.db
      .selectFrom('projects')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow()
    return Number(row.n)
  }

  /** A project of every kind of content: nodes, connections, a file, a Video timeline. */
  async function richProject() {
    const script = node('script-generator', 0, { topic: 'Tides', style: 'Casual' })
    const scene = node('scene', 400, { sceneNumber: '1', narration: 'The sea “breathes”. 🌊' })
    const image = node('image', 800, { prompt: 'A tide pool', width: 1024, height: 576 })
    const video = node('video', 1200, { preset: '9:16', subtitles: false })
    const projectId = await createProject(owner, {
      name: 'Tides: "draft" / v2',
      description: 'A film about the sea',
      nodes: [script, scene, image, video],
      connections: [
        { source: script.id, target: scene.id },
        { source: scene.id, target: image.id },
        { source: scene.id, target: video.id },
      ],
    })
    // The picture is a file of this very project, as a generation would store it.
    const picture = await addAsset(owner, projectId)
    const withPicture = { ...image, data: { ...image.data, imageUrl: `/api/assets/${picture}` } }
    const nodes = [script, scene, withPicture, video]
    const patched = await t.request('PATCH', `/api/projects/${projectId}`, {
      body: {
        nodes,
        connections: [
          { source: script.id, target: scene.id },
          { source: scene.id, target: image.id },
          { source: scene.id, target: video.id },
        ],
      },
      cookie: owner.cookie,
    })
    expect(patched.status).toBe(200)
    await t.deps.documents.transact(projectId, (doc, origin) => {
      const timelines = getTimelinesMap(doc)
      doc.transact(() => {
        timelines.set(settingKey(video.id, 'captionStyle'), 'word-highlight')
        timelines.set(settingKey(video.id, 'titleText'), 'Tides')
        timelines.set(cutFieldKey(video.id, `scene:${scene.id}`, 'transition'), 'dip')
        timelines.set(cutFieldKey(video.id, `scene:${scene.id}`, 'holdMs'), 4_000)
      }, origin)
    })
    return { projectId, nodes, picture, video, scene }
  }

  it('exports a project and imports it as a new project with the same graph, ids and timeline', async () => {
    const { projectId, nodes, video, scene } = await richProject()
    const res = await exportFile(projectId)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="Tides_ _draft_ _ v2.reelgraph.json"; filename*=UTF-8''${encodeURIComponent('Tides_ _draft_ _ v2.reelgraph.json')}`,
    )
    const file = await res.json()
    expect(file).toMatchObject({
      format: 'reelgraph.graph',
      version: 1,
      project: { name: 'Tides: "draft" / v2', description: 'A film about the sea' },
      timelines: {
        [video.id]: {
          settings: { captionStyle: 'word-highlight', titleText: 'Tides' },
          cuts: { [`scene:${scene.id}`]: { transition: 'dip', holdMs: 4_000 } },
        },
      },
    })
    expect(new Date(file.exportedAt).getTime()).toBeGreaterThan(Date.now() - 60_000)

    const before = await projectCount()
    const imported = await importFile(file)
    expect(imported.status).toBe(201)
    const answer = await imported.json()
    expect(answer).toEqual({
      id: expect.any(Number),
      name: 'Tides: "draft" / v2',
      warnings: [
        expect.stringMatching(
          /^1 file \(a picture, clip, render or music\) still belongs to the project it came from/,
        ),
      ],
    })
    expect(answer.id).not.toBe(projectId)
    expect(await projectCount()).toBe(before + 1)

    const copy = await (
      await t.request('GET', `/api/projects/${answer.id}`, { cookie: owner.cookie })
    ).json()
    const original = await (
      await t.request('GET', `/api/projects/${projectId}`, { cookie: owner.cookie })
    ).json()
    // Node ids are unique within a project only: the copy keeps them, and every field. (A
    // document is a map: its nodes come back in no set order.)
    expect(byId(copy.nodes)).toEqual(byId(nodes))
    expect(byId(copy.nodes)).toEqual(byId(original.nodes))
    expect(byEnds(copy.connections)).toEqual(byEnds(original.connections))
    expect(copy.description).toBe('A film about the sea')
    expect(copy.role).toBe('owner')

    // The copy's own export is the same file (its timeline too), but for the time.
    const same = (f: typeof file) => ({
      ...f,
      exportedAt: 'then',
      nodes: byId(f.nodes),
      connections: byEnds(f.connections),
    })
    const again = await (await exportFile(answer.id)).json()
    expect(same(again)).toEqual(same(file))
  })

  it('names the new project from ?name=, and leaves the state of past jobs out', async () => {
    const script = node('script-generator', 0, {
      topic: 'Owls',
      jobId: '0b8f5e7e-5d6c-4d57-9d1e-7d7c1e9b5a10',
      jobKind: 'script',
      jobStatus: 'running',
      jobProgress: 40,
    })
    const projectId = await createProject(owner, { name: 'Owls', nodes: [script] })
    const file = await (await exportFile(projectId)).json()
    expect(file.nodes[0].data).toEqual({ topic: 'Owls' })
    // A file written by hand with job state: the import drops it too.
    const res = await importFile(
      { ...file, nodes: [{ ...file.nodes[0], data: script.data }] },
      { query: `?name=${encodeURIComponent('Owls, again')}` },
    )
    expect(res.status).toBe(201)
    const { id, name, warnings } = await res.json()
    expect(name).toBe('Owls, again')
    expect(warnings).toEqual([])
    const copy = await (
      await t.request('GET', `/api/projects/${id}`, { cookie: owner.cookie })
    ).json()
    expect(copy.name).toBe('Owls, again')
    expect(copy.nodes).toEqual([{ ...script, data: { topic: 'Owls' } }])
  })

  it('keeps the files the importer can open and leaves out, in words, those they cannot', async () => {
    const mine = await createProject(owner, { name: 'Mine' })
    const theirs = await createProject(stranger, { name: 'Theirs' })
    const myPicture = await addAsset(owner, mine)
    const theirPicture = await addAsset(stranger, theirs)
    const theirMusic = await addAsset(stranger, theirs)
    const ours = node('image', 0, { imageUrl: `/api/assets/${myPicture}`, prompt: 'ours' })
    const foreign = node('image', 300, { imageUrl: `/api/assets/${theirPicture}`, prompt: 'x' })
    const video = node('video', 600)
    const file = {
      format: 'reelgraph.graph',
      version: 1,
      project: { name: 'Borrowed' },
      nodes: [ours, foreign, video],
      connections: [],
      timelines: {
        [video.id]: { settings: { music: `/api/assets/${theirMusic}`, titleText: 'Hi' } },
      },
    }
    const res = await importFile(file)
    expect(res.status).toBe(201)
    const { id, warnings } = await res.json()
    expect(warnings).toEqual([
      `“image 300” (${foreign.id}): left out imageUrl, which names a file you cannot open (in a project you are not a member of, or deleted).`,
      `The timeline of “video 600” (${video.id}): left out music, which names a file you cannot open (in a project you are not a member of, or deleted).`,
      expect.stringMatching(/^1 file .* still belongs to the project it came from/),
    ])
    const copy = await (
      await t.request('GET', `/api/projects/${id}`, { cookie: owner.cookie })
    ).json()
    expect(byId(copy.nodes)).toEqual(byId([ours, { ...foreign, data: { prompt: 'x' } }, video]))
    const exported = await (await exportFile(id)).json()
    expect(exported.timelines).toEqual({
      [video.id]: { settings: { titleText: 'Hi' }, cuts: {} },
    })
    expect(JSON.stringify(exported)).not.toContain(theirPicture)
    expect(JSON.stringify(exported)).not.toContain(theirMusic)
  })

  describe('refuses what the document refuses, and stores nothing', () => {
    const scene = node('scene', 0, { narration: 'One' })
    const valid = {
      format: 'reelgraph.graph',
      version: 1,
      project: { name: 'Refused' },
      nodes: [scene],
      connections: [],
    }
    const video = node('video', 300)

    it.each<[string, unknown, number, string | RegExp]>([
      [
        'a bad node type',
        { ...valid, nodes: [{ ...scene, type: 'audio' }] },
        400,
        /node type must be one of/,
      ],
      [
        'too many nodes',
        {
          ...valid,
          nodes: Array.from({ length: MAX_NODES + 1 }, (_, i) => ({
            ...scene,
            id: `scene-${i + 1}-a`,
          })),
        },
        400,
        'A project can hold at most 2,000 nodes.',
      ],
      [
        'a connection to a missing node',
        { ...valid, connections: [{ source: scene.id, target: 'scene-1-gone' }] },
        400,
        'A connection\'s target "scene-1-gone" is not a node of this project.',
      ],
      [
        'a data value its node type cannot read',
        { ...valid, nodes: [node('image', 0, { width: 'wide' })] },
        400,
        /width/,
      ],
      [
        'a newer version',
        { ...valid, version: 2, nodes: 'whatever format 2 holds' },
        400,
        GRAPH_FILE_MESSAGES.newer(2),
      ],
      [
        'a version that is no number',
        { ...valid, version: '1' },
        400,
        GRAPH_FILE_MESSAGES.badVersion,
      ],
      ['no format', { ...valid, format: undefined }, 400, GRAPH_FILE_MESSAGES.notAGraphFile],
      ['a list', [valid], 400, GRAPH_FILE_MESSAGES.notAGraphFile],
      [
        'a blank project name',
        { ...valid, project: { name: ' ' } },
        400,
        'Project name is required',
      ],
      [
        'a timeline field the document refuses',
        {
          ...valid,
          nodes: [video],
          timelines: { [video.id]: { settings: { captionStyle: 'comic-sans' } } },
        },
        400,
        /^The timeline of ".*": the timeline field captionStyle holds "comic-sans"/,
      ],
      [
        'a timeline of no Video node',
        { ...valid, timelines: { [scene.id]: { settings: { titleText: 'x' } } } },
        400,
        GRAPH_FILE_MESSAGES.orphanTimeline(scene.id),
      ],
    ])('%s', async (_, body, status, message) => {
      const before = await projectCount()
      const res = await importFile(body)
      expect(res.status).toBe(status)
      const { error } = await res.json()
      if (typeof message === 'string') expect(error.message).toBe(message)
      else expect(error.message).toMatch(message)
      expect(await projectCount()).toBe(before)
    })

    it('a file that is not JSON', async () => {
      const before = await projectCount()
      const res = await t.request('POST', '/api/projects/import', {
        rawBody: '{"format": "reelgraph.graph", "version": 1,',
        headers: { 'content-type': 'application/json' },
        cookie: owner.cookie,
      })
      expect(res.status).toBe(400)
      expect((await res.json()).error).toEqual({
        code: 'INVALID_JSON',
        message: GRAPH_FILE_MESSAGES.notJson,
      })
      expect(await projectCount()).toBe(before)
    })

    it('a file over the size limit', async () => {
      const before = await projectCount()
      const narration = 'x'.repeat(90 * 1024)
      const nodes = Array.from({ length: 70 }, (_, i) => ({
        ...node('scene', i, { narration }),
        id: `scene-${i + 1}-big`,
      }))
      const body = JSON.stringify({ ...valid, nodes })
      expect(body.length).toBeGreaterThan(PROJECT_BODY_LIMIT_BYTES)
      const res = await t.request('POST', '/api/projects/import', {
        rawBody: body,
        headers: { 'content-type': 'application/json' },
        cookie: owner.cookie,
      })
      expect(res.status).toBe(413)
      expect((await res.json()).error.message).toBe(
        'The request body is larger than the 6 MiB limit.',
      )
      expect(await projectCount()).toBe(before)
    })

    it('a graph over the project size within the body limit', async () => {
      const before = await projectCount()
      const narration = 'x'.repeat(90 * 1024)
      const nodes = Array.from({ length: 60 }, (_, i) => ({
        ...node('scene', i, { narration }),
        id: `scene-${i + 1}-big`,
      }))
      const res = await importFile({ ...valid, nodes })
      expect(res.status).toBe(413)
      expect((await res.json()).error.message).toMatch(/^This project would take 5\.3 MiB/)
      expect(await projectCount()).toBe(before)
    })
  })

  it('lets any member export, and answers a stranger 404', async () => {
    const projectId = await createProject(owner, { name: 'Members only' })
    const viewer = await addUser(t, 'Viewer')
    await addMember(t, projectId, viewer.id, 'viewer')
    expect((await exportFile(projectId, viewer.cookie)).status).toBe(200)
    const refused = await exportFile(projectId, stranger.cookie)
    expect(refused.status).toBe(404)
    expect((await refused.json()).error.code).toBe('NOT_FOUND')
    expect((await exportFile(2_147_483_647)).status).toBe(404)
    expect((await t.request('GET', `/api/projects/${projectId}/export.json`)).status).toBe(401)
  })

  it('holds tokens to their scopes and their project limit', async () => {
    const projectId = await createProject(owner, { name: 'By program' })
    const other = await createProject(owner, { name: 'Not this one' })
    const bearer = async (
      scopes: ('projects:read' | 'projects:write')[],
      projectIds?: number[],
    ) => {
      const { token } = await createApiToken(t.deps.db, {
        userId: owner.id,
        name: scopes.join(' '),
        scopes,
        ...(projectIds ? { projectIds } : {}),
      })
      return { authorization: `Bearer ${token}` }
    }
    const reader = await bearer(['projects:read'])
    const writer = await bearer(['projects:write'])
    const limited = await bearer(['projects:read', 'projects:write'], [projectId])

    const exported = await t.request('GET', `/api/projects/${projectId}/export.json`, {
      headers: reader,
    })
    expect(exported.status).toBe(200)
    const file = await exported.json()
    const before = await projectCount()

    const noWrite = await t.request('POST', '/api/projects/import', { body: file, headers: reader })
    expect(noWrite.status).toBe(403)
    expect((await noWrite.json()).error.code).toBe('INSUFFICIENT_SCOPE')
    const noRead = await t.request('GET', `/api/projects/${projectId}/export.json`, {
      headers: writer,
    })
    expect(noRead.status).toBe(403)
    // A token limited to some projects exports those only, and makes no project.
    const outside = await t.request('GET', `/api/projects/${other}/export.json`, {
      headers: limited,
    })
    expect(outside.status).toBe(404)
    const limitedImport = await t.request('POST', '/api/projects/import', {
      body: file,
      headers: limited,
    })
    expect(limitedImport.status).toBe(403)
    expect(await projectCount()).toBe(before)

    const made = await t.request('POST', '/api/projects/import', { body: file, headers: writer })
    expect(made.status).toBe(201)
    expect(await projectCount()).toBe(before + 1)
  })
})
