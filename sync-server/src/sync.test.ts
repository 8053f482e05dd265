import { testDatabaseKinds } from '@reelgraph/db/testing'
import {
  addNode,
  decodeSavedSnapshot,
  docToGraph,
  getNodesMap,
  moveNodes,
  removeNodes,
  SYNC_CLOSE_REASONS,
  updateNodeData,
} from '@reelgraph/shared'
import { sql } from 'kysely'
import { describe, expect, it, onTestFinished } from 'vitest'
import { WebSocket } from 'ws'
import * as Y from 'yjs'
import { AuthExtension } from './extensions/auth.ts'
import { PersistenceExtension } from './extensions/persistence.ts'
import { type StartSyncServerOptions, startSyncServer } from './server.ts'
import { useSyncServer } from './testing/sync-fixture.ts'
import {
  captureLogger,
  createProject,
  createUser,
  sampleGraph,
  storedGraphs,
  type TestClient,
  textNode,
  waitFor,
} from './testing/sync-test-kit.ts'

/** Short debounce so stores happen quickly; the production values are tested by config. */
const THROTTLE_MS = 100

describe.each(testDatabaseKinds())('sync server on $name', (kind) => {
  const logger = captureLogger()
  const sync = useSyncServer(kind, {
    logger,
    storeThrottleMs: THROTTLE_MS,
    retryBaseMs: 50,
  })

  /** Another server on the same database, beside the fixture's. */
  const startAnother = (options: Partial<StartSyncServerOptions>) =>
    startSyncServer({
      db: sync.db,
      logger,
      port: 0,
      host: '127.0.0.1',
      secureCookies: false,
      ...options,
    })

  /** The project row and snapshot as the api serves them: materialized first (issue 15). */
  const storedRow = async (projectId: number) => {
    await storedGraphs(sync.db, projectId)
    return sync.db
      .selectFrom('projects')
      .leftJoin('project_documents', 'project_documents.project_id', 'projects.id')
      .select([
        'projects.nodes',
        'projects.connections',
        'projects.updated_at',
        'project_documents.state',
      ])
      .where('projects.id', '=', projectId)
      .executeTakeFirstOrThrow()
  }

  /** The stored Yjs state, loaded into a fresh doc, as REST JSON. */
  const storedDocGraph = async (projectId: number) => (await storedGraphs(sync.db, projectId)).state

  it('syncs two providers of the same project both ways', async () => {
    const { userId, cookie } = await createUser(sync.db)
    const projectId = await createProject(sync.db, userId)
    const alice = sync.connect(projectId, cookie)
    const bob = sync.connect(projectId, cookie)
    await waitFor(() => alice.isSynced() && bob.isSynced(), 'both providers synced')

    const a = textNode('from alice')
    addNode(alice.doc, a)
    await waitFor(() => getNodesMap(bob.doc).has(a.id), 'bob sees alice’s node')
    updateNodeData(bob.doc, a.id, { content: 'edited by bob' })
    await waitFor(
      () => docToGraph(alice.doc).nodes[0]?.data.content === 'edited by bob',
      'alice sees bob’s edit',
    )
    expect(docToGraph(alice.doc)).toEqual(docToGraph(bob.doc))
  })

  it('refuses no cookie, a bad cookie and another user’s project with the shared reasons', async () => {
    const owner = await createUser(sync.db)
    const stranger = await createUser(sync.db)
    const projectId = await createProject(sync.db, owner.userId, sampleGraph())
    const anonymous = sync.connect(projectId)
    const forged = sync.connect(projectId, 'session=abcdefgh.ijklmnop')
    const other = sync.connect(projectId, stranger.cookie)
    const missing = sync.connect(2_000_000_000, owner.cookie)
    await waitFor(
      () => [anonymous, forged, other, missing].every((c) => c.refusals.length > 0),
      'four refusals',
    )
    expect(anonymous.refusals).toEqual([SYNC_CLOSE_REASONS.unauthenticated])
    expect(forged.refusals).toEqual([SYNC_CLOSE_REASONS.unauthenticated])
    expect(other.refusals).toEqual([SYNC_CLOSE_REASONS.notFound])
    expect(missing.refusals).toEqual([SYNC_CLOSE_REASONS.notFound])
    for (const client of [anonymous, forged, other, missing]) {
      expect(client.provider.isAuthenticated).toBe(false)
      expect(getNodesMap(client.doc).size).toBe(0)
    }
    // Refused before the document was loaded: nothing was seeded for them.
    expect((await storedRow(projectId)).state).toBeNull()
  })

  it('checks the secure cookie name and the browser Origin when configured', async () => {
    const { userId, cookie } = await createUser(sync.db)
    const projectId = await createProject(sync.db, userId)
    const token = cookie.slice('session='.length)
    const auth = new AuthExtension({
      db: sync.db,
      logger,
      secureCookies: true,
      allowedOrigins: ['https://app.example'],
    })
    const attempt = (headers: Record<string, string>) =>
      auth
        .onAuthenticate({
          requestHeaders: new Headers(headers),
          documentName: String(projectId),
          connectionConfig: { readOnly: false, isAuthenticated: false },
        } as any)
        .then(
          (context) => context,
          (err: { reason?: string }) => err.reason,
        )
    const sessionId = token.split('.')[0]
    expect(await attempt({ cookie: `__Host-session=${token}` })).toEqual({
      userId,
      sessionId,
      projectId,
      role: 'owner',
    })
    expect(await attempt({ cookie })).toBe(SYNC_CLOSE_REASONS.unauthenticated)
    expect(
      await attempt({ cookie: `__Host-session=${token}`, origin: 'https://app.example' }),
    ).toEqual({ userId, sessionId, projectId, role: 'owner' })
    expect(
      await attempt({ cookie: `__Host-session=${token}`, origin: 'https://evil.example' }),
    ).toBe(SYNC_CLOSE_REASONS.unauthenticated)
    // The one origin rule of REST and sync (issue 11 item 3): the app opened at another name
    // of the same server (127.0.0.1 instead of the configured localhost) may connect...
    expect(
      await attempt({
        cookie: `__Host-session=${token}`,
        origin: 'http://127.0.0.1:3000',
        host: '127.0.0.1:3000',
      }),
    ).toEqual({ userId, sessionId, projectId, role: 'owner' })
    // ...but not a page of another host, nor another port of this one.
    for (const origin of ['http://evil.example:3000', 'http://127.0.0.1:4000']) {
      expect(
        await attempt({ cookie: `__Host-session=${token}`, origin, host: '127.0.0.1:3000' }),
      ).toBe(SYNC_CLOSE_REASONS.unauthenticated)
    }
  })

  it('seeds a document from the project JSON exactly once, even when two servers race', async () => {
    const { userId, cookie } = await createUser(sync.db)
    const graph = sampleGraph()
    const projectId = await createProject(sync.db, userId, graph)
    const second = await startAnother({ storeThrottleMs: THROTTLE_MS })
    try {
      const seededBefore = logger.entries.filter(
        (e) => e.msg === 'project document loaded' && (e.obj as { seeded?: boolean }).seeded,
      ).length
      const alice = sync.connect(projectId, cookie)
      const bob = sync.connect(projectId, cookie, second)
      await waitFor(() => alice.isSynced() && bob.isSynced(), 'both providers synced')
      expect(docToGraph(alice.doc)).toEqual(graph)
      expect(docToGraph(bob.doc)).toEqual(graph)
      // One seed won: both servers hold the same items (same client ids and clocks), so the
      // two copies merge without duplicating anything.
      expect(Y.encodeStateVector(alice.doc)).toEqual(Y.encodeStateVector(bob.doc))
      Y.applyUpdate(alice.doc, Y.encodeStateAsUpdate(bob.doc))
      expect(docToGraph(alice.doc)).toEqual(graph)
      const seeded = logger.entries.filter(
        (e) => e.msg === 'project document loaded' && (e.obj as { seeded?: boolean }).seeded,
      ).length
      expect(seeded - seededBefore).toBe(1)
      const rows = await sync.db
        .selectFrom('project_documents')
        .select('state')
        .where('project_id', '=', projectId)
        .execute()
      expect(rows).toHaveLength(1)

      // Once the document exists, its JSON is never seeded again: the stored state wins.
      alice.destroy()
      bob.destroy()
      await waitFor(
        () =>
          !sync.server.hocuspocus.documents.has(String(projectId)) &&
          !second.hocuspocus.documents.has(String(projectId)),
        'documents unloaded',
      )
      await sync.db
        .updateTable('projects')
        .set({ nodes: JSON.stringify([textNode('drifted JSON')]), connections: '[]' })
        .where('id', '=', projectId)
        .execute()
      const carol = sync.connect(projectId, cookie)
      await waitFor(() => carol.isSynced(), 'carol synced')
      expect(docToGraph(carol.doc)).toEqual(graph)
    } finally {
      await second.close()
    }
  })

  it('seeds once when two loads race in the same instant', async () => {
    const { userId } = await createUser(sync.db)
    const graph = sampleGraph()
    const projectId = await createProject(sync.db, userId, graph)
    const docs = [new Y.Doc(), new Y.Doc(), new Y.Doc()]
    await Promise.all(
      docs.map((document) =>
        new PersistenceExtension({ db: sync.db, logger }).onLoadDocument({
          document,
          documentName: String(projectId),
          connectionConfig: { readOnly: false, isAuthenticated: false },
        } as any),
      ),
    )
    const [first, ...rest] = docs.map((d) => Y.encodeStateAsUpdate(d))
    for (const state of rest) expect(state).toEqual(first)
    expect(docToGraph(docs[0]!)).toEqual(graph)
  })

  it('sends `saved` after a change, once Postgres holds the doc state and the JSON', async () => {
    const { userId, cookie } = await createUser(sync.db)
    const projectId = await createProject(sync.db, userId)
    const client = sync.connect(projectId, cookie)
    await waitFor(() => client.isSynced(), 'synced')
    const before = await storedRow(projectId)

    const node = textNode('saved text')
    addNode(client.doc, node)
    const clock = Y.getState(client.doc.store, client.doc.clientID)
    const saved = await waitFor(
      () =>
        client.messages.find(
          (m) =>
            m.type === 'saved' &&
            (decodeSavedSnapshot(m.snapshot)?.sv.get(client.doc.clientID) ?? 0) >= clock,
        ),
      'a saved message covering the change',
    )
    expect(saved.type === 'saved' && Number.isNaN(Date.parse(saved.savedAt))).toBe(false)
    const row = await storedRow(projectId)
    expect(row.nodes).toEqual([node])
    expect(row.connections).toEqual([])
    expect(row.updated_at.getTime()).toBeGreaterThan(before.updated_at.getTime())
    expect(await storedDocGraph(projectId)).toEqual({ nodes: [node], connections: [] })

    // A pure deletion does not move the state vector; the snapshot still tells it is saved.
    removeNodes(client.doc, [node.id])
    expect(client.isSaved()).toBe(false)
    await waitFor(() => client.isSaved(), 'the deletion saved')
    expect((await storedRow(projectId)).nodes).toEqual([])
    expect(await storedDocGraph(projectId)).toEqual({ nodes: [], connections: [] })
  })

  it('stores while someone keeps editing: a throttle from the first unsaved change, not a debounce (issue 15 item 6)', async () => {
    const { userId, cookie } = await createUser(sync.db)
    const graph = {
      nodes: Array.from({ length: 100 }, (_, i) => textNode(`node ${i}`, i * 10)),
      connections: [],
    }
    const projectId = await createProject(sync.db, userId, graph)
    const throttleMs = 400
    const own = await startAnother({ storeThrottleMs: throttleMs })
    onTestFinished(() => own.close())
    const client = sync.connect(projectId, cookie, own)
    await waitFor(() => client.isSynced(), 'synced')
    const nodeId = graph.nodes[0]!.id
    const saves = () => client.messages.filter((m) => m.type === 'saved').length
    const before = saves()
    // A move every 20 ms for 3 s: a debounce of 400 ms would never store before the moves
    // stop; the throttle stores 400 ms after the first unsaved one, again and again.
    for (let i = 0; i < 150; i++) {
      moveNodes(client.doc, new Map([[nodeId, { x: i, y: i }]]))
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(saves() - before).toBeGreaterThanOrEqual(2)
    await waitFor(() => client.isSaved(), 'the last move saved')
    // Each store appended only what changed since the one before, not the document.
    const snapshot = await sync.db
      .selectFrom('project_documents')
      .select(sql<number>`length(state)`.as('bytes'))
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow()
    const rows = await sync.db
      .selectFrom('project_document_updates')
      .select(sql<number>`length(update)`.as('bytes'))
      .where('project_id', '=', projectId)
      .execute()
    expect(rows.length).toBeGreaterThan(1)
    for (const row of rows) expect(Number(row.bytes)).toBeLessThan(Number(snapshot.bytes) / 10)
    expect(await storedDocGraph(projectId)).toEqual(docToGraph(client.doc))
  })

  it('never overwrites stored data after a failed or absent load', async () => {
    const { userId, cookie } = await createUser(sync.db)
    const projectId = await createProject(sync.db, userId)
    const writer = sync.connect(projectId, cookie)
    await waitFor(() => writer.isSynced(), 'synced')
    const node = textNode('precious')
    addNode(writer.doc, node)
    await waitFor(() => writer.isSaved(), 'saved')
    writer.destroy()
    await waitFor(() => !sync.server.hocuspocus.documents.has(String(projectId)), 'unloaded')
    const stored = await storedRow(projectId)

    // The load fails (the table is unreachable): the client is refused, nothing is stored.
    await sql`alter table project_documents rename to project_documents_away`.execute(sync.db)
    let loader: TestClient
    try {
      loader = sync.connect(projectId, cookie)
      await waitFor(() => loader.refusals.length > 0, 'refusal')
      expect(loader.refusals).toEqual([SYNC_CLOSE_REASONS.loadFailed])
      expect(sync.server.hocuspocus.documents.has(String(projectId))).toBe(false)
    } finally {
      await sql`alter table project_documents_away rename to project_documents`.execute(sync.db)
    }
    const after = await storedRow(projectId)
    expect(Buffer.from(after.state!)).toEqual(Buffer.from(stored.state!))
    expect(after.nodes).toEqual([node])

    // A store of a document that was never loaded here writes nothing.
    const empty = new Y.Doc()
    await new PersistenceExtension({ db: sync.db, logger }).onStoreDocument({
      document: empty,
      documentName: String(projectId),
    } as any)
    expect(Buffer.from((await storedRow(projectId)).state!)).toEqual(Buffer.from(stored.state!))

    // A direct connection to a missing project fails and creates nothing.
    await expect(sync.gateway.applyGraph(2_000_000_001, sampleGraph())).rejects.toThrow(
      /could not be opened \(project-not-found\)/,
    )
    const fresh = sync.connect(projectId, cookie)
    await waitFor(() => fresh.isSynced(), 'a later load works')
    expect(docToGraph(fresh.doc).nodes).toEqual([node])
  })

  it('retries a failed store, telling clients, until it reaches the database', async () => {
    const { userId, cookie } = await createUser(sync.db)
    const projectId = await createProject(sync.db, userId)
    const client = sync.connect(projectId, cookie)
    await waitFor(() => client.isSynced(), 'synced')
    await sql`alter table project_document_updates rename to project_document_updates_away`.execute(
      sync.db,
    )
    const node = textNode('retry me')
    try {
      addNode(client.doc, node)
      await waitFor(
        () => client.messages.filter((m) => m.type === 'save-failed').length >= 2,
        'two save-failed messages',
      )
      expect(client.isSaved()).toBe(false)
    } finally {
      await sql`alter table project_document_updates_away rename to project_document_updates`.execute(
        sync.db,
      )
    }
    await waitFor(() => client.isSaved(), 'saved after the retry')
    expect((await storedRow(projectId)).nodes).toEqual([node])
    expect(await storedDocGraph(projectId)).toEqual({ nodes: [node], connections: [] })
    expect(logger.entries.some((e) => e.msg === 'storing a document failed; retrying')).toBe(true)
  })

  it('stops retrying a failing store after its attempts, tells clients, and stores at the next change', async () => {
    const bounded = await startAnother({
      storeThrottleMs: THROTTLE_MS,
      retryBaseMs: 50,
      maxStoreAttempts: 3,
    })
    onTestFinished(() => bounded.close())
    const { userId, cookie } = await createUser(sync.db)
    const projectId = await createProject(sync.db, userId)
    const client = sync.connect(projectId, cookie, bounded)
    await waitFor(() => client.isSynced(), 'synced')
    await sql`alter table project_document_updates rename to project_document_updates_away`.execute(
      sync.db,
    )
    const failures = () => client.messages.filter((m) => m.type === 'save-failed')
    try {
      addNode(client.doc, textNode('kept in memory'))
      await waitFor(() => failures().some((m) => m.retryInMs === null), 'the last save-failed')
      expect(failures().map((m) => m.retryInMs === null)).toEqual([false, false, true])
      // No more attempts until something changes.
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(failures()).toHaveLength(3)
    } finally {
      await sql`alter table project_document_updates_away rename to project_document_updates`.execute(
        sync.db,
      )
    }
    const next = textNode('the next change')
    addNode(client.doc, next)
    await waitFor(() => client.isSaved(), 'both changes saved with the next store')
    expect((await storedDocGraph(projectId))?.nodes).toHaveLength(2)
  })

  it('applies a REST graph to the live document: providers see it, and it is stored', async () => {
    const { userId, cookie } = await createUser(sync.db)
    const projectId = await createProject(sync.db, userId)
    const client = sync.connect(projectId, cookie)
    await waitFor(() => client.isSynced(), 'synced')
    const graph = sampleGraph()
    const applying = sync.gateway.applyGraph(projectId, graph)
    await waitFor(
      () => JSON.stringify(docToGraph(client.doc)) === JSON.stringify(graph),
      'the provider sees the REST graph',
    )
    await applying
    // applyGraph resolves only once its change is stored.
    expect((await storedRow(projectId)).nodes).toEqual(graph.nodes)
    expect(await storedDocGraph(projectId)).toEqual(graph)

    // Deletions only (the state vector does not move): still waits for the store.
    await sync.gateway.applyGraph(projectId, { nodes: [], connections: [] })
    expect(await storedRow(projectId)).toMatchObject({ nodes: [], connections: [] })
    await waitFor(() => getNodesMap(client.doc).size === 0, 'the provider sees the deletion')

    // No one connected: the document is loaded (seeded), changed, stored and unloaded.
    const idle = await createProject(sync.db, userId, sampleGraph())
    const replacement = { nodes: [textNode('from REST')], connections: [] }
    await sync.gateway.applyGraph(idle, replacement)
    expect(await storedDocGraph(idle)).toEqual(replacement)
    expect((await storedRow(idle)).nodes).toEqual(replacement.nodes)
    await waitFor(() => !sync.server.hocuspocus.documents.has(String(idle)), 'unloaded')
  })

  it('closes a deleted project’s document without writing it back', async () => {
    const { userId, cookie } = await createUser(sync.db)
    const projectId = await createProject(sync.db, userId, sampleGraph())
    const client = sync.connect(projectId, cookie)
    await waitFor(() => client.isSynced(), 'synced')
    let closed = false
    client.provider.on('close', () => {
      closed = true
    })
    addNode(client.doc, textNode('unsaved when deleted'))
    await waitFor(() => client.isAcknowledged(), 'the server has the change')
    await sync.db.deleteFrom('projects').where('id', '=', projectId).execute()
    await sync.gateway.closeDocument(projectId)
    expect(sync.server.hocuspocus.documents.has(String(projectId))).toBe(false)
    await waitFor(() => closed, 'the provider is told')
    expect(
      await sync.db
        .selectFrom('project_documents')
        .select('project_id')
        .where('project_id', '=', projectId)
        .execute(),
    ).toEqual([])
    const late = sync.connect(projectId, cookie)
    await waitFor(() => late.refusals.length > 0, 'refusal')
    expect(late.refusals).toEqual([SYNC_CLOSE_REASONS.notFound])
  })

  it('stores pending changes when it shuts down gracefully', async () => {
    const { userId, cookie } = await createUser(sync.db)
    const projectId = await createProject(sync.db, userId)
    const own = await startAnother({ storeThrottleMs: 60_000 })
    const client = sync.connect(projectId, cookie, own)
    await waitFor(() => client.isSynced(), 'synced')
    const node = textNode('stored at shutdown')
    addNode(client.doc, node)
    await waitFor(() => client.isAcknowledged(), 'the server has the change')
    expect((await storedRow(projectId)).nodes).toEqual([])
    await own.close()
    expect(own.hocuspocus.getDocumentsCount()).toBe(0)
    expect((await storedRow(projectId)).nodes).toEqual([node])
    expect(await storedDocGraph(projectId)).toEqual({ nodes: [node], connections: [] })
  })

  it('answers other upgrade paths 404 when nothing else handles them', async () => {
    const status = await new Promise<number | undefined>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${sync.server.port}/elsewhere`)
      ws.on('unexpected-response', (_req, res) => {
        resolve(res.statusCode)
        ws.terminate()
      })
      ws.on('open', () => {
        resolve(101)
        ws.close()
      })
      ws.on('error', () => resolve(undefined))
    })
    expect(status).toBe(404)
  })
})
