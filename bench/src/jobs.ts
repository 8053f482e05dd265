/**
 * Generation jobs (issue 12): the queue's own cost, with the builtin (offline) script writer,
 * so no provider time is in the figures.
 *
 * 1. Enqueue-to-start latency with an idle worker: one job at a time, from the call that
 *    charges and enqueues it (`submitGeneration`, one transaction) to the worker's provider
 *    call starting; p50/p99 over LATENCY_JOBS jobs (after 20 unmeasured), and the enqueue
 *    call's own duration. PGlite (in-process worker, one
 *    shared connection) and, with BENCH_DATABASE_URL, Postgres (in-process worker).
 * 2. Throughput: builtin script jobs completed per second, all enqueued at once, counted from
 *    the first enqueue to the last success. One user with THROUGHPUT_JOBS jobs (held to
 *    JOB_USER_CONCURRENCY = 2 running at once, by design), and USERS users with
 *    THROUGHPUT_JOBS / USERS each. PGlite: the in-process worker (one, as `npm start` runs).
 *    Postgres (BENCH_DATABASE_URL and REDIS_URL): 1 and then 2 worker processes
 *    (`worker/src/worker.ts`, JOB_WORKER_CONCURRENCY = 4 each), the bench process only
 *    enqueuing.
 *
 * Prints JSON with the 1-minute load average beside each figure (the machine is shared).
 * Run: npm run jobs -w bench   (BENCH_DATABASE_URL=postgres://... REDIS_URL=redis://... for
 * the Postgres figures)
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { rm } from 'node:fs/promises'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { createDb, databaseConnection, type DB, migrateToLatest } from '@reelgraph/db'
import type { Kysely } from 'kysely'
import pg from 'pg'
import {
  type AppDeps,
  createJobKinds,
  createLogger,
  createRuntime,
  loadEnv,
  submitGeneration,
  waitForJob,
} from '@reelgraph/api'
import { freshDataDir, ROOT } from './app-process.ts'
import { quantile, round } from './graph-fixture.ts'

const LATENCY_JOBS = 200
const THROUGHPUT_JOBS = 200
const USERS = 20
const SCRIPT = { style: 'Casual', tone: 'Enthusiastic', format: 'Tutorial', topic: 'Tide pools' }

const load = () => round(loadavg()[0] ?? 0, 2)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

type BenchDeps = Pick<AppDeps, 'db' | 'jobs' | 'tasks'>

/**
 * An api-side runtime on `db` (`createRuntime`, as the app assembles itself): enqueues, and
 * runs workers here when `workers`. `onScriptStart` is told when a provider call starts.
 */
async function jobsOn(
  db: Kysely<DB>,
  dataDir: string,
  workers: boolean,
  onScriptStart: () => void = () => {},
) {
  const env = loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    AI_TEXT_PROVIDER: 'builtin',
    AI_IMAGE_PROVIDER: 'builtin',
    JOB_WAIT_MS: '0',
    JOB_WORKERS: String(workers),
  })
  const runtime = await createRuntime(env, {
    db,
    logger: createLogger('silent'),
    jobKinds: (deps) => {
      const text = deps.ai.text
      return createJobKinds({
        ...deps,
        ai: {
          ...deps.ai,
          text: {
            info: text.info,
            generateScript(input, signal) {
              onScriptStart()
              return text.generateScript(input, signal)
            },
            generateScenes: (input, signal) => text.generateScenes(input, signal),
          },
        },
      })
    },
  })
  return { deps: runtime.deps as BenchDeps, close: () => runtime.close(1_000) }
}

async function addUsers(db: Kysely<DB>, count: number, credits: number): Promise<number[]> {
  const stamp = `${Date.now()}-${Math.random().toString(36).slice(2)}`
  const rows = await db
    .insertInto('users')
    .values(
      Array.from({ length: count }, (_, i) => ({
        name: `Bench ${i}`,
        email: `jobs-${stamp}-${i}@example.com`,
        password_hash: 'not-a-password-hash',
        purchased_credits: credits,
        stripe_customer_id: null,
        stripe_subscription_id: null,
      })),
    )
    .returning('id')
    .execute()
  return rows.map((r) => r.id)
}

const submit = (deps: BenchDeps, userId: number) =>
  submitGeneration(deps, {
    userId,
    kind: 'script',
    input: SCRIPT,
    description: 'Bench',
  })

/** Enqueue-to-start, one job at a time with an idle in-process worker. */
async function latency(db: Kysely<DB>, dataDir: string) {
  // The moment the last provider call started (jobs run one at a time).
  let lastStart = 0
  const { deps, close } = await jobsOn(db, dataDir, true, () => {
    lastStart = performance.now()
  })
  await deps.jobs.start()
  const [userId] = await addUsers(db, 1, LATENCY_JOBS + 20)
  const samples: number[] = []
  const enqueues: number[] = []
  for (let i = 0; i < LATENCY_JOBS + 20; i++) {
    const t0 = performance.now()
    const row = await submit(deps, userId!)
    const enqueued = performance.now()
    const done = await waitForJob(deps, row, 10_000)
    if (done.status !== 'succeeded') throw new Error(`job ${row.id} ended ${done.status}`)
    if (i >= 20) {
      samples.push(lastStart - t0)
      enqueues.push(enqueued - t0)
    }
    // An idle worker: the queue is empty and the worker waits for the next job.
    await sleep(20)
  }
  await close()
  samples.sort((a, b) => a - b)
  enqueues.sort((a, b) => a - b)
  return {
    jobs: samples.length,
    enqueueCallP50Ms: round(quantile(enqueues, 0.5), 1),
    p50Ms: round(quantile(samples, 0.5), 1),
    p99Ms: round(quantile(samples, 0.99), 1),
    maxMs: round(samples.at(-1) ?? Number.NaN, 1),
    loadAverage1m: load(),
  }
}

/** Enqueues `perUser` jobs for each of `users` at once; waits until all have succeeded. */
async function throughput(deps: BenchDeps, users: number, perUser: number) {
  const ids = await addUsers(deps.db, users, perUser)
  const t0 = performance.now()
  const jobIds = (
    await Promise.all(
      ids.map(async (userId) => {
        const made: string[] = []
        for (let i = 0; i < perUser; i++) made.push((await submit(deps, userId)).id)
        return made
      }),
    )
  ).flat()
  for (;;) {
    const row = await deps.db
      .selectFrom('generation_jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('id', 'in', jobIds)
      .where('status', '=', 'succeeded')
      .executeTakeFirstOrThrow()
    if (Number(row.n) === jobIds.length) break
    await sleep(20)
  }
  const seconds = (performance.now() - t0) / 1000
  return {
    users,
    jobs: jobIds.length,
    seconds: round(seconds, 2),
    jobsPerSecond: round(jobIds.length / seconds, 1),
    loadAverage1m: load(),
  }
}

function spawnWorker(databaseUrl: string, redisUrl: string): ChildProcess {
  return spawn(process.execPath, ['worker/src/worker.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      AI_TEXT_PROVIDER: 'builtin',
      AI_IMAGE_PROVIDER: 'builtin',
      WORKER_PORT: '0',
    },
  })
}

async function stopWorkers(children: ChildProcess[]) {
  await Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => {
          child.once('exit', resolve)
          child.kill('SIGTERM')
        }),
    ),
  )
}

/** A fresh Postgres database next to BENCH_DATABASE_URL's, and how to drop it. */
async function freshPostgres(url: string) {
  const name = `reelgraph_bench_jobs_${Date.now()}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const dbUrl = new URL(url)
  dbUrl.pathname = `/${name}`
  return {
    url: dbUrl.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: url })
      await cleanup.connect()
      await cleanup.query(`drop database if exists ${name} with (force)`)
      await cleanup.end()
    },
  }
}

const results: Record<string, unknown> = { benchmark: 'jobs', provider: 'builtin' }

// PGlite: the embedded default, one process, workers in it.
{
  const dataDir = freshDataDir()
  const db = createDb({ pgliteDir: join(dataDir, 'pg') })
  await migrateToLatest(db)
  const enqueueToStart = await latency(db, dataDir)
  const { deps, close } = await jobsOn(db, dataDir, true)
  await deps.jobs.start()
  await throughput(deps, USERS, 2) // warm-up
  const oneUser = await throughput(deps, 1, THROUGHPUT_JOBS)
  const manyUsers = await throughput(deps, USERS, THROUGHPUT_JOBS / USERS)
  await close()
  await db.destroy()
  await rm(dataDir, { recursive: true, force: true })
  results.pglite = {
    enqueueToStart,
    inProcessWorker: { oneUser, [`users${USERS}`]: manyUsers },
  }
}

const benchUrl = process.env.BENCH_DATABASE_URL
const redisUrl = process.env.REDIS_URL
if (benchUrl) {
  const database = await freshPostgres(benchUrl)
  const dataDir = freshDataDir()
  const db = createDb({ databaseUrl: database.url, onPoolError: () => {} })
  try {
    await migrateToLatest(db)
    const postgres: Record<string, unknown> = { enqueueToStart: await latency(db, dataDir) }
    if (redisUrl) {
      const connection = databaseConnection(db)
      if (connection.kind !== 'postgres') throw new Error('Postgres expected')
      // This process only enqueues; worker processes run the jobs.
      const { deps, close } = await jobsOn(db, dataDir, false)
      await deps.jobs.start()
      for (const count of [1, 2]) {
        const children = Array.from({ length: count }, () => spawnWorker(connection.url, redisUrl))
        await sleep(3_000) // each worker: migrations checked, pg-boss started
        await throughput(deps, USERS, 2) // warm-up
        postgres[`workerProcesses${count}`] = {
          oneUser: await throughput(deps, 1, THROUGHPUT_JOBS),
          [`users${USERS}`]: await throughput(deps, USERS, THROUGHPUT_JOBS / USERS),
        }
        await stopWorkers(children)
      }
      await close()
    } else {
      postgres.workerProcesses = 'skipped: set REDIS_URL'
    }
    results.postgres = postgres
  } finally {
    await db.destroy()
    await database.drop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

console.log(JSON.stringify(results, null, 2))
