/**
 * Cold start of `npm start` (scripts/start.ts: web build check, database open and
 * migrations, listen): milliseconds from spawn to the first 200 from /healthz, with the web
 * app already built. Five runs on a fresh data directory (PGlite created and migrated) and
 * five on an existing one; prints the medians.
 * Run: npm run cold-start -w bench
 */
import { ensureWebBuild } from '../../scripts/web-build.ts'
import { freshDataDir, median, ROOT, startApp } from './app-process.ts'

const RUNS = 5

ensureWebBuild(ROOT)
const fresh: number[] = []
const existing: number[] = []
const reused = freshDataDir()
for (let i = 0; i < RUNS; i++) {
  for (const [times, dataDir] of [
    [fresh, freshDataDir()],
    [existing, reused],
  ] as const) {
    const app = await startApp({
      port: 3413,
      dataDir,
      script: 'scripts/start.ts',
      env: { WEB_DIST_DIR: './web/dist' },
    })
    times.push(app.readyAfterMs)
    await app.stop()
  }
}
console.log(
  JSON.stringify(
    {
      benchmark: 'cold start of npm start (to /healthz 200)',
      runs: RUNS,
      medianFreshDataDirMs: Math.round(median(fresh)),
      medianExistingDataDirMs: Math.round(median(existing.slice(1))),
    },
    null,
    2,
  ),
)
