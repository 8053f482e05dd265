import { testDatabaseKinds } from '@reelgraph/db/testing'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  createTestApp,
  linkIn,
  sessionCookieFrom,
  type TestApp,
  type TestResponse,
} from '../../testing/test-app.ts'

const PASSWORD = 'paper lantern river'
const NEW_PASSWORD = 'quiet harbour morning'

/** The session id (`sessions.id`) in a `session=<id>.<secret>` cookie. */
function sessionIdOf(cookie: string | undefined): string {
  const id = /^session=([^.]+)\./.exec(cookie ?? '')?.[1]
  if (!id) throw new Error(`no session in cookie ${cookie}`)
  return id
}

/** Ended sessions lose their live sync connections (issue 6 / security). */
describe.each(testDatabaseKinds())('closing ended sessions’ sync sockets on $name', (kind) => {
  let t: TestApp
  let counter = 0
  let closeSessionConnections: ReturnType<typeof vi.spyOn>

  beforeAll(async () => {
    t = await createTestApp(kind)
    // The real gateway (the sync server of the test app), recorded.
    closeSessionConnections = vi.spyOn(t.deps.documents, 'closeSessionConnections')
  })
  // Braces: a function returned from beforeEach is run as its cleanup (mockClear returns the spy).
  beforeEach(() => {
    closeSessionConnections.mockClear()
  })
  afterAll(() => t.close())

  async function register() {
    const email = `sockets${++counter}-${Date.now()}@example.com`
    const res = await t.request('POST', '/api/register', {
      body: { name: 'Ada', email, password: PASSWORD },
    })
    expect(res.status).toBe(201)
    return { email, cookie: sessionCookieFrom(res) }
  }

  async function login(email: string, password = PASSWORD, cookie?: string) {
    const res: TestResponse = await t.request('POST', '/api/login', {
      body: { email, password },
      cookie,
    })
    expect(res.status).toBe(200)
    return sessionCookieFrom(res)
  }

  it('logout closes the ended session’s connections, after deleting it', async () => {
    const { email, cookie } = await register()
    const other = await login(email)
    closeSessionConnections.mockClear()
    const res = await t.request('POST', '/api/logout', { cookie })
    expect(res.status).toBe(200)
    expect(closeSessionConnections).toHaveBeenCalledExactlyOnceWith([sessionIdOf(cookie)])
    expect((await t.request('GET', '/api/user', { cookie })).status).toBe(401)
    expect((await t.request('GET', '/api/user', { cookie: other })).status).toBe(200)
  })

  it('logout succeeds and ends the session even when closing the sockets fails', async () => {
    const { cookie } = await register()
    closeSessionConnections.mockRejectedValueOnce(new Error('the gateway is down'))
    const res = await t.request('POST', '/api/logout', { cookie })
    expect(res.status).toBe(200)
    expect(closeSessionConnections).toHaveBeenCalledOnce()
    expect((await t.request('GET', '/api/user', { cookie })).status).toBe(401)
  })

  it('logout without a session closes nothing', async () => {
    const res = await t.request('POST', '/api/logout')
    expect(res.status).toBe(200)
    expect(closeSessionConnections).not.toHaveBeenCalled()
  })

  it('signing in again closes the previous session’s connections', async () => {
    const { email, cookie } = await register()
    closeSessionConnections.mockClear()
    await login(email, PASSWORD, cookie)
    expect(closeSessionConnections).toHaveBeenCalledExactlyOnceWith([sessionIdOf(cookie)])
  })

  it('password reset closes the other sessions’ connections, not the kept one’s', async () => {
    const { email, cookie: first } = await register()
    const second = await login(email)
    const kept = await login(email)
    await t.request('POST', '/api/request-password-reset', { body: { email } })
    const mail = (await t.emailsTo(email)).find((m) => /Subject: Reset your/.test(m))
    const token = new URL(linkIn(mail ?? '')).searchParams.get('token') ?? ''
    closeSessionConnections.mockClear()

    const res = await t.request('POST', '/api/reset-password', {
      body: { token, password: NEW_PASSWORD },
      cookie: kept,
    })
    expect(res.status).toBe(200)
    expect(closeSessionConnections).toHaveBeenCalledOnce()
    const [closed] = closeSessionConnections.mock.calls[0] as [string[]]
    expect([...closed].sort()).toEqual([sessionIdOf(first), sessionIdOf(second)].sort())
    expect(closed).not.toContain(sessionIdOf(kept))
    expect((await t.request('GET', '/api/user', { cookie: kept })).status).toBe(200)
    expect((await t.request('GET', '/api/user', { cookie: first })).status).toBe(401)
  })

  it('a refused password reset closes nothing', async () => {
    const { cookie } = await register()
    closeSessionConnections.mockClear()
    const res = await t.request('POST', '/api/reset-password', {
      body: { token: 'x'.repeat(32), password: NEW_PASSWORD },
      cookie,
    })
    expect(res.status).toBe(400)
    expect(closeSessionConnections).not.toHaveBeenCalled()
  })
})
