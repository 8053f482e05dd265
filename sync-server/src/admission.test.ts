import { costlyTestsRunOn, testDatabaseKinds } from '@reelgraph/db/testing'
import {
  addNode,
  getNodesMap,
  type Graph,
  SYNC_CLOSE_REASONS,
  SYNC_SERVER_BUSY,
} from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import {
  childDatabase,
  connectClient,
  createProject,
  createUser,
  spawnSyncServer,
  storedDocumentGraph,
  type TestClient,
  textNode,
  waitFor,
} from './testing/sync-test-kit.ts'

/**
 * Admission control in a real sync-server process (issue 23 Tests): with a tiny memory
 * budget the next document is refused as busy (the shared reason, and the socket closed
 * with the shared close code), real providers retry on their own and save once room is
 * free, nothing is lost, and the documents' memory never passes the budget. Admission does
 * not depend on the database kind, and these are the suite's heaviest sync tests (a storm of
 * editors on PGlite took 18 s): they run on one kind (`costlyTestsRunOn`).
 */

/** A project of about 200 KB of Yjs state: some 1.8 MB of estimated heap once open. */
function largeGraph(): Graph {
  const words = 'the tide rises over the quiet harbour at dawn while gulls call '
  const nodes = Array.from({ length: 60 }, (_, i) =>
    textNode(words.repeat(52).slice(0, 3300), i * 10),
  )
  return { nodes, connections: [] }
}

/** The value of a metric line `name{labels} value` in Prometheus text, or undefined. */
function metric(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`))
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1))
}

const busy = (c: TestClient) => c.refusals.includes(SYNC_CLOSE_REASONS.serverBusy)

describe.each(testDatabaseKinds().filter(costlyTestsRunOn))(
  'admission in a sync server process on $name (issue 23)',
  (kind) => {
    it('refuses the document past its budget as busy; providers retry and save once there is room, losing nothing', async () => {
      const database = await childDatabase(kind)
      const db = await database.open()
      const { userId, cookie } = await createUser(db)
      const projectIds: number[] = []
      for (let i = 0; i < 8; i++) projectIds.push(await createProject(db, userId, largeGraph()))
      await database.release(db)
      // 8 MiB: four such documents, not five.
      const server = await spawnSyncServer([
        ...database.args,
        '--memory-budget-mb',
        '8',
        '--store-throttle-ms',
        '50',
      ])
      const metrics = () => server.metrics()
      let overBudget: string | null = null
      let samples = 0
      const sampler = setInterval(() => {
        void metrics().then(
          (text) => {
            samples += 1
            const used = metric(text, 'reelgraph_sync_document_bytes_estimated') ?? Number.NaN
            const budget = metric(text, 'reelgraph_sync_memory_budget_bytes') ?? Number.NaN
            if (!(used <= budget)) overBudget ??= `${used} of ${budget} bytes`
          },
          () => {},
        )
      }, 100)
      const clients = projectIds.map((projectId) =>
        connectClient({ port: server.port, projectId, cookie }),
      )
      try {
        await waitFor(
          () =>
            clients.filter((c) => c.isSynced()).length === 4 && clients.filter(busy).length === 4,
          'four editors admitted and four refused as busy',
          30_000,
        )
        const admitted = clients.filter((c) => c.isSynced())
        const refused = clients.filter((c) => !c.isSynced())
        expect(refused.every(busy)).toBe(true)
        await waitFor(
          () => refused.every((c) => c.closes.some((e) => e.code === SYNC_SERVER_BUSY.code)),
          'their sockets closed with the busy code',
        )
        expect(
          refused.flatMap((c) => c.closes).find((e) => e.code === SYNC_SERVER_BUSY.code)?.reason,
        ).toBe(SYNC_SERVER_BUSY.reason)

        // Everyone edits: the refused ones on their own copy, as the canvas does offline.
        const edits = clients.map((c, i) => {
          const node = textNode(`edit by editor ${i}`, 9000 + i)
          addNode(c.doc, node)
          return node
        })
        await waitFor(() => admitted.every((c) => c.isSaved()), 'the admitted edits saved')
        // Still refused while the admitted keep their documents open (they retry meanwhile).
        expect(refused.some((c) => c.isSynced())).toBe(false)

        // Room is freed: the waiting providers get in on their own retries and save.
        for (const c of admitted) c.destroy()
        await waitFor(() => refused.every((c) => c.isSaved()), 'the refused edits saved', 60_000)

        // Nothing lost: every edit is in its project's stored document.
        const check = await database.open()
        try {
          for (const [i, projectId] of projectIds.entries()) {
            const stored = await storedDocumentGraph(check, projectId)
            expect(stored?.nodes.map((n) => n.id)).toContain(edits[i]!.id)
            expect(stored?.nodes).toHaveLength(61)
          }
        } finally {
          await database.release(check)
        }
        for (const c of refused) expect(getNodesMap(c.doc).size).toBe(61)

        const text = await metrics()
        expect(
          metric(text, 'reelgraph_sync_refused_connections_total{reason="memory"}'),
        ).toBeGreaterThan(0)
        // A fast run may end before a few samples were taken: the budget is still read a few
        // times while every document is open.
        await waitFor(() => samples > 5, 'the budget sampled a few times')
        expect(overBudget).toBeNull()
        expect(server.child.exitCode).toBeNull()
      } catch (err) {
        throw new Error(`${(err as Error).message}\nchild stderr:\n${server.stderr()}`, {
          cause: err,
        })
      } finally {
        clearInterval(sampler)
        for (const c of clients) c.destroy()
        await server.stop()
        await database.dispose()
      }
    }, 120_000)

    it('admits a storm of editors at the rate it loads documents: the rest are refused as busy and come back', async () => {
      const database = await childDatabase(kind)
      const db = await database.open()
      const { userId, cookie } = await createUser(db)
      const projectIds: number[] = []
      for (let i = 0; i < 20; i++) projectIds.push(await createProject(db, userId, largeGraph()))
      await database.release(db)
      // One load at a time and none waiting: most of a burst of twenty is refused at first.
      const server = await spawnSyncServer([
        ...database.args,
        '--load-concurrency',
        '1',
        '--load-queue',
        '0',
        '--store-throttle-ms',
        '50',
      ])
      const clients = projectIds.map((projectId) =>
        connectClient({ port: server.port, projectId, cookie }),
      )
      try {
        await waitFor(
          () => clients.every((c) => c.isSynced()),
          'every editor admitted in the end',
          60_000,
        )
        // PGlite runs each query on the event loop, so its loads never overlap: only a real
        // Postgres lets a storm fill the queue.
        if (kind.name !== 'pglite') expect(clients.some(busy)).toBe(true)
        for (const [i, c] of clients.entries()) addNode(c.doc, textNode(`storm edit ${i}`))
        await waitFor(() => clients.every((c) => c.isSaved()), 'every edit saved', 30_000)
        const text = await server.metrics()
        const refusedForQueue = metric(
          text,
          'reelgraph_sync_refused_connections_total{reason="load-queue"}',
        )
        expect(refusedForQueue).toBe(clients.flatMap((c) => c.refusals).length)
        if (kind.name !== 'pglite') expect(refusedForQueue).toBeGreaterThan(0)
      } catch (err) {
        throw new Error(`${(err as Error).message}\nchild stderr:\n${server.stderr()}`, {
          cause: err,
        })
      } finally {
        for (const c of clients) c.destroy()
        await server.stop()
        await database.dispose()
      }
    }, 120_000)
  },
)
