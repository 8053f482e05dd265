/**
 * Signed-in `GET /api/user` under load: autocannon, 50 connections, 10 s, loopback.
 * Prints p50/p99 latency (ms) and requests per second.
 * Run: npm run user -w bench   (BENCH_DATABASE_URL=postgres://... to use Postgres)
 */
import autocannon from 'autocannon'
import { registerUser, startApp } from './app-process.ts'

const CONNECTIONS = 50
const DURATION_S = 10

const app = await startApp({ port: 3411 })
try {
  const cookie = await registerUser(app.url, `bench-${Date.now()}@example.com`, 'bench password 1')
  // Warm-up: JIT and the database's caches.
  await autocannon({
    url: `${app.url}/api/user`,
    connections: 10,
    duration: 2,
    headers: { cookie },
  })
  const result = await autocannon({
    url: `${app.url}/api/user`,
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers: { cookie },
  })
  const summary = {
    benchmark: 'GET /api/user (signed in)',
    database: process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite',
    connections: CONNECTIONS,
    durationSeconds: DURATION_S,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requestsPerSecond: result.requests.average,
    non2xx: result.non2xx,
    errors: result.errors,
  }
  console.log(JSON.stringify(summary, null, 2))
  if (summary.non2xx > 0 || summary.errors > 0) process.exitCode = 1
} finally {
  await app.stop()
}
