import { randomUUID } from 'node:crypto'
import type { DB } from '@reelgraph/db'
import { type TestDatabase, testDatabaseKinds } from '@reelgraph/db/testing'
import {
  addNode,
  type DocumentGateway,
  getNodesMap,
  SYNC_ACCESS_CHANGED,
  SYNC_CLOSE_REASONS,
  SYNC_SESSION_ENDED,
} from '@reelgraph/shared'
import { Redis as RedisClient } from 'ioredis'
import type { Kysely } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createDocumentGateway } from './document-gateway.ts'
import { AccessChannel, accessChannelName } from './extensions/access-channel.ts'
import { type RunningSyncServer, startSyncServer } from './server.ts'
import {
  captureLogger,
  childDatabaseUrl,
  connectClient,
  createProject,
  createUser,
  freePort,
  removeMember,
  sampleGraph,
  setMemberRole,
  signIn,
  spawnSyncServer,
  type SyncServerProcess,
  type TestClient,
  textNode,
  waitFor,
} from './testing/sync-test-kit.ts'

const REDIS_URL = process.env.REDIS_URL
/** The second server is a child process: it needs a database both can open (Postgres). */
const postgres = testDatabaseKinds().filter((k) => k.name !== 'pglite')

describe('access channel without Redis', () => {
  it('closes local connections and resolves, logging, when Redis cannot be reached', async () => {
    const kind = testDatabaseKinds()[0]!
    const database = await kind.create()
    const logger = captureLogger()
    const server = await startSyncServer({
      db: database.db,
      logger,
      port: 0,
      host: '127.0.0.1',
      secureCookies: false,
      redisUrl: `redis://127.0.0.1:${await freePort()}`,
      redisPrefix: `reelgraph-test-${randomUUID()}`,
    })
    const clients: TestClient[] = []
    try {
      const channel = server.accessChannel
      expect(channel).toBeInstanceOf(AccessChannel)
      const sent = await channel!.publish({ projectId: 1, userId: 2 })
      expect(sent).toBe(false)
      expect(logger.entries.some((e) => e.level === 'warn' && /access/.test(e.msg ?? ''))).toBe(
        true,
      )
      await expect(channel!.publish({ projectId: -1 })).rejects.toThrow()
      // Nothing else here needs Redis to close a member's connection on this process.
      const gateway = createDocumentGateway(server)
      await expect(gateway.closeUserConnections(1, 2)).resolves.toBeUndefined()
      await expect(gateway.closeSessionConnections(['a-session'])).resolves.toBeUndefined()
      await expect(channel!.publish({ sessionIds: [] })).rejects.toThrow()
    } finally {
      for (const client of clients) client.destroy()
      await server.close()
      await database.dispose()
    }
  })
})

describe.skipIf(!REDIS_URL || postgres.length === 0)(
  'access changes across sync-server processes through Redis',
  () => {
    let database: TestDatabase
    let db: Kysely<DB>
    /** This test process is server A; B is a child process. */
    let a: RunningSyncServer
    let b: SyncServerProcess
    let gateway: DocumentGateway
    const prefix = `reelgraph-test-${randomUUID()}`
    const clients: TestClient[] = []

    const connect = (port: number, projectId: number, cookie: string) => {
      const client = connectClient({ port, projectId, cookie })
      clients.push(client)
      return client
    }

    const sharedProject = async () => {
      const owner = await createUser(db)
      const member = await createUser(db)
      const projectId = await createProject(db, owner.userId, sampleGraph())
      await setMemberRole(db, projectId, member.userId, 'editor')
      return { owner, member, projectId }
    }

    beforeAll(async () => {
      database = await postgres[0]!.create()
      db = database.db
      a = await startSyncServer({
        db,
        logger: captureLogger(),
        port: 0,
        host: '127.0.0.1',
        secureCookies: false,
        storeThrottleMs: 100,
        redisUrl: REDIS_URL,
        redisPrefix: prefix,
      })
      gateway = createDocumentGateway(a)
      await a.accessChannel!.whenSubscribed()
      b = await spawnSyncServer([
        '--database-url',
        await childDatabaseUrl(db),
        '--redis-url',
        REDIS_URL!,
        '--redis-prefix',
        prefix,
        '--store-throttle-ms',
        '100',
      ])
    })

    afterEach(() => {
      for (const client of clients.splice(0)) client.destroy()
    })

    afterAll(async () => {
      await b?.stop()
      await a?.close()
      await database?.dispose()
    })

    const withChildLogs = async (test: () => Promise<void>) => {
      try {
        await test()
      } catch (err) {
        throw new Error(`${(err as Error).message}\nchild stderr:\n${b.stderr()}`, { cause: err })
      }
    }

    it('cuts off a member removed on A from their connection on B', () =>
      withChildLogs(async () => {
        const { owner, member, projectId } = await sharedProject()
        const ownerOnB = connect(b.port, projectId, owner.cookie)
        const memberOnB = connect(b.port, projectId, member.cookie)
        await waitFor(() => ownerOnB.isSynced() && memberOnB.isSynced(), 'both synced on B')

        // Garbage on the channel is ignored: B neither crashes nor closes anything.
        const raw = new RedisClient(REDIS_URL!)
        try {
          await raw.publish(accessChannelName(prefix), 'not json')
          await raw.publish(accessChannelName(prefix), JSON.stringify({ projectId: 'x' }))
        } finally {
          raw.disconnect()
        }

        await removeMember(db, projectId, member.userId)
        await gateway.closeUserConnections(projectId, member.userId)
        await waitFor(() => memberOnB.refusals.length > 0, 'the member refused on B', 20_000)
        expect(memberOnB.closes[0]?.code).toBe(SYNC_ACCESS_CHANGED.code)
        expect(memberOnB.refusals).toEqual([SYNC_CLOSE_REASONS.notFound])
        expect(ownerOnB.closes).toEqual([])

        const after = textNode('after the removal')
        addNode(ownerOnB.doc, after)
        await waitFor(() => ownerOnB.isSaved(), 'the owner’s edit stored')
        const witness = connect(b.port, projectId, owner.cookie)
        await waitFor(() => getNodesMap(witness.doc).has(after.id), 'a witness on B has it')
        expect(getNodesMap(memberOnB.doc).has(after.id)).toBe(false)
        expect(b.child.exitCode).toBeNull()
      }))

    it('reconnects a member on B read-only once A made them a viewer', () =>
      withChildLogs(async () => {
        const { member, projectId } = await sharedProject()
        const memberOnB = connect(b.port, projectId, member.cookie)
        await waitFor(() => memberOnB.isSynced(), 'the member synced on B')
        expect(memberOnB.provider.authorizedScope).toBe('read-write')

        await setMemberRole(db, projectId, member.userId, 'viewer')
        await gateway.closeUserConnections(projectId, member.userId)
        await waitFor(
          () =>
            memberOnB.closes.length > 0 &&
            memberOnB.isSynced() &&
            memberOnB.provider.authorizedScope === 'readonly',
          'the member reconnected read-only on B',
          20_000,
        )
        expect(memberOnB.closes[0]?.code).toBe(SYNC_ACCESS_CHANGED.code)
      }))

    it('closes the sockets on B of a session ended on A, not those of the user’s other session', () =>
      withChildLogs(async () => {
        const { owner, member, projectId } = await sharedProject()
        const otherSession = await signIn(db, member.userId)
        const endedOnB = connect(b.port, projectId, member.cookie)
        const keptOnB = connect(b.port, projectId, otherSession.cookie)
        const ownerOnB = connect(b.port, projectId, owner.cookie)
        await waitFor(
          () => endedOnB.isSynced() && keptOnB.isSynced() && ownerOnB.isSynced(),
          'three providers synced on B',
        )

        // Malformed session messages are ignored: nothing closes, B keeps running.
        const raw = new RedisClient(REDIS_URL!)
        try {
          await raw.publish(accessChannelName(prefix), JSON.stringify({ sessionIds: 'x' }))
          await raw.publish(
            accessChannelName(prefix),
            JSON.stringify({ sessionIds: [], sender: 'someone' }),
          )
        } finally {
          raw.disconnect()
        }

        await db.deleteFrom('sessions').where('id', '=', member.sessionId).execute()
        await gateway.closeSessionConnections([member.sessionId])
        await waitFor(() => endedOnB.refusals.length > 0, 'the ended session refused on B', 20_000)
        expect(endedOnB.closes[0]).toEqual(SYNC_SESSION_ENDED)
        expect(endedOnB.refusals).toEqual([SYNC_CLOSE_REASONS.unauthenticated])

        const after = textNode('after the sign-out')
        addNode(keptOnB.doc, after)
        await waitFor(() => keptOnB.isSaved(), 'the other session’s edit stored')
        await waitFor(() => getNodesMap(ownerOnB.doc).has(after.id), 'the owner sees it')
        expect(keptOnB.closes).toEqual([])
        expect(ownerOnB.closes).toEqual([])
        expect(b.child.exitCode).toBeNull()
      }))

    it('closes a deleted project’s document on B', () =>
      withChildLogs(async () => {
        const { owner, projectId } = await sharedProject()
        const ownerOnB = connect(b.port, projectId, owner.cookie)
        await waitFor(() => ownerOnB.isSynced(), 'the owner synced on B')
        await db.deleteFrom('projects').where('id', '=', projectId).execute()
        await gateway.closeDocument(projectId)
        await waitFor(() => ownerOnB.closes.length > 0, 'the owner’s provider closed on B', 20_000)
        const late = connect(b.port, projectId, owner.cookie)
        await waitFor(() => late.refusals.length > 0, 'a late client refused on B')
        expect(late.refusals).toEqual([SYNC_CLOSE_REASONS.notFound])
        const documents = await db
          .selectFrom('project_documents')
          .select('project_id')
          .where('project_id', '=', projectId)
          .execute()
        expect(documents).toEqual([])
      }))
  },
)
