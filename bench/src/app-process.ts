import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** A Reelgraph process started for a benchmark. */
export interface AppProcess {
  url: string
  child: ChildProcess
  /** Milliseconds from spawn to the first 200 from /healthz. */
  readyAfterMs: number
  stop(): Promise<void>
}

/** CPU seconds (user + system) process `pid` has used so far (Linux, 100 ticks a second). */
export function processCpuSeconds(pid: number): number {
  return cpuSecondsOf(`/proc/${pid}/stat`)
}

/**
 * CPU seconds (user + system) the main thread of process `pid` has used so far: a Node
 * process's JavaScript, without the threads beside it (the garbage collector's concurrent
 * marking, libuv's pool), which {@link processCpuSeconds} counts too. A save that makes less
 * garbage can cost less of the process and the same of its main thread, or the other way.
 */
export function mainThreadCpuSeconds(pid: number): number {
  return cpuSecondsOf(`/proc/${pid}/task/${pid}/stat`)
}

function cpuSecondsOf(statFile: string): number {
  const fields = readFileSync(statFile, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

/** The machine's load averages over 1, 5 and 15 minutes, as `/proc/loadavg` prints them. */
export function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
}

/** A fresh, empty data directory in the system temp folder. */
export function freshDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'reelgraph-bench-'))
}

/**
 * Spawns `script` (default the api server alone, no web app) on `port` with its own data
 * directory, and resolves once /healthz answers. Uses BENCH_DATABASE_URL as DATABASE_URL
 * when set, else PGlite.
 */
export async function startApp(options: {
  port: number
  dataDir?: string
  script?: string
  env?: Record<string, string>
}): Promise<AppProcess> {
  const url = `http://127.0.0.1:${options.port}`
  const started = performance.now()
  const child = spawn(process.execPath, [options.script ?? 'api/src/server.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(options.port),
      DATA_DIR: options.dataDir ?? freshDataDir(),
      APP_URL: url,
      LOG_LEVEL: 'warn',
      WEB_DIST_DIR: '',
      ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
      ...options.env,
    },
  })
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`the app exited with code ${code}`))),
  )
  const ready = (async () => {
    for (;;) {
      try {
        if ((await fetch(`${url}/healthz`)).ok) return
      } catch {}
      await new Promise((r) => setTimeout(r, 10))
    }
  })()
  await Promise.race([ready, exited])
  const readyAfterMs = performance.now() - started
  return {
    url,
    child,
    readyAfterMs,
    stop: () =>
      new Promise<void>((resolve) => {
        child.removeAllListeners('exit')
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

/** Registers a user through the API and returns its session cookie (`session=...`). */
export async function registerUser(url: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ name: 'Bench User', email, password }),
  })
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`)
  const cookie = res.headers.getSetCookie()[0]?.split(';')[0]
  if (!cookie) throw new Error('no session cookie')
  return cookie
}

/**
 * A personal access token (`rg_…`) with `scopes`, made through `POST /api/tokens` with the
 * session `cookie` of a user of the app at `url`.
 * @throws Error when the app refuses it.
 */
export async function makeToken(url: string, cookie: string, scopes: string[]): Promise<string> {
  const res = await fetch(`${url}/api/tokens`, {
    method: 'POST',
    headers: { cookie, origin: url, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench', scopes }),
  })
  if (res.status !== 201) throw new Error(`making a token: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { token: string }).token
}

/** The median of a list of numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2
}
