import { randomUUID } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { type ServerType, serve } from '@hono/node-server'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../app.ts'
import { DEFAULT_RATE_LIMITS, type RateLimitRules } from '../../config.ts'
import { createRateLimits, type RateLimitStore } from '../../services/rate-limiter.ts'
import {
  createTestApp,
  LOOSE_RATE_LIMITS,
  linkIn,
  sessionCookieFrom,
  TEST_ORIGIN,
  type TestApp,
} from '../../testing/test-app.ts'

const PASSWORD = 'paper lantern river'
const REDIS_URL = process.env.REDIS_URL

type App = ReturnType<typeof createApp>

/** The default login limits, the others loose. */
const LOGIN_LIMITS: RateLimitRules = {
  ...LOOSE_RATE_LIMITS,
  loginFailuresPerAccountAndIp: DEFAULT_RATE_LIMITS.loginFailuresPerAccountAndIp,
  loginFailuresPerAccount: DEFAULT_RATE_LIMITS.loginFailuresPerAccount,
  loginFailuresPerIp: DEFAULT_RATE_LIMITS.loginFailuresPerIp,
}
const LOGIN_LIMIT = DEFAULT_RATE_LIMITS.loginFailuresPerAccountAndIp.points

/** Another app with `t`'s deps but login limiters of its own in `store`, as a process has. */
function instance(t: TestApp, store: RateLimitStore): App {
  return createApp({ ...t.deps, rateLimits: createRateLimits(LOGIN_LIMITS, store) })
}

/** Posts JSON to `app` the way the web app does (its Origin), without a network. */
async function post(app: App, path: string, body: unknown): Promise<Response> {
  return app.request(path, {
    method: 'POST',
    headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
}

/**
 * Serves `t`'s app over HTTP on 127.0.0.1, so requests have a socket: behind TRUST_PROXY the
 * client address then comes from X-Forwarded-For, as a proxy in front of the app writes it.
 */
async function listen(t: TestApp) {
  const app = createApp(t.deps)
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
  })
  const { port } = server.address() as AddressInfo
  return {
    post: (path: string, body: unknown, forwardedFor: string) =>
      fetch(`http://127.0.0.1:${port}${path}`, {
        method: 'POST',
        headers: {
          origin: TEST_ORIGIN,
          'content-type': 'application/json',
          'x-forwarded-for': forwardedFor,
        },
        body: JSON.stringify(body),
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

describe.each(testDatabaseKinds())('accounts on $name', (kind) => {
  let t: TestApp
  let counter = 0
  const uniqueEmail = () => `user${++counter}-${Date.now()}@example.com`

  beforeAll(async () => {
    t = await createTestApp(kind)
  })
  afterAll(() => t.close())

  async function register(email = uniqueEmail(), name = 'Grace Hopper') {
    const res = await t.request('POST', '/api/register', {
      body: { name, email, password: PASSWORD },
    })
    expect(res.status).toBe(201)
    return { res, email, cookie: sessionCookieFrom(res), user: await res.json() }
  }

  const countUsers = async () =>
    Number(
      (
        await t.deps.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )

  describe('POST /api/register', () => {
    it('creates the user with 20 credits and an account_creation ledger row, and signs them in', async () => {
      const { user, cookie, email } = await register()
      expect(user).toMatchObject({
        name: 'Grace Hopper',
        email,
        credits: 20,
        subscriptionStatus: 'free',
        emailVerified: false,
      })
      expect(cookie).toBeDefined()
      const ledger = await t.deps.db
        .selectFrom('credit_transactions')
        .selectAll()
        .where('user_id', '=', user.id)
        .execute()
      expect(ledger).toHaveLength(1)
      expect(ledger[0]).toMatchObject({ amount: 20, transaction_type: 'account_creation' })
      const me = await t.request('GET', '/api/user', { cookie })
      expect(me.status).toBe(200)
      expect((await me.json()).id).toBe(user.id)
      const credits = await t.request('GET', '/api/user/credits', { cookie })
      // The welcome credits never expire: they are in the purchased bucket (issue 14 item 7).
      expect(await credits.json()).toEqual({ credits: 20, planCredits: 0, purchasedCredits: 20 })
    })

    it('never exposes the password hash, a token or Stripe ids', async () => {
      const { user, res } = await register()
      expect(Object.keys(user).sort()).toEqual([
        'createdAt',
        'credits',
        'email',
        'emailVerified',
        'id',
        'name',
        'subscriptionPeriodEnd',
        'subscriptionStatus',
      ])
      const text = JSON.stringify(user)
      expect(text).not.toMatch(/argon2|password|token|stripe/i)
      expect(res.headers.get('content-type')).toMatch(/application\/json/)
    })

    it('sets the session cookie HttpOnly, SameSite=Lax, Path=/ with an expiry', async () => {
      const { res } = await register()
      const header = res.headers.getSetCookie().find((c) => c.startsWith('session='))
      expect(header).toMatch(/HttpOnly/)
      expect(header).toMatch(/SameSite=Lax/)
      expect(header).toMatch(/Path=\//)
      expect(header).toMatch(/Max-Age=\d+/)
    })

    it('answers 409 for an email already registered in any letter case, storing nothing', async () => {
      const { email } = await register()
      const before = await countUsers()
      const res = await t.request('POST', '/api/register', {
        body: { name: 'Someone Else', email: email.toUpperCase(), password: PASSWORD },
      })
      expect(res.status).toBe(409)
      const body = await res.json()
      expect(body.error.code).toBe('EMAIL_TAKEN')
      expect(body.error.message).toMatch(/already exists/)
      expect(await countUsers()).toBe(before)
    })

    it.each([
      [{}, 'name', 'Name is required'],
      [
        { name: 'A', email: 'not-an-email', password: PASSWORD },
        'email',
        'Please enter a valid email address',
      ],
      [
        { name: 'A', email: 'a@example.com', password: 'short' },
        'password',
        'Password must be at least 8 characters',
      ],
      [{ name: '   ', email: 'a@example.com', password: PASSWORD }, 'name', 'Name is required'],
      [{ name: 42, email: ['x'], password: true }, 'email', 'Please enter a valid email address'],
      [
        { name: 'A', email: 'a@example.com', password: 'x'.repeat(129) },
        'password',
        'Password must be at most 128 characters',
      ],
    ])(
      'rejects %j with 400 and the field message, storing nothing',
      async (body, field, message) => {
        const before = await countUsers()
        const res = await t.request('POST', '/api/register', { body })
        expect(res.status).toBe(400)
        const json = await res.json()
        expect(json.error.code).toBe('VALIDATION_FAILED')
        expect(json.error.fields[field]).toBe(message)
        expect(await countUsers()).toBe(before)
      },
    )

    it('rejects a common password with 400 WEAK_PASSWORD', async () => {
      const res = await t.request('POST', '/api/register', {
        body: { name: 'A', email: uniqueEmail(), password: 'password123' },
      })
      expect(res.status).toBe(400)
      expect((await res.json()).error).toMatchObject({ code: 'WEAK_PASSWORD' })
    })

    it('rejects malformed JSON with 400, a non-JSON body with 415 and a 10 MB body with 413', async () => {
      const before = await countUsers()
      const malformed = await t.request('POST', '/api/register', {
        rawBody: '{"name": "A",',
        headers: { 'content-type': 'application/json' },
      })
      expect(malformed.status).toBe(400)
      expect((await malformed.json()).error.code).toBe('INVALID_JSON')
      const form = await t.request('POST', '/api/register', {
        rawBody: 'name=A&email=a@example.com',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
      expect(form.status).toBe(415)
      expect((await form.json()).error.message).toMatch(/application\/json/)
      const huge = await t.request('POST', '/api/register', {
        body: { name: 'x'.repeat(10 * 1024 * 1024), email: uniqueEmail(), password: PASSWORD },
      })
      expect(huge.status).toBe(413)
      expect((await huge.json()).error.code).toBe('PAYLOAD_TOO_LARGE')
      expect(await countUsers()).toBe(before)
    })

    it('emails a verification link that verifies the address once', async () => {
      const { email, cookie } = await register()
      const [mail] = await t.emailsTo(email)
      expect(mail).toMatch(/Subject: Verify your email/)
      const token = new URL(linkIn(mail ?? '')).searchParams.get('token')
      const ok = await t.request('POST', '/api/verify-email', { body: { token } })
      expect(ok.status).toBe(200)
      expect((await (await t.request('GET', '/api/user', { cookie })).json()).emailVerified).toBe(
        true,
      )
      const again = await t.request('POST', '/api/verify-email', { body: { token } })
      expect(again.status).toBe(400)
      expect((await again.json()).error.code).toBe('INVALID_TOKEN')
    })
  })

  describe('POST /api/login and /api/logout', () => {
    it('signs in with the right password, case-insensitively by email', async () => {
      const { email } = await register()
      const res = await t.request('POST', '/api/login', {
        body: { email: email.toUpperCase(), password: PASSWORD },
      })
      expect(res.status).toBe(200)
      expect((await res.json()).email).toBe(email)
      expect(sessionCookieFrom(res)).toBeDefined()
    })

    it('answers 401 with one message for a wrong password and an unknown email', async () => {
      const { email } = await register()
      const wrong = await t.request('POST', '/api/login', {
        body: { email, password: 'not the password' },
      })
      const unknown = await t.request('POST', '/api/login', {
        body: { email: uniqueEmail(), password: PASSWORD },
      })
      expect(wrong.status).toBe(401)
      expect(unknown.status).toBe(401)
      const [a, b] = [await wrong.json(), await unknown.json()]
      expect(a).toEqual(b)
      expect(a.error.code).toBe('INVALID_CREDENTIALS')
      expect(sessionCookieFrom(wrong)).toBeUndefined()
    })

    it('validates the login body with the spec messages', async () => {
      const res = await t.request('POST', '/api/login', { body: { email: 'nope', password: '' } })
      expect(res.status).toBe(400)
      const { error } = await res.json()
      expect(error.fields).toEqual({
        email: 'Please enter a valid email address',
        password: 'Password is required',
      })
    })

    it('gives a new session id at login and ends the previous one', async () => {
      const { email, cookie: first } = await register()
      const res = await t.request('POST', '/api/login', {
        body: { email, password: PASSWORD },
        cookie: first,
      })
      const second = sessionCookieFrom(res)
      expect(second).toBeDefined()
      expect(second?.split('.')[0]).not.toBe(first?.split('.')[0])
      expect((await t.request('GET', '/api/user', { cookie: first })).status).toBe(401)
      expect((await t.request('GET', '/api/user', { cookie: second })).status).toBe(200)
    })

    it('logout deletes the session: the cookie no longer works', async () => {
      const { cookie } = await register()
      const res = await t.request('POST', '/api/logout', { cookie })
      expect(res.status).toBe(200)
      expect(res.headers.getSetCookie().join()).toMatch(/session=;/)
      const me = await t.request('GET', '/api/user', { cookie })
      expect(me.status).toBe(401)
      expect((await me.json()).error.code).toBe('UNAUTHENTICATED')
      expect((await t.request('GET', '/api/user/credits', { cookie })).status).toBe(401)
    })

    it('rejects a forged session secret', async () => {
      const { cookie } = await register()
      const forged = `${cookie?.split('.')[0]}.${'a'.repeat(32)}`
      expect((await t.request('GET', '/api/user', { cookie: forged })).status).toBe(401)
    })

    it('refuses state-changing requests from another origin or without one', async () => {
      const { email } = await register()
      const evil = await t.request('POST', '/api/login', {
        body: { email, password: PASSWORD },
        headers: { origin: 'https://evil.example' },
      })
      expect(evil.status).toBe(403)
      expect((await evil.json()).error.code).toBe('FORBIDDEN_ORIGIN')
      const none = await t.request('POST', '/api/logout', { headers: { origin: '' } })
      expect(none.status).toBe(403)
      // A form post under no-referrer carries "Origin: null": only Sec-Fetch-Site can vouch.
      const opaque = await t.request('POST', '/api/logout', { headers: { origin: 'null' } })
      expect(opaque.status).toBe(403)
      const crossSite = await t.request('POST', '/api/logout', {
        headers: { origin: 'null', 'sec-fetch-site': 'cross-site' },
      })
      expect(crossSite.status).toBe(403)
      const sameOrigin = await t.request('POST', '/api/logout', {
        headers: { origin: 'null', 'sec-fetch-site': 'same-origin' },
      })
      expect(sameOrigin.status).toBe(200)
    })
  })

  describe('rate limits', () => {
    let limited: TestApp
    beforeAll(async () => {
      limited = await createTestApp(kind, LOGIN_LIMITS)
    })
    afterAll(() => limited.close())

    async function registerOn(app: TestApp) {
      const email = uniqueEmail()
      const res = await app.request('POST', '/api/register', {
        body: { name: 'A', email, password: PASSWORD },
      })
      expect(res.status).toBe(201)
      return email
    }

    const login = (app: TestApp, email: string, password: string) =>
      app.request('POST', '/api/login', { body: { email, password } })

    it('answers 429 with Retry-After after repeated failed logins, even for the right password', async () => {
      const email = await registerOn(limited)
      for (let i = 0; i < LOGIN_LIMIT; i++) {
        expect((await login(limited, email, 'wrong password')).status).toBe(401)
      }
      const blocked = await login(limited, email, PASSWORD)
      expect(blocked.status).toBe(429)
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0)
      expect((await blocked.json()).error.message).toMatch(
        /Too many failed sign-in attempts\. Try again in \d+ minutes\./,
      )
    })

    // Issue 11 item 4: the limit used to be checked before the failures were counted.
    it('answers 429 to all but the limit of 40 parallel wrong passwords', async () => {
      const email = await registerOn(limited)
      const burst = await Promise.all(
        Array.from({ length: 40 }, () => login(limited, email, 'wrong password')),
      )
      const statuses = burst.map((r) => r.status)
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(LOGIN_LIMIT)
      expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([])
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(40 - LOGIN_LIMIT)
    })

    it('refuses the right password sent during a burst once the burst has reached the limit', async () => {
      const email = await registerOn(limited)
      const burst = Array.from({ length: 30 }, (_, i) => login(limited, email, `guess ${i}`))
      // The first 429 proves the limit is reached; most of the burst is still being checked.
      const firstRefusal = new Promise<void>((resolve) => {
        for (const r of burst) void r.then((res) => res.status === 429 && resolve())
      })
      await Promise.race([firstRefusal, Promise.all(burst)])
      const right = await login(limited, email, PASSWORD)
      const statuses = (await Promise.all(burst)).map((r) => r.status)
      expect(statuses).toContain(429)
      expect(right.status).toBe(429)
      expect(sessionCookieFrom(right)).toBeUndefined()
    })

    // Issue 11 item 6: two processes used to allow the limit twice.
    it('shares the login limits between two app instances on one database', async () => {
      const store: RateLimitStore = { kind: 'postgres', db: limited.deps.db }
      const [a, b] = [instance(limited, store), instance(limited, store)]
      const email = await registerOn(limited)
      const statuses = []
      for (let i = 0; i < LOGIN_LIMIT + 2; i++) {
        const res = await post(i % 2 === 0 ? a : b, '/api/login', {
          email,
          password: 'wrong password',
        })
        statuses.push(res.status)
      }
      expect(statuses).toEqual([...Array(LOGIN_LIMIT).fill(401), 429, 429])
      expect((await post(a, '/api/login', { email, password: PASSWORD })).status).toBe(429)
      expect((await post(b, '/api/login', { email, password: PASSWORD })).status).toBe(429)
    })

    it.skipIf(!REDIS_URL)(
      'shares the login limits between two app instances through Redis',
      async () => {
        // Two connections, as two processes have; one prefix per run so parallel runs never meet.
        const prefix = `rate-limit-test-${randomUUID()}`
        const clients = [new Redis(REDIS_URL!), new Redis(REDIS_URL!)]
        try {
          const [a, b] = clients.map((client) =>
            instance(limited, { kind: 'redis', client, prefix }),
          ) as [App, App]
          const email = await registerOn(limited)
          const burst = await Promise.all(
            Array.from({ length: 20 }, (_, i) =>
              post(i % 2 === 0 ? a : b, '/api/login', { email, password: 'wrong password' }),
            ),
          )
          const statuses = burst.map((r) => r.status)
          expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(LOGIN_LIMIT)
          expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(20 - LOGIN_LIMIT)
          expect((await post(b, '/api/login', { email, password: PASSWORD })).status).toBe(429)
          expect(await clients[0]!.keys(`${prefix}:*`)).not.toEqual([])
        } finally {
          const keys = await clients[0]!.keys(`${prefix}:*`)
          if (keys.length > 0) await clients[0]!.del(...keys)
          await Promise.all(clients.map((c) => c.quit()))
        }
      },
    )

    // Issue 11 item 5: 5 failures from anywhere used to lock the owner out.
    it("does not let a stranger's failed logins from another address lock the owner out", async () => {
      const behindProxy = await createTestApp(kind, LOGIN_LIMITS, { TRUST_PROXY: '1' })
      const server = await listen(behindProxy)
      try {
        const owner = '198.51.100.7'
        const stranger = '203.0.113.9'
        const email = uniqueEmail()
        const body = { name: 'Owner', email, password: PASSWORD }
        expect((await server.post('/api/register', body, owner)).status).toBe(201)
        const statuses = []
        for (let i = 0; i < 10; i++) {
          const res = await server.post('/api/login', { email, password: `guess ${i}` }, stranger)
          statuses.push(res.status)
        }
        expect(statuses).toEqual([...Array(LOGIN_LIMIT).fill(401), ...Array(5).fill(429)])
        const ownLogin = await server.post('/api/login', { email, password: PASSWORD }, owner)
        expect(ownLogin.status).toBe(200)
      } finally {
        await server.close()
        await behindProxy.close()
      }
    })

    it('limits registrations per IP address', async () => {
      const app = await createTestApp(kind, {
        ...LOOSE_RATE_LIMITS,
        registrationsPerIp: { points: 2, durationSeconds: 3600, blockSeconds: 3600 },
      })
      try {
        const statuses = []
        for (let i = 0; i < 3; i++) {
          const res = await app.request('POST', '/api/register', {
            body: { name: 'A', email: uniqueEmail(), password: PASSWORD },
          })
          statuses.push(res.status)
        }
        expect(statuses).toEqual([201, 201, 429])
      } finally {
        await app.close()
      }
    })

    // Issue 11 item 7: the leftmost X-Forwarded-For entry, which the client writes, was trusted.
    it('counts registrations behind TRUST_PROXY=1 by the rightmost X-Forwarded-For entry', async () => {
      const behindProxy = await createTestApp(
        kind,
        { ...LOOSE_RATE_LIMITS, registrationsPerIp: DEFAULT_RATE_LIMITS.registrationsPerIp },
        { TRUST_PROXY: '1' },
      )
      const server = await listen(behindProxy)
      try {
        const { points } = DEFAULT_RATE_LIMITS.registrationsPerIp
        const client = '198.51.100.23'
        const statuses = []
        for (let i = 0; i < points + 4; i++) {
          const spoofed = `10.${i}.0.1, 192.0.2.${i}`
          const body = { name: 'A', email: uniqueEmail(), password: PASSWORD }
          statuses.push((await server.post('/api/register', body, `${spoofed}, ${client}`)).status)
        }
        expect(statuses).toEqual([...Array(points).fill(201), 429, 429, 429, 429])
        // Another client behind the same proxy, with the blocked address spoofed on the left.
        const body = { name: 'B', email: uniqueEmail(), password: PASSWORD }
        const other = await server.post('/api/register', body, `${client}, 198.51.100.24`)
        expect(other.status).toBe(201)
      } finally {
        await server.close()
        await behindProxy.close()
      }
    })
  })
})
