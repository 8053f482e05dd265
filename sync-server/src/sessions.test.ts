import type { DB } from '@reelgraph/db'
import { type TestDatabase, testDatabaseKinds } from '@reelgraph/db/testing'
import { addNode, getNodesMap, SYNC_CLOSE_REASONS, SYNC_SESSION_ENDED } from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { closeLocalSessionConnections } from './access-channel.ts'
import { createDocumentGateway, type DocumentGateway } from './document-gateway.ts'
import { type RunningSyncServer, startSyncServer } from './server.ts'
import {
  captureLogger,
  connectClient,
  createProject,
  createUser,
  sampleGraph,
  signIn,
  type TestClient,
  textNode,
  waitFor,
} from './testing/sync-test-kit.ts'

/** Ended sessions lose their open sockets (issue 6 / security: sign-out closes them). */
describe.each(testDatabaseKinds())('ended sessions on sync connections on $name', (kind) => {
  let database: TestDatabase
  let db: Kysely<DB>
  let server: RunningSyncServer
  let gateway: DocumentGateway
  const clients: TestClient[] = []

  const connect = (projectId: number, cookie: string) => {
    const client = connectClient({ port: server.port, projectId, cookie })
    clients.push(client)
    return client
  }

  const deleteSessionRow = (sessionId: string) =>
    db.deleteFrom('sessions').where('id', '=', sessionId).execute()

  beforeAll(async () => {
    database = await kind.create()
    db = database.db
    server = await startSyncServer({
      db,
      logger: captureLogger(),
      port: 0,
      host: '127.0.0.1',
      secureCookies: false,
      debounceMs: 100,
    })
    gateway = createDocumentGateway(server.hocuspocus)
  })

  afterEach(() => {
    for (const client of clients.splice(0)) client.destroy()
  })

  afterAll(async () => {
    await server?.close()
    await database?.dispose()
  })

  it('closes every socket of an ended session, in every document, and refuses its reconnect', async () => {
    const user = await createUser(db)
    const other = await signIn(db, user.userId)
    const first = await createProject(db, user.userId, sampleGraph())
    const second = await createProject(db, user.userId, sampleGraph())
    const endedOnFirst = connect(first, user.cookie)
    const endedOnSecond = connect(second, user.cookie)
    const kept = connect(first, other.cookie)
    await waitFor(
      () => endedOnFirst.isSynced() && endedOnSecond.isSynced() && kept.isSynced(),
      'three providers synced',
    )

    await deleteSessionRow(user.sessionId)
    await gateway.closeSessionConnections([user.sessionId])
    for (const ended of [endedOnFirst, endedOnSecond]) {
      await waitFor(() => ended.refusals.length > 0, 'the ended session’s reconnect refused')
      expect(ended.closes[0]).toEqual(SYNC_SESSION_ENDED)
      expect(ended.refusals).toEqual([SYNC_CLOSE_REASONS.unauthenticated])
    }

    // The same user's other session keeps its connection and keeps editing.
    expect(kept.closes).toEqual([])
    const after = textNode('after the sign-out')
    addNode(kept.doc, after)
    await waitFor(() => kept.isSaved(), 'the other session’s edit stored')
    expect(kept.closes).toEqual([])
    expect(getNodesMap(endedOnFirst.doc).has(after.id)).toBe(false)
  })

  it('closes nothing for sessions that have no connection here, or an empty list', async () => {
    const user = await createUser(db)
    const projectId = await createProject(db, user.userId, sampleGraph())
    const client = connect(projectId, user.cookie)
    await waitFor(() => client.isSynced(), 'synced')
    expect(closeLocalSessionConnections(server.hocuspocus, ['no-such-session'])).toBe(0)
    expect(closeLocalSessionConnections(server.hocuspocus, [])).toBe(0)
    await gateway.closeSessionConnections([])
    expect(closeLocalSessionConnections(server.hocuspocus, [user.sessionId])).toBe(1)
    await waitFor(() => client.closes.length > 0, 'closed')
  })
})
