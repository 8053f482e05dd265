import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Starting the whole app (`node scripts/start.ts`: web + API + sync + job workers on one
 * port) the way `playwright.config.ts` does, for the settings one spec file needs and the
 * main app does not have (the jobs spec's image provider). See e2e/CONTEXT.md.
 */

/** The repository root (this file is `e2e/support/app-process.ts`). */
export const REPO_ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))))

/**
 * Settings a developer's shell or CI may export that would point an app under test at shared
 * services (a real database, Redis-backed rate limits, SMTP, Stripe, a real AI provider). Apps
 * under test run on the embedded defaults instead: PGlite and mail files in their DATA_DIR,
 * sandbox billing, offline AI.
 */
export const HOST_SETTINGS_TO_DROP = [
  'DATABASE_URL',
  'REDIS_URL',
  'SMTP_URL',
  'STRIPE_SECRET_KEY',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
] as const

/**
 * The environment of an app process: the host's, without {@link HOST_SETTINGS_TO_DROP}, with
 * the repo's Node 24 first on PATH (the machine's own node cannot run the TypeScript server),
 * then `settings`.
 */
export function appProcessEnv(
  host: Readonly<Record<string, string | undefined>>,
  settings: Readonly<Record<string, string>>,
  repoRoot = REPO_ROOT,
): Record<string, string> {
  const env: Record<string, string> = {}
  const dropped = new Set<string>(HOST_SETTINGS_TO_DROP)
  for (const [name, value] of Object.entries(host)) {
    if (value !== undefined && !dropped.has(name)) env[name] = value
  }
  env.PATH = [join(repoRoot, 'node_modules', '.bin'), host.PATH ?? ''].join(delimiter)
  return { ...env, ...settings }
}

/** A port nobody listens on now, on localhost. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}

/** A running app process. */
export interface AppProcess {
  /** `http://localhost:<port>`. */
  url: string
  /** Its DATA_DIR (mail files, PGlite, assets). */
  dataDir: string
  /** Stops it (SIGTERM, then SIGKILL after 5 s) and waits for it to exit. */
  stop(): Promise<void>
}

/** How long an app may take to answer /healthz (the web build is already there). */
const START_TIMEOUT_MS = 120_000
/** Lines of the app's output kept for the error when it does not start. */
const OUTPUT_LINES = 40

/**
 * Starts the app on a free port with an emptied `dataDir` and `settings` (on top of
 * NODE_ENV=test, PORT, APP_URL, DATA_DIR), and waits until `/healthz` answers.
 * @throws Error with the app's last output when it exits or does not answer in time.
 */
export async function startAppProcess(
  dataDir: string,
  settings: Readonly<Record<string, string>> = {},
): Promise<AppProcess> {
  const port = await freePort()
  const url = `http://localhost:${port}`
  await rm(dataDir, { recursive: true, force: true })
  const env = appProcessEnv(process.env, {
    NODE_ENV: 'test',
    PORT: String(port),
    APP_URL: url,
    DATA_DIR: dataDir,
    ...settings,
  })
  const repoNode = join(REPO_ROOT, 'node_modules', '.bin', 'node')
  const child = spawn(existsSync(repoNode) ? repoNode : 'node', ['scripts/start.ts'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const output: string[] = []
  const keep = (chunk: Buffer) => {
    output.push(...chunk.toString('utf8').split('\n').filter(Boolean))
    output.splice(0, Math.max(0, output.length - OUTPUT_LINES))
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = () => stopChild(child, exited)
  try {
    await waitForHealth(url, child)
  } catch (error) {
    await stop()
    throw new Error(`${(error as Error).message}\n${output.join('\n')}`, { cause: error })
  }
  return { url, dataDir, stop }
}

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The app exited with ${child.exitCode}.`)
    try {
      const res = await fetch(`${url}/healthz`)
      if (res.ok) return
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`The app did not answer ${url}/healthz within ${START_TIMEOUT_MS} ms.`)
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill('SIGTERM')
  const killer = setTimeout(() => child.kill('SIGKILL'), 5_000)
  await exited
  clearTimeout(killer)
}
