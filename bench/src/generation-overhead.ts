/**
 * The overhead of the generation path without a remote provider's time: `POST
 * /api/ai/generate-script` on the builtin (offline) text provider, 20 requests in flight,
 * p50/p99 latency and requests/s. Each call goes through auth, validation, the credit
 * ledger (a conditional spend plus a ledger row), the provider and the answer.
 *
 * Credits cannot be granted through the API, so the load is spread over fresh users: each
 * has 20 credits and a script costs 1 (the default), so 10 users x 20 requests = 200 calls,
 * every one of which must succeed. One more user warms the server up first (its 20 calls,
 * at the same concurrency). For scale, the
 * same load on `GET /api/user/credits` (auth plus one read) is measured too.
 * Run: npm run generation -w bench
 */
import { loadavg } from 'node:os'
import { INITIAL_CREDITS } from '@reelgraph/shared'
import { registerUser, startApp } from './app-process.ts'

const CONCURRENCY = 20
const USERS = 10
const WARMUP_REQUESTS = INITIAL_CREDITS
const PASSWORD = 'bench password 1'

const body = JSON.stringify({
  style: 'Professional',
  tone: 'Conversational',
  format: 'Explainer',
  topic: 'How honey bees tell each other where the flowers are',
})

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)
  return sorted[Math.max(0, index)] ?? Number.NaN
}

const round = (n: number) => Math.round(n * 10) / 10

/** Runs `jobs` calls with `concurrency` in flight; returns each call's latency and the wall time. */
async function pool(
  jobs: number,
  concurrency: number,
  call: (i: number) => Promise<number>,
): Promise<{ latencies: number[]; statuses: Map<number, number>; wallMs: number }> {
  const latencies: number[] = []
  const statuses = new Map<number, number>()
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const i = next++
        if (i >= jobs) return
        const t0 = performance.now()
        const status = await call(i)
        latencies.push(performance.now() - t0)
        statuses.set(status, (statuses.get(status) ?? 0) + 1)
      }
    }),
  )
  return {
    latencies: latencies.sort((a, b) => a - b),
    statuses,
    wallMs: performance.now() - started,
  }
}

function summary(run: Awaited<ReturnType<typeof pool>>) {
  return {
    requests: run.latencies.length,
    statuses: Object.fromEntries(run.statuses),
    p50Ms: round(percentile(run.latencies, 50)),
    p99Ms: round(percentile(run.latencies, 99)),
    maxMs: round(run.latencies.at(-1) ?? Number.NaN),
    requestsPerSecond: round((run.latencies.length / run.wallMs) * 1000),
  }
}

const app = await startApp({
  port: 3413,
  // The builtin providers, whatever the shell exports.
  env: { AI_TEXT_PROVIDER: 'builtin', AI_IMAGE_PROVIDER: 'builtin', OPENAI_API_KEY: '' },
})
try {
  const stamp = Date.now()
  const cookies: string[] = []
  for (let u = 0; u <= USERS; u++) {
    cookies.push(await registerUser(app.url, `gen-${stamp}-${u}@example.com`, PASSWORD))
  }
  const warmupCookie = cookies.pop() as string
  const providers = await (
    await fetch(`${app.url}/api/ai/providers`, { headers: { cookie: warmupCookie } })
  ).json()
  const cost = (providers as { costs: { script: number } }).costs.script
  const perUser = Math.floor(INITIAL_CREDITS / cost)
  const total = USERS * perUser

  const generate = async (cookie: string): Promise<number> => {
    const res = await fetch(`${app.url}/api/ai/generate-script`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: app.url, cookie },
      body,
    })
    await res.arrayBuffer()
    return res.status
  }

  // Warm-up: the warm-up user's credits, spent at the same concurrency (JIT, pools, caches).
  await pool(WARMUP_REQUESTS, CONCURRENCY, () => generate(warmupCookie))

  const generation = await pool(total, CONCURRENCY, (i) => generate(cookies[i % USERS] as string))
  // Every user is now at 0: one more call each must be refused (402), never charged below zero.
  const refused = await pool(USERS, CONCURRENCY, (i) => generate(cookies[i] as string))

  const baseline = await pool(total, CONCURRENCY, async (i) => {
    const res = await fetch(`${app.url}/api/user/credits`, {
      headers: { cookie: cookies[i % USERS] as string },
    })
    await res.arrayBuffer()
    return res.status
  })

  console.log(
    JSON.stringify(
      {
        benchmark: 'generation-overhead',
        provider: providers,
        concurrency: CONCURRENCY,
        users: USERS,
        requestsPerUser: perUser,
        database: process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite',
        // Other processes on the machine skew the tail: read the figures with the load.
        loadAverage1m: round(loadavg()[0] ?? 0),
        generateScript: summary(generation),
        afterCreditsRanOut: Object.fromEntries(refused.statuses),
        baselineGetCredits: summary(baseline),
      },
      null,
      2,
    ),
  )
  if (generation.statuses.get(200) !== total) process.exitCode = 1
} finally {
  await app.stop()
}
