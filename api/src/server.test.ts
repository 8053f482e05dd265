import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createServer } from 'node:net'
import { PRODUCTION_MAIL_REQUIRED } from './services/mailer.ts'

const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url))
const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** The api process as `npm start` runs it, with only `env` (and PATH) in its environment. */
function boot(env: Record<string, string>) {
  const child = spawn(process.execPath, [SERVER], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const output = { stdout: '', stderr: '' }
  child.stdout.on('data', (chunk: Buffer) => {
    output.stdout += chunk.toString()
  })
  child.stderr.on('data', (chunk: Buffer) => {
    output.stderr += chunk.toString()
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  return { child, output, exited }
}

/** Resolves once `text` appears on the child's stdout; rejects if it exits first. */
function waitFor(booted: ReturnType<typeof boot>, text: string, timeoutMs = 50_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${text}" in ${timeoutMs} ms`)), timeoutMs)
    const check = () => {
      if (!booted.output.stdout.includes(text)) return
      clearTimeout(timer)
      resolve()
    }
    booted.child.stdout?.on('data', check)
    void booted.exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`exited ${code}: ${booted.output.stderr}`))
    })
    check()
  })
}

/** A TCP port of 127.0.0.1 that was free a moment ago. */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** The JSON log lines of `stdout`. */
function logLines(stdout: string): { level: number; msg: string; [key: string]: unknown }[] {
  return stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l))
}

describe('the api process boot (issue 11 items 8 and 9)', () => {
  let dataDir: string
  let running: ChildProcess | undefined
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'reelgraph-boot-'))
  })
  afterEach(async () => {
    running?.kill('SIGKILL')
    running = undefined
    await rm(dataDir, { recursive: true, force: true })
  })

  it('refuses to start in production without SMTP_URL or MAIL_TO_FILES, before opening anything', async () => {
    const booted = boot({
      NODE_ENV: 'production',
      BILLING_SANDBOX: 'true',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIST_DIR: '',
      SMTP_URI: 'smtp://mail.example.com:587',
    })
    running = booted.child
    expect(await booted.exited).toBe(1)
    expect(booted.output.stderr).toContain(PRODUCTION_MAIL_REQUIRED)
    // The warning names the typo that is the likely cause.
    const warnings = logLines(booted.output.stdout).filter((l) => l.level === 40)
    expect(warnings.map((w) => [w.variable, w.suggestion])).toEqual([['SMTP_URI', 'SMTP_URL']])
    expect(existsSync(join(dataDir, 'pg'))).toBe(false)
  }, 60_000)

  it('starts in production with MAIL_TO_FILES=true, warning that nobody receives the emails and about every look-alike variable', async () => {
    const booted = boot({
      NODE_ENV: 'production',
      BILLING_SANDBOX: 'true',
      MAIL_TO_FILES: 'true',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIST_DIR: '',
      // docker-compose's old typo, an unknown setting with a known prefix, a misspelt one;
      // a name the sync server reads is no typo in the api's environment.
      SANDBOX_BILLING: 'true',
      SMTP_HOST: 'mail.example.com',
      LOGLEVEL: 'debug',
      SYNC_PORT: '3001',
    })
    running = booted.child
    await waitFor(booted, 'Reelgraph is listening')
    const warnings = logLines(booted.output.stdout).filter((l) => l.level === 40)
    expect(warnings.map((w) => [w.variable, w.suggestion, w.msg])).toEqual([
      [
        'LOGLEVEL',
        'LOG_LEVEL',
        'LOGLEVEL is set but is not a setting, so it changes nothing: did you mean LOG_LEVEL?',
      ],
      [
        'SANDBOX_BILLING',
        'BILLING_SANDBOX',
        'SANDBOX_BILLING is set but is not a setting, so it changes nothing: did you mean BILLING_SANDBOX?',
      ],
      [
        'SMTP_HOST',
        'SMTP_URL',
        'SMTP_HOST is set but is not a setting, so it changes nothing: did you mean SMTP_URL?',
      ],
      [
        undefined,
        undefined,
        'MAIL_TO_FILES=true: emails are written to files, nobody receives them',
      ],
    ])
  }, 60_000)

  it('serves /metrics on 127.0.0.1:METRICS_PORT without a token, and answers 404 for it on PORT (issue 40 item 6)', async () => {
    const metricsPort = await freePort()
    const booted = boot({
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIST_DIR: '',
      METRICS_PORT: String(metricsPort),
    })
    running = booted.child
    await waitFor(booted, 'Reelgraph is listening')
    const listening = logLines(booted.output.stdout).find((l) =>
      l.msg.startsWith('Reelgraph is listening'),
    )
    expect(listening?.metrics).toBe(`127.0.0.1:${metricsPort}`)
    const local = await fetch(`http://127.0.0.1:${metricsPort}/metrics`)
    expect(local.status).toBe(200)
    expect(await local.text()).toContain('reelgraph_sync_open_documents')
    expect((await fetch(`http://127.0.0.1:${metricsPort}/api/user`)).status).toBe(404)
    const pub = await fetch(`http://127.0.0.1:${String(listening?.port)}/metrics`)
    expect(pub.status).toBe(404)
    expect(await pub.text()).not.toContain('nodejs_')
  }, 60_000)
})
