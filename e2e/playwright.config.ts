import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig, devices } from '@playwright/test'

// Browser tests against the whole app (web + API + sync on one port), started by `webServer`.
// See e2e/CONTEXT.md.

const e2eDir = dirname(fileURLToPath(import.meta.url))
const repoRoot = dirname(e2eDir)
const isCI = !!process.env.CI

/** Port of the app under test: away from 3000 so a developer's `npm start` can keep running. */
const PORT = 3100
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

// Settings a developer's shell or CI may export that would point the app under test at shared
// services (a real database, Redis-backed rate limits, SMTP, Stripe). The e2e app runs on the
// embedded defaults instead: PGlite and mail files in DATA_DIR, sandbox billing, offline AI.
const HOST_SETTINGS_TO_DROP = [
  'DATABASE_URL',
  'REDIS_URL',
  'SMTP_URL',
  'STRIPE_SECRET_KEY',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
]

const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`

const serverCommand = [
  `rm -rf ${q(DATA_DIR)} &&`,
  'exec env',
  ...HOST_SETTINGS_TO_DROP.map((name) => `-u ${name}`),
  'node scripts/start.ts',
].join(' ')

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
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        headless: true,
        // Debian's Chromium: Playwright's own browser download cannot run here.
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
      },
    },
  ],
  webServer: {
    command: serverCommand,
    cwd: repoRoot,
    env: {
      // The repo's Node 24 (the `node` devDependency) first, also when Playwright was started
      // without npm: the machine's own node (20) cannot run the TypeScript server.
      PATH: [join(repoRoot, 'node_modules', '.bin'), process.env.PATH].join(delimiter),
      PORT: String(PORT),
      DATA_DIR,
      APP_URL: BASE_URL,
      NODE_ENV: 'test',
    },
    url: `${BASE_URL}/healthz`,
    // The first run builds web/ before serving.
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
  },
})
