import { type DB, projectDocumentIsStale } from '@reelgraph/db'
import { type TestDatabase, testDatabaseKinds } from '@reelgraph/db/testing'
import { addNode, docToGraph } from '@reelgraph/shared'
import { type Kysely, sql, type Transaction } from 'kysely'
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import {
  childDatabaseUrl,
  connectClient,
  createProject,
  createUser,
  sampleGraph,
  spawnSyncServer,
  storedDocumentGraph,
  storedGraphs,
  type SyncServerProcess,
  type TestClient,
  textNode,
  waitFor,
} from './testing/sync-test-kit.ts'

/**
 * Faults around the append log (issue 15 tests): a sync-server process SIGKILLed while its
 * append or its compaction waits inside Postgres, and two processes compacting one project
 * at once. Each pause is a row lock the test holds (no timing): the server's statement is
 * seen waiting in `pg_stat_activity` before the kill. Two processes need one database they
 * can both open, and `pg_stat_activity`: Postgres only.
 */
const postgres = testDatabaseKinds().filter((k) => k.name !== 'pglite')

/** Holds a row lock taken by `lock` in its own transaction until `release()`. */
async function holdLock(
  db: Kysely<DB>,
  lock: (trx: Transaction<DB>) => Promise<unknown>,
): Promise<{ release(): Promise<void> }> {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  let locked!: () => void
  const isLocked = new Promise<void>((resolve) => (locked = resolve))
  const done = db.transaction().execute(async (trx) => {
    await lock(trx)
    locked()
    await released
  })
  await Promise.race([isLocked, done])
  return {
    async release() {
      release()
      await done
    },
  }
}

/** Resolves once `count` statements matching `pattern` (ILIKE) wait for a lock. */
async function waitForLockWaiters(db: Kysely<DB>, pattern: string, count: number, what: string) {
  await waitFor(async () => {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and query ilike ${pattern}`.execute(
      db,
    )
    return (rows[0]?.n ?? 0) >= count
  }, what)
}

/** Adds a node on `client` and waits until a `saved` message covers it. */
async function savedEdit(client: TestClient, content: string, x: number): Promise<string> {
  const node = textNode(content, x)
  addNode(client.doc, node)
  await waitFor(() => client.isSaved(), `"${content}" saved`)
  return node.id
}

describe.skipIf(postgres.length === 0)('the append log under faults (issue 15)', () => {
  it('loses no acknowledged edit when a process is SIGKILLed while its append waits', async () => {
    const database: TestDatabase = await postgres[0]!.create()
    const db = database.db
    const { userId, cookie } = await createUser(db)
    const projectId = await createProject(db, userId, sampleGraph())
    const args = ['--database-url', await childDatabaseUrl(db), '--store-throttle-ms', '50']
    const processes: SyncServerProcess[] = []
    const doc = new Y.Doc()
    let client: TestClient | undefined
    let lock: { release(): Promise<void> } | undefined
    try {
      const first = await spawnSyncServer(args)
      processes.push(first)
      client = connectClient({ port: first.port, projectId, cookie, doc })
      await waitFor(() => client!.isSynced(), 'synced')
      const acknowledged = [await savedEdit(client, 'saved before the crash', 0)]

      // The append's foreign key check waits for the project row the test holds.
      lock = await holdLock(db, (trx) =>
        trx.selectFrom('projects').select('id').where('id', '=', projectId).forUpdate().execute(),
      )
      const pending = textNode('appended while the process dies', 300)
      addNode(doc, pending)
      await waitFor(() => client!.isAcknowledged(), 'the server has the edit')
      await waitForLockWaiters(
        db,
        'insert into "project_document_updates"%',
        1,
        'the append waiting for the row lock',
      )
      expect(client.isSaved()).toBe(false)
      first.child.kill('SIGKILL')
      expect(await first.exited).toBeNull()
      await lock.release()
      lock = undefined

      const second = await spawnSyncServer([...args, '--port', String(first.port)])
      processes.push(second)
      // The provider reconnects and sends what the new process lacks; it is stored and saved.
      await waitFor(() => client!.isSaved(), 'the pending edit saved by the second process', 30_000)
      const stored = await storedGraphs(db, projectId)
      expect(stored.state).toEqual(docToGraph(doc))
      expect(stored.json).toEqual(docToGraph(doc))
      for (const id of [...acknowledged, pending.id]) {
        expect(stored.state?.nodes.map((n) => n.id)).toContain(id)
      }
    } catch (err) {
      const logs = processes.map((p) => p.stderr()).join('\n')
      throw new Error(`${(err as Error).message}\nchild stderr:\n${logs}`, { cause: err })
    } finally {
      client?.destroy()
      await lock?.release()
      for (const p of processes) await p.stop()
      await database.dispose()
    }
  })

  it('loses no acknowledged edit when a process is SIGKILLed in the middle of a compaction', async () => {
    const database: TestDatabase = await postgres[0]!.create()
    const db = database.db
    const { userId, cookie } = await createUser(db)
    const projectId = await createProject(db, userId, sampleGraph())
    const args = [
      '--database-url',
      await childDatabaseUrl(db),
      '--store-throttle-ms',
      '50',
      '--compact-updates',
      '3',
    ]
    const processes: SyncServerProcess[] = []
    const doc = new Y.Doc()
    let client: TestClient | undefined
    let lock: { release(): Promise<void> } | undefined
    try {
      const server = await spawnSyncServer(args)
      processes.push(server)
      client = connectClient({ port: server.port, projectId, cookie, doc })
      await waitFor(() => client!.isSynced(), 'synced')
      // The compaction locks the project, reads, writes the JSON, then waits here for the
      // snapshot row the test holds.
      lock = await holdLock(db, (trx) =>
        trx
          .selectFrom('project_documents')
          .select('project_id')
          .where('project_id', '=', projectId)
          .forUpdate()
          .execute(),
      )
      const acknowledged: string[] = []
      for (let i = 0; i < 3; i++) acknowledged.push(await savedEdit(client, `edit ${i}`, i * 100))
      await waitForLockWaiters(
        db,
        'update "project_documents"%',
        1,
        'the compaction waiting to write the snapshot',
      )
      // Appends go on while a compaction is under way.
      for (let i = 3; i < 5; i++) acknowledged.push(await savedEdit(client, `edit ${i}`, i * 100))
      server.child.kill('SIGKILL')
      expect(await server.exited).toBeNull()
      await lock.release()
      lock = undefined

      // The compaction rolled back: every appended row is still there, and they load to
      // everything acknowledged.
      await waitFor(async () => {
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from pg_stat_activity
          where datname = current_database() and query ilike 'update "project_documents"%'`.execute(
          db,
        )
        return rows[0]?.n === 0
      }, 'the dead process’s session gone')
      expect(await projectDocumentIsStale({ db, projectId })).toBe(true)
      const graph = await storedDocumentGraph(db, projectId)
      expect(graph).toEqual(docToGraph(doc))
      for (const id of acknowledged) expect(graph?.nodes.map((n) => n.id)).toContain(id)
      // A later compaction (here the api's read) merges them all.
      const stored = await storedGraphs(db, projectId)
      expect(stored.json).toEqual(docToGraph(doc))
      expect(await projectDocumentIsStale({ db, projectId })).toBe(false)
    } catch (err) {
      const logs = processes.map((p) => p.stderr()).join('\n')
      throw new Error(`${(err as Error).message}\nchild stderr:\n${logs}`, { cause: err })
    } finally {
      client?.destroy()
      await lock?.release()
      for (const p of processes) await p.stop()
      await database.dispose()
    }
  })

  it('merges every row once when two processes compact the same project at once', async () => {
    const database: TestDatabase = await postgres[0]!.create()
    const db = database.db
    const { userId, cookie } = await createUser(db)
    const projectId = await createProject(db, userId, sampleGraph())
    const args = [
      '--database-url',
      await childDatabaseUrl(db),
      '--store-throttle-ms',
      '50',
      '--compact-updates',
      '2',
    ]
    const processes: SyncServerProcess[] = []
    const clients: TestClient[] = []
    let lock: { release(): Promise<void> } | undefined
    try {
      const a = await spawnSyncServer(args)
      processes.push(a)
      const b = await spawnSyncServer(args)
      processes.push(b)
      // No Redis: each process has its own copy; both append to, and compact, one log.
      const alice = connectClient({ port: a.port, projectId, cookie })
      const bob = connectClient({ port: b.port, projectId, cookie })
      clients.push(alice, bob)
      await waitFor(() => alice.isSynced() && bob.isSynced(), 'both synced')
      // Both compactions wait for the project row (appends do not: `for no key update`).
      lock = await holdLock(db, (trx) =>
        trx
          .selectFrom('projects')
          .select('id')
          .where('id', '=', projectId)
          .forNoKeyUpdate()
          .execute(),
      )
      const acknowledged: string[] = []
      for (let i = 0; i < 3; i++) {
        acknowledged.push(await savedEdit(alice, `alice ${i}`, i * 100))
        acknowledged.push(await savedEdit(bob, `bob ${i}`, i * 100 + 50))
      }
      await waitForLockWaiters(
        db,
        'select "id" from "projects"%for no key update%',
        2,
        'both compactions waiting for the project row',
      )
      await lock.release()
      lock = undefined
      await waitFor(
        async () => !(await projectDocumentIsStale({ db, projectId })),
        'the log merged',
        20_000,
      )
      const merged = new Y.Doc()
      Y.applyUpdate(merged, Y.encodeStateAsUpdate(alice.doc))
      Y.applyUpdate(merged, Y.encodeStateAsUpdate(bob.doc))
      const stored = await storedGraphs(db, projectId)
      expect(stored.state).toEqual(docToGraph(merged))
      expect(stored.json).toEqual(docToGraph(merged))
      for (const id of acknowledged) expect(stored.state?.nodes.map((n) => n.id)).toContain(id)
      expect(stored.state?.nodes).toHaveLength(sampleGraph().nodes.length + 6)
    } catch (err) {
      const logs = processes.map((p) => p.stderr()).join('\n')
      throw new Error(`${(err as Error).message}\nchild stderr:\n${logs}`, { cause: err })
    } finally {
      for (const c of clients) c.destroy()
      await lock?.release()
      for (const p of processes) await p.stop()
      await database.dispose()
    }
  })
})
