/**
 * A sync server in its own process, for tests that kill it (issue 3: "the server is killed
 * inside the debounce window and restarted").
 *
 *   node sync-server/src/testing/sync-server-process.ts --port 0 \
 *     (--database-url postgres://... | --pglite-dir DIR) [--store-throttle-ms N] \
 *     [--compact-updates N] [--memory-budget-mb N] [--load-queue N] [--load-concurrency N] \
 *     [--redis-url redis://... --redis-prefix P] [--metrics-token T]
 *
 * Migrates the database, listens on 127.0.0.1, then prints one JSON line `{"port":N}` on
 * stdout. SIGTERM stores pending documents and exits 0; SIGKILL loses what was not stored.
 */
import { parseArgs } from 'node:util'
import { createDb, migrateToLatest } from '@reelgraph/db'
import { collectDefaultMetrics, Registry } from 'prom-client'
import { createSyncLogger } from '../logger.ts'
import { startSyncServer } from '../server.ts'

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    'database-url': { type: 'string' },
    'pglite-dir': { type: 'string' },
    'store-throttle-ms': { type: 'string' },
    'compact-updates': { type: 'string' },
    'memory-budget-mb': { type: 'string' },
    'load-queue': { type: 'string' },
    'load-concurrency': { type: 'string' },
    'log-level': { type: 'string', default: 'warn' },
    'redis-url': { type: 'string' },
    'redis-prefix': { type: 'string' },
    'metrics-token': { type: 'string' },
  },
})
if (!values['database-url'] && !values['pglite-dir']) {
  throw new Error('Give --database-url or --pglite-dir')
}
const logger = createSyncLogger(values['log-level'])
const db = createDb({
  databaseUrl: values['database-url'],
  pgliteDir: values['pglite-dir'],
  onPoolError: () => {},
})
await migrateToLatest(db)
const registry = new Registry()
collectDefaultMetrics({ register: registry })
const running = await startSyncServer({
  registry,
  memoryBudgetBytes: values['memory-budget-mb']
    ? Number(values['memory-budget-mb']) * 1024 * 1024
    : undefined,
  loadQueueMax: values['load-queue'] ? Number(values['load-queue']) : undefined,
  loadConcurrency: values['load-concurrency'] ? Number(values['load-concurrency']) : undefined,
  db,
  logger,
  port: Number(values.port),
  host: '127.0.0.1',
  secureCookies: false,
  storeThrottleMs: values['store-throttle-ms'] ? Number(values['store-throttle-ms']) : undefined,
  compactUpdates: values['compact-updates'] ? Number(values['compact-updates']) : undefined,
  redisUrl: values['redis-url'],
  redisPrefix: values['redis-prefix'],
  metricsToken: values['metrics-token'],
})
process.stdout.write(`${JSON.stringify({ port: running.port })}\n`)
// Started with --expose-gc (benchmarks measuring memory per document): SIGUSR2 collects.
const collect = (globalThis as { gc?: () => void }).gc
if (collect) process.on('SIGUSR2', () => collect())
process.once('SIGTERM', () => {
  void (async () => {
    await running.close()
    await db.destroy()
    process.exit(0)
  })()
})
