import { testDatabaseKinds } from '@reelgraph/db/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, linkIn, sessionCookieFrom, type TestApp } from '../../testing/test-app.ts'

const OLD_PASSWORD = 'paper lantern river'
const NEW_PASSWORD = 'quiet harbour morning'

describe.each(testDatabaseKinds())('password reset on $name', (kind) => {
  let t: TestApp
  let counter = 0

  beforeAll(async () => {
    t = await createTestApp(kind)
  })
  afterAll(() => t.close())

  async function registerAndRequestReset() {
    const email = `reset${++counter}-${Date.now()}@example.com`
    const reg = await t.request('POST', '/api/register', {
      body: { name: 'Ada', email, password: OLD_PASSWORD },
    })
    const res = await t.request('POST', '/api/request-password-reset', { body: { email } })
    expect(res.status).toBe(200)
    const mails = (await t.emailsTo(email)).filter((m) => /Subject: Reset your/.test(m))
    expect(mails).toHaveLength(1)
    const token = new URL(linkIn(mails[0] ?? '')).searchParams.get('token') ?? ''
    return { email, token, cookie: sessionCookieFrom(reg) }
  }

  it('answers known and unknown emails identically, and mails only the known one', async () => {
    const email = `known${Date.now()}@example.com`
    await t.request('POST', '/api/register', {
      body: { name: 'Ada', email, password: OLD_PASSWORD },
    })
    const unknownEmail = `unknown${Date.now()}@example.com`
    const known = await t.request('POST', '/api/request-password-reset', { body: { email } })
    const unknown = await t.request('POST', '/api/request-password-reset', {
      body: { email: unknownEmail },
    })
    expect(known.status).toBe(unknown.status)
    expect(await known.text()).toBe(await unknown.text())
    expect(await t.emailsTo(unknownEmail)).toHaveLength(0)
    expect((await t.emailsTo(email)).some((m) => /Subject: Reset your/.test(m))).toBe(true)
  })

  it('rejects an invalid email with the spec message', async () => {
    const res = await t.request('POST', '/api/request-password-reset', { body: { email: 'nope' } })
    expect(res.status).toBe(400)
    expect((await res.json()).error.message).toBe('Please enter a valid email address')
  })

  it('sets a new password with the emailed token, once, and ends every session', async () => {
    const { email, token, cookie } = await registerAndRequestReset()
    const res = await t.request('POST', '/api/reset-password', {
      body: { token, password: NEW_PASSWORD },
    })
    expect(res.status).toBe(200)
    expect((await t.request('GET', '/api/user', { cookie })).status).toBe(401)
    const oldLogin = await t.request('POST', '/api/login', {
      body: { email, password: OLD_PASSWORD },
    })
    expect(oldLogin.status).toBe(401)
    const newLogin = await t.request('POST', '/api/login', {
      body: { email, password: NEW_PASSWORD },
    })
    expect(newLogin.status).toBe(200)
    expect((await newLogin.json()).emailVerified).toBe(true)

    const reused = await t.request('POST', '/api/reset-password', {
      body: { token, password: 'another fine password' },
    })
    expect(reused.status).toBe(400)
    expect((await reused.json()).error.code).toBe('INVALID_TOKEN')
  })

  it('refuses an expired token and keeps the old password', async () => {
    const { email, token } = await registerAndRequestReset()
    await t.deps.db
      .updateTable('password_reset_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute()
    const res = await t.request('POST', '/api/reset-password', {
      body: { token, password: NEW_PASSWORD },
    })
    expect(res.status).toBe(400)
    expect((await res.json()).error.message).toMatch(/invalid, already used or expired/)
    expect(
      (await t.request('POST', '/api/login', { body: { email, password: OLD_PASSWORD } })).status,
    ).toBe(200)
  })

  it('refuses an unknown token and a short password without using the token', async () => {
    const { token } = await registerAndRequestReset()
    const unknown = await t.request('POST', '/api/reset-password', {
      body: { token: 'x'.repeat(32), password: NEW_PASSWORD },
    })
    expect(unknown.status).toBe(400)
    const short = await t.request('POST', '/api/reset-password', {
      body: { token, password: 'short' },
    })
    expect(short.status).toBe(400)
    expect((await short.json()).error.fields.password).toBe(
      'Password must be at least 8 characters',
    )
    const ok = await t.request('POST', '/api/reset-password', {
      body: { token, password: NEW_PASSWORD },
    })
    expect(ok.status).toBe(200)
  })

  it('stores reset tokens hashed, never as sent', async () => {
    const { token } = await registerAndRequestReset()
    const rows = await t.deps.db.selectFrom('password_reset_tokens').select('token_hash').execute()
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.map((r) => r.token_hash)).not.toContain(token)
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true)
  })
})
