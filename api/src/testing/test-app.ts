import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestDatabaseKind } from '@reelgraph/db/testing'
import type { SyncServer } from '@reelgraph/sync-server'
import { createApp } from '../app.ts'
import type { AppDeps } from '../app-env.ts'
import { DEFAULT_RATE_LIMITS, type RateLimitRules } from '../config.ts'
import { loadEnv } from '../env.ts'
import type { JobKinds } from '../features/jobs/job-kind.ts'
import type { JobKindDeps } from '../job-kinds.ts'
import { createLogger } from '../lib/logger.ts'
import { createRuntime } from '../runtime.ts'
import { createMailer } from '../services/mailer.ts'

export const TEST_ORIGIN = 'http://localhost:3000'

/** Rate limits loose enough that only the tests about limits meet them. */
export const LOOSE_RATE_LIMITS: RateLimitRules = Object.fromEntries(
  Object.entries(DEFAULT_RATE_LIMITS).map(([k, rule]) => [k, { ...rule, points: 1000 }]),
) as RateLimitRules

/** An app on a fresh database with the real file mailer in a temporary folder. */
export interface TestApp {
  deps: AppDeps
  /** The Hono app, to serve on a socket (`@hono/node-server`) for clients that need a URL. */
  app: ReturnType<typeof createApp>
  mailDir: string
  /**
   * The real sync server (Hocuspocus, no network) behind `deps.documents`: open a direct
   * connection to watch a project's live document.
   */
  sync: SyncServer
  /** Sends a request the way the web app does: JSON body and the app's own Origin. */
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>
  /** The emails written so far to `to`, oldest first, as raw RFC 822 text. */
  emailsTo(to: string): Promise<string[]>
  close(): Promise<void>
}

/** A Response whose JSON tests may index freely. */
export type TestResponse = Omit<Response, 'json'> & {
  // Tests assert on arbitrary response JSON.
  json(): Promise<any>
}

export interface RequestOptions {
  body?: unknown
  cookie?: string | undefined
  headers?: Record<string, string>
  /** Sent as it is (a file upload's bytes, a malformed JSON text). */
  rawBody?: string | Uint8Array<ArrayBuffer>
}

/**
 * Starts a test app on one database kind, assembled as the server is (`createRuntime`).
 * @param jobKinds the job kinds (default every kind Reelgraph runs); a test adds its own
 */
export async function createTestApp(
  kind: TestDatabaseKind,
  rateLimits: RateLimitRules = LOOSE_RATE_LIMITS,
  /** Extra environment, e.g. a provider pointed at a local test server. */
  envOverrides: Record<string, string> = {},
  jobKinds?: (deps: JobKindDeps) => JobKinds,
): Promise<TestApp> {
  const { db, dispose } = await kind.create()
  const mailDir = await mkdtemp(join(tmpdir(), 'reelgraph-mail-'))
  const env = loadEnv({
    NODE_ENV: 'test',
    APP_URL: TEST_ORIGIN,
    LOG_LEVEL: 'silent',
    DATA_DIR: mailDir,
    // Retries after 1 s (the queue's smallest whole delay), so failing providers end quickly.
    JOB_RETRY_DELAY_SECONDS: '1',
    ...envOverrides,
  })
  const logger = createLogger('silent')
  // With REDIS_URL (and a REDIS_PREFIX of the test's own), documents are shared with other
  // processes on that Redis, as in production. Rate limits are counted in the test database,
  // as the server counts them without Redis.
  const runtime = await createRuntime(env, {
    db,
    logger,
    mailer: createMailer({ mailDir, from: env.MAIL_FROM, logger }),
    rateLimitRules: rateLimits,
    rateLimitsInDatabase: true,
    ...(jobKinds ? { jobKinds } : {}),
  })
  const { deps, sync } = runtime
  const app = createApp(deps)
  return {
    deps,
    app,
    mailDir,
    sync,
    request(method, path, options = {}) {
      const headers: Record<string, string> = { origin: TEST_ORIGIN, ...options.headers }
      if (options.cookie) headers.cookie = options.cookie
      let body: string | Uint8Array<ArrayBuffer> | undefined = options.rawBody
      if (options.body !== undefined) {
        body = JSON.stringify(options.body)
        headers['content-type'] ??= 'application/json'
      }
      if (body !== undefined) headers['content-length'] ??= String(Buffer.byteLength(body))
      return Promise.resolve(app.request(path, { method, headers, body })) as Promise<TestResponse>
    },
    async emailsTo(to) {
      await deps.tasks.drain()
      const files = (await readdir(mailDir)).filter((f) => f.endsWith('.eml')).sort()
      const emails = await Promise.all(files.map((f) => readFile(join(mailDir, f), 'utf8')))
      return emails.filter((e) => new RegExp(`^To: .*${to}`, 'im').test(e))
    },
    async close() {
      await runtime.close(1_000)
      await dispose()
      await rm(mailDir, { recursive: true, force: true })
    },
  }
}

/** The `name=value` of the session cookie a response sets, or undefined. */
export function sessionCookieFrom(response: TestResponse): string | undefined {
  const header = response.headers.getSetCookie().find((c) => c.startsWith('session='))
  return header?.split(';')[0]
}

/** The first link in an email, with quoted-printable soft breaks and escapes undone. */
export function linkIn(email: string): string {
  const decoded = email
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
  const link = decoded.match(/https?:\/\/\S+/)?.[0]
  if (!link) throw new Error('No link in the email')
  return link
}
