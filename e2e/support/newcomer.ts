import { spawn } from 'node:child_process'
import { rm } from 'node:fs/promises'
import { delimiter, join, sep } from 'node:path'
import { freePort, REPO_ROOT } from './app-process.ts'

/**
 * The app as a newcomer starts it (issue 20 item 2): `npm start` from the repository root,
 * in a shell that knows nothing of the project, with no settings but `PORT` and a data
 * folder given as a relative path. Not `startAppProcess`: that one runs `scripts/start.ts`
 * with absolute folders and the test settings, which is exactly what hid the newcomer's
 * broken render.
 */

/** The newcomer's data folder, relative to the repository root (git ignores it). */
export const NEWCOMER_DATA_DIR = 'data-newcomer-e2e'

/**
 * The environment of a newcomer's shell: `PATH` without any project's `node_modules/.bin`
 * (so npm, not the test runner, puts the project's Node 24 first, as it does for a person),
 * `HOME` and `TMPDIR` (npm needs them), and the two settings.
 */
export function newcomerEnv(
  host: Readonly<Record<string, string | undefined>>,
  settings: { port: number; dataDir: string },
): Record<string, string> {
  const bin = `${sep}node_modules${sep}.bin`
  const path = (host.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir && !dir.endsWith(bin))
    .join(delimiter)
  const env: Record<string, string> = {
    PATH: path,
    PORT: String(settings.port),
    DATA_DIR: settings.dataDir,
  }
  for (const name of ['HOME', 'TMPDIR'] as const) {
    const value = host[name]
    if (value) env[name] = value
  }
  return env
}

/** A running newcomer app. */
export interface NewcomerApp {
  /** `http://localhost:<port>`. */
  url: string
  /** Stops `npm start` and everything it started, then removes the data folder. */
  stop(): Promise<void>
}

/** How long `npm start` may take to answer /healthz (the web build is usually there). */
const START_TIMEOUT_MS = 180_000

/**
 * Runs `npm start` in the repository root as {@link newcomerEnv} describes, with the data
 * folder {@link NEWCOMER_DATA_DIR} removed first, and waits for `/healthz`.
 * @throws Error with the app's last output when it exits or does not answer in time.
 */
export async function startNewcomerApp(): Promise<NewcomerApp> {
  const port = await freePort()
  const url = `http://localhost:${port}`
  const dataPath = join(REPO_ROOT, NEWCOMER_DATA_DIR)
  await rm(dataPath, { recursive: true, force: true })
  // Its own process group: npm starts a shell that starts node, and all of them must stop.
  const child = spawn('npm', ['start'], {
    cwd: REPO_ROOT,
    env: newcomerEnv(process.env, { port, dataDir: NEWCOMER_DATA_DIR }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-6000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, signal)
    } catch {}
  }
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      signalGroup('SIGTERM')
      const killer = setTimeout(() => signalGroup('SIGKILL'), 5_000)
      await exited
      clearTimeout(killer)
    }
    // npm can exit before the node it started has closed PGlite's files: a few retries let
    // a folder that is still being written to empty out (ENOTEMPTY) instead of failing.
    await rm(dataPath, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 })
  }
  const deadline = Date.now() + START_TIMEOUT_MS
  for (;;) {
    if (child.exitCode !== null) {
      await stop()
      throw new Error(`npm start exited with ${child.exitCode}:\n${output}`)
    }
    try {
      if ((await fetch(`${url}/healthz`)).ok) break
    } catch {}
    if (Date.now() > deadline) {
      await stop()
      throw new Error(
        `npm start did not answer ${url}/healthz in ${START_TIMEOUT_MS} ms:\n${output}`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return { url, stop }
}
