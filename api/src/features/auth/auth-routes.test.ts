import { testDatabaseKinds } from '@reelgraph/db/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_RATE_LIMITS } from '../../config.ts'
import {
  createTestApp,
  LOOSE_RATE_LIMITS,
  linkIn,
  sessionCookieFrom,
  type TestApp,
} from '../../testing/test-app.ts'

const PASSWORD = 'paper lantern river'

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
      expect(await credits.json()).toEqual({ credits: 20 })
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
    it('answers 429 with Retry-After after repeated failed logins, even for the right password', async () => {
      const limited = await createTestApp(kind, {
        ...LOOSE_RATE_LIMITS,
        loginFailuresPerAccount: DEFAULT_RATE_LIMITS.loginFailuresPerAccount,
      })
      try {
        const email = uniqueEmail()
        await limited.request('POST', '/api/register', {
          body: { name: 'A', email, password: PASSWORD },
        })
        const { points } = DEFAULT_RATE_LIMITS.loginFailuresPerAccount
        for (let i = 0; i < points; i++) {
          const res = await limited.request('POST', '/api/login', {
            body: { email, password: 'wrong password' },
          })
          expect(res.status).toBe(401)
        }
        const blocked = await limited.request('POST', '/api/login', {
          body: { email, password: PASSWORD },
        })
        expect(blocked.status).toBe(429)
        expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0)
        expect((await blocked.json()).error.message).toMatch(
          /Too many failed sign-in attempts\. Try again in \d+ minutes\./,
        )
      } finally {
        await limited.close()
      }
    })

    it('limits registrations per IP address', async () => {
      const limited = await createTestApp(kind, {
        ...LOOSE_RATE_LIMITS,
        registrationsPerIp: { points: 2, durationSeconds: 3600, blockSeconds: 3600 },
      })
      try {
        const statuses = []
        for (let i = 0; i < 3; i++) {
          const res = await limited.request('POST', '/api/register', {
            body: { name: 'A', email: uniqueEmail(), password: PASSWORD },
          })
          statuses.push(res.status)
        }
        expect(statuses).toEqual([201, 201, 429])
      } finally {
        await limited.close()
      }
    })
  })
})
