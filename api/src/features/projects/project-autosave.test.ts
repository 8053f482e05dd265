import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import { createNodeId, docToGraph, type Graph, type GraphNode } from '@reelgraph/shared'
import { attachSyncServer, type SyncAttachment } from '@reelgraph/sync-server'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type * as Y from 'yjs'
import { openCanvas } from '../../testing/canvas.ts'
import { createTestApp, sessionCookieFrom, type TestApp } from '../../testing/test-app.ts'

/**
 * REST autosave without opening documents (issue 23 item 3): a `PATCH /api/projects/:id`
 * with nodes and connections is one Yjs update against the document as stored. An editor
 * who has the project open sees it live; a project nobody has open is not loaded into the
 * sync server at all.
 */

function node(x: number, content: string): GraphNode {
  return {
    id: createNodeId('editable-text'),
    type: 'editable-text',
    label: 'Text',
    position: { x, y: 0 },
    data: { content },
    connectionPoints: 'both',
  }
}

const byId = (a: GraphNode, b: GraphNode) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

async function until<T>(check: () => T, what: string, ms = 10_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = check()
    if (value) return value as NonNullable<T>
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

describe.each(testDatabaseKinds())(
  'REST autosave into the document on $name (issue 23)',
  (kind) => {
    let t: TestApp
    let cookie: string | undefined
    let http: Server
    let attachment: SyncAttachment
    let port: number
    let counter = 0

    /** Registers a new person; their session cookie. */
    async function register(name: string) {
      const res = await t.request('POST', '/api/register', {
        body: {
          name,
          email: `autosave-${++counter}-${Date.now()}@example.com`,
          password: 'paper lantern river',
        },
      })
      return sessionCookieFrom(res)
    }

    beforeAll(async () => {
      t = await createTestApp(kind)
      cookie = await register('Editor')
      // The app's sync server on a socket, for an editor's provider.
      http = createServer()
      attachment = attachSyncServer(http, t.sync.hocuspocus)
      await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
      port = (http.address() as AddressInfo).port
    })
    afterAll(async () => {
      await attachment.close()
      await new Promise((resolve) => http.close(resolve))
      await t.close()
    })

    async function project(graph: Graph): Promise<number> {
      const res = await t.request('POST', '/api/projects', {
        body: { name: 'Autosaved', ...graph },
        cookie,
      })
      return (await res.json()).id
    }

    const patch = (id: number, graph: Graph) =>
      t.request('PATCH', `/api/projects/${id}`, { body: graph, cookie })

    /** An editor with the project open: a provider on a WebSocket carrying the session cookie. */
    const openEditor = (projectId: number) =>
      openCanvas(`ws://127.0.0.1:${port}`, cookie ?? '', projectId)

    /**
     * Someone makes `edit` in the canvas and closes it: resolves once the change is stored
     * and the document closed here.
     */
    async function editElsewhere(projectId: number, edit: (nodes: Y.Map<Y.Map<unknown>>) => void) {
      const editor = openEditor(projectId)
      try {
        await until(editor.synced, 'the editor synced')
        edit(editor.doc.getMap<Y.Map<unknown>>('nodes'))
      } finally {
        editor.close()
      }
      const { hocuspocus } = t.sync
      await until(
        () => hocuspocus.getDocumentsCount() === 0 && hocuspocus.loadingDocuments.size === 0,
        'the document stored and closed',
      )
    }

    /** The project's graph as an editor who opens it now reads it. */
    async function storedGraph(projectId: number): Promise<Graph> {
      const read = openEditor(projectId)
      try {
        await until(read.synced, 'a reader synced')
        return docToGraph(read.doc)
      } finally {
        read.close()
      }
    }

    it('reaches an editor who has the project open, live', async () => {
      const a = node(0, 'first')
      const id = await project({ nodes: [a], connections: [] })
      const editor = openEditor(id)
      try {
        await until(editor.synced, 'the editor synced')
        const b = node(300, 'added by the autosave')
        const moved = { ...a, position: { x: 120, y: 40 } }
        const graph = {
          nodes: [moved, b].sort(byId),
          connections: [{ source: a.id, target: b.id }],
        }
        const res = await patch(id, graph)
        expect(res.status).toBe(200)
        expect(await res.json()).toEqual(graph)
        await until(() => docToGraph(editor.doc).nodes.length === 2, 'the change in the editor')
        expect(docToGraph(editor.doc)).toEqual(graph)
        // Through the open document, not a copy of the stored one.
        expect(t.sync.writer.size).toBe(0)
      } finally {
        editor.close()
      }
    })

    it('puts back what it sends over a change made elsewhere since its last autosave', async () => {
      const a = node(0, 'first')
      const id = await project({ nodes: [a], connections: [] })
      const graph = { nodes: [{ ...a, position: { x: 10, y: 0 } }], connections: [] }
      expect((await patch(id, graph)).status).toBe(200)
      // Someone moves the node in the canvas and closes it (stored as they leave).
      await editElsewhere(id, (nodes) => nodes.get(a.id)?.set('position', { x: 99, y: 0 }))
      // The same autosave again: its node is the one answered last, but the document moved on.
      const res = await patch(id, graph)
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual(graph)
      expect((await storedGraph(id)).nodes[0]?.position).toEqual({ x: 10, y: 0 })
    })

    it('writes its change over one made elsewhere meanwhile, to a node it does not touch', async () => {
      const a = node(0, 'first')
      const b = node(300, 'second')
      const id = await project({ nodes: [a, b].sort(byId), connections: [] })
      const first = { nodes: [{ ...a, position: { x: 10, y: 0 } }, b].sort(byId), connections: [] }
      expect((await patch(id, first)).status).toBe(200)
      // Someone edits the other node's text in the canvas and closes it (stored as they leave).
      await editElsewhere(id, (nodes) => {
        ;(nodes.get(b.id)?.get('data') as Y.Map<unknown>).set('content', 'edited elsewhere')
      })
      // The next autosave moves only the first node, and sends the other as it last saw it.
      const graph = { nodes: [{ ...a, position: { x: 20, y: 0 } }, b].sort(byId), connections: [] }
      const res = await patch(id, graph)
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual(graph)
      expect(await storedGraph(id)).toEqual(graph)
    })

    /** How many stored documents the REST path read through the graph index, and decoded. */
    async function restReads() {
      const { values } = await t.sync.metrics.restReads.get()
      const of = (via: string) => values.find((v) => v.labels.via === via)?.value ?? 0
      return { index: of('graph-index'), decoded: of('document') }
    }

    it('writes a stored project through its graph index, decoding nothing, until someone else edits it', async () => {
      const a = node(0, 'indexed')
      const b = node(300, 'other')
      const id = await project({ nodes: [a, b].sort(byId), connections: [] })
      const before = await restReads()
      let graph: Graph = { nodes: [], connections: [] }
      for (const x of [10, 20, 30]) {
        graph = { nodes: [{ ...a, position: { x, y: 0 } }, b].sort(byId), connections: [] }
        const res = await patch(id, graph)
        expect(res.status).toBe(200)
        expect(await res.json()).toEqual(graph)
      }
      // One read of the stored document (the seed's snapshot and its index), nothing decoded.
      expect(await restReads()).toEqual({ index: before.index + 1, decoded: before.decoded })
      expect(await storedGraph(id)).toEqual(graph)
      // Someone else's change (a log row the index does not know): the document is decoded.
      await editElsewhere(id, (nodes) =>
        (nodes.get(b.id)!.get('data') as Y.Map<unknown>).set('content', 'theirs'),
      )
      const moved = { nodes: [{ ...a, position: { x: 40, y: 0 } }, b].sort(byId), connections: [] }
      const res = await patch(id, moved)
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual(moved)
      expect(await restReads()).toEqual({ index: before.index + 1, decoded: before.decoded + 1 })
      expect(await storedGraph(id)).toEqual(moved)
    })

    it('reads a stored project for its first save only once the caller may write it', async () => {
      const a = node(0, 'kept from strangers')
      const id = await project({ nodes: [a], connections: [] })
      // Another person: first a stranger to the project, then one of its viewers.
      const other = await register('Other')
      const otherId = (await (await t.request('GET', '/api/user', { cookie: other })).json()).id
      const moved = { nodes: [{ ...a, position: { x: 5, y: 5 } }], connections: [] }
      const before = await restReads()
      const stranger = await t.request('PATCH', `/api/projects/${id}`, {
        body: moved,
        cookie: other,
      })
      expect(stranger.status).toBe(404)
      await t.deps.db
        .insertInto('project_members')
        .values({ project_id: id, user_id: otherId, role: 'viewer', created_at: new Date() })
        .execute()
      const viewer = await t.request('PATCH', `/api/projects/${id}`, { body: moved, cookie: other })
      expect(viewer.status).toBe(403)
      // Neither read the stored document nor kept a copy of it.
      expect(await restReads()).toEqual(before)
      expect(t.sync.writer.knownNodes(id)).toBeUndefined()
      // The editor's first save reads it once, takes its nodes as they are, and writes.
      const res2 = await patch(id, moved)
      expect(res2.status).toBe(200)
      expect(await res2.json()).toEqual(moved)
      expect(await restReads()).toEqual({ index: before.index + 1, decoded: before.decoded })
      expect(await storedGraph(id)).toEqual(moved)
    })

    it('loads nothing into the sync server for a project nobody has open, and stores the change', async () => {
      const a = node(0, 'first')
      const id = await project({ nodes: [a], connections: [] })
      // What the first test opened has closed: no document is open or loading.
      const { hocuspocus } = t.sync
      await until(
        () => hocuspocus.getDocumentsCount() === 0 && hocuspocus.loadingDocuments.size === 0,
        'no open document',
      )
      const opened = vi.spyOn(hocuspocus, 'createDocument')
      try {
        const b = node(300, 'second')
        for (const x of [10, 20, 30]) {
          const graph = { nodes: [{ ...a, position: { x, y: 0 } }, b].sort(byId), connections: [] }
          const res = await patch(id, graph)
          expect(res.status).toBe(200)
          expect(await res.json()).toEqual(graph)
          expect(hocuspocus.getDocumentsCount()).toBe(0)
        }
        expect(opened).not.toHaveBeenCalled()
        expect(hocuspocus.loadingDocuments.size).toBe(0)
      } finally {
        opened.mockRestore()
      }
      // Stored: an editor who opens it now, and a GET, read the last PATCH.
      const stored = await storedGraph(id)
      expect(stored.nodes.find((n) => n.id === a.id)?.position).toEqual({ x: 30, y: 0 })
      const read = await (await t.request('GET', `/api/projects/${id}`, { cookie })).json()
      expect(read.nodes.find((n: GraphNode) => n.id === a.id)?.position).toEqual({ x: 30, y: 0 })
    })
  },
)
