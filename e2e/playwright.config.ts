import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig, devices } from '@playwright/test'
import { HOST_SETTINGS_TO_DROP } from './support/app-process.ts'

// Browser tests against the whole app (web + API + sync on one port), started by `webServer`.
// See e2e/CONTEXT.md.

const e2eDir = dirname(fileURLToPath(import.meta.url))
const repoRoot = dirname(e2eDir)
const isCI = !!process.env.CI

/**
 * Port of the app under test: away from 3000 so a developer's `npm start` can keep running.
 * `E2E_PORT` moves it (and the team servers after it), so two checkouts can run at once.
 */
const PORT = Number(process.env.E2E_PORT ?? 3100)
const BASE_URL = `http://localhost:${PORT}`

/**
 * The app's DATA_DIR (PGlite database, assets, `mail/*.eml`). The webServer command wipes it
 * before the app starts, so every run begins empty; it is kept after the run for inspection.
 */
const DATA_DIR = join(e2eDir, '.data')

/** Where traces, screenshots and the JSON report go (also read by scripts/test.ts). */
const RESULTS_DIR = join(e2eDir, 'test-results')

// Tests (support/mail.ts) find the app's data here. Workers load this file too, so they get it.
process.env.E2E_DATA_DIR = DATA_DIR
process.env.E2E_PORT = String(PORT)

const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`

/** `exec`s the app without the host's settings; `before` runs first (in the repo root). */
function appCommand(before: string, drop: readonly string[]): string {
  return [before, 'exec env', ...drop.map((name) => `-u ${name}`), 'node scripts/start.ts'].join(
    ' ',
  )
}

const serverCommand = appCommand(`rm -rf ${q(DATA_DIR)} &&`, HOST_SETTINGS_TO_DROP)

/**
 * Two more app processes for the team-editing test (issue 6: two people, two browsers, two
 * sync servers), when the environment has a Postgres and a Redis to share (`.ci/run` and
 * `npm test` with TEST_DATABASE_URL and REDIS_URL set): the two ports after PORT (3101 and
 * 3102) on one fresh database (`reelgraph_e2e_<PORT>` on TEST_DATABASE_URL's server, reset
 * before the first starts)
 * and one Redis channel prefix. They share DATA_DIR (mail files, assets) with the main app;
 * they do not use its PGlite folder. Without those settings the test uses the main app alone.
 */
const TWO_SERVER_PORTS = [PORT + 1, PORT + 2] as const
const twoServers = (() => {
  const database = process.env.TEST_DATABASE_URL
  const redis = process.env.REDIS_URL
  if (!database || !redis) return null
  const url = new URL(database)
  url.pathname = `/reelgraph_e2e_${PORT}`
  return { databaseUrl: url.toString(), redisUrl: redis }
})()
// Tests read the servers' addresses from here (workers load this file too).
process.env.E2E_TEAM_SERVERS = twoServers
  ? TWO_SERVER_PORTS.map((port) => `http://localhost:${port}`).join(' ')
  : ''

/** Settings every app process under test gets. */
function appEnv(port: number): Record<string, string> {
  return {
    // The repo's Node 24 (the `node` devDependency) first, also when Playwright was started
    // without npm: the machine's own node (20) cannot run the TypeScript server.
    PATH: [join(repoRoot, 'node_modules', '.bin'), process.env.PATH].join(delimiter),
    PORT: String(port),
    DATA_DIR,
    APP_URL: `http://localhost:${port}`,
    NODE_ENV: 'test',
    // One proxy hop: setup registrations say their own client address (support/app.ts
    // `setupHeaders`), so the suite's accounts stay under the per-address limit; the
    // browser's own requests send none and count as 127.0.0.1, as before.
    TRUST_PROXY: '1',
  }
}

/** Playwright's settings of one app process (it waits for /healthz, then starts the next). */
function appServer(command: string, port: number, env: Record<string, string> = {}) {
  return {
    command,
    cwd: repoRoot,
    env: { ...appEnv(port), ...env },
    url: `http://localhost:${port}/healthz`,
    // The first run builds web/ before serving.
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe' as const,
    stderr: 'pipe' as const,
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 5_000 },
  }
}

const teamServers = twoServers
  ? TWO_SERVER_PORTS.map((port, i) =>
      appServer(
        appCommand(
          i === 0 ? `node e2e/support/reset-database.ts ${q(twoServers.databaseUrl)} &&` : '',
          HOST_SETTINGS_TO_DROP.filter((n) => n !== 'DATABASE_URL' && n !== 'REDIS_URL'),
        ),
        port,
        { DATABASE_URL: twoServers.databaseUrl, REDIS_URL: twoServers.redisUrl },
      ),
    )
  : []

/** Debian's Chromium: Playwright's own browser download cannot run here. */
const chromium = {
  ...devices['Desktop Chrome'],
  headless: true,
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  },
}

/** The spec that starts the app the README's way, in a project of its own. */
const NEWCOMER_SPEC = /newcomer\.spec\.ts$/

export default defineConfig({
  testDir: './tests',
  outputDir: RESULTS_DIR,
  forbidOnly: isCI,
  fullyParallel: false,
  // 2 cores: one browser beside the app server is what the machine can carry without timeouts.
  workers: isCI ? 1 : undefined,
  // No retries: a flaky test should fail loudly and be fixed, not pass on a second try.
  retries: 0,
  reporter: [['list'], ['json', { outputFile: join(RESULTS_DIR, 'results.json') }]],
  use: {
    baseURL: BASE_URL,
    // With retries at 0 'on-first-retry' would never record; keep a trace of each failure instead.
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'chromium', testIgnore: NEWCOMER_SPEC, use: chromium },
    // The newcomer's path (issue 20 item 2): the spec starts `npm start` itself, as the
    // README tells a newcomer, with a relative data folder and no other settings.
    { name: 'newcomer', testMatch: NEWCOMER_SPEC, use: chromium },
  ],
  // In order: the main app (it builds web/ when needed), then the team servers if any.
  webServer: [appServer(serverCommand, PORT), ...teamServers],
})
