import { testDatabaseKinds } from './testing.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createSession,
  deleteUserSessions,
  SESSION_ABSOLUTE_LIFETIME_MS,
  SESSION_IDLE_TIMEOUT_MS,
  SESSION_TOUCH_INTERVAL_MS,
  validateSessionToken,
} from './sessions.ts'

const HOUR = 60 * 60 * 1000

describe.each(testDatabaseKinds())('sessions on $name', (kind) => {
  let db: Awaited<ReturnType<typeof kind.create>>
  let userId: number

  beforeAll(async () => {
    db = await kind.create()
    const user = await db.db
      .insertInto('users')
      .values({
        name: 'A',
        email: 'a@example.com',
        password_hash: 'x',
        stripe_customer_id: null,
        stripe_subscription_id: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    userId = user.id
  })
  afterAll(() => db.dispose())

  it('slides the idle expiry forward when used', async () => {
    const start = new Date('2026-01-01T00:00:00Z')
    const { token } = await createSession(db.db, userId, start)
    const later = new Date(start.getTime() + SESSION_IDLE_TIMEOUT_MS - HOUR)
    const seen = await validateSessionToken(db.db, token, later)
    expect(seen?.refreshed).toBe(true)
    expect(seen?.expiresAt.getTime()).toBe(later.getTime() + SESSION_IDLE_TIMEOUT_MS)
    // Past the first idle window, but used within it: still valid.
    const afterFirstWindow = new Date(start.getTime() + SESSION_IDLE_TIMEOUT_MS + HOUR)
    expect(await validateSessionToken(db.db, token, afterFirstWindow)).not.toBeNull()
  })

  it('does not write last_seen_at more often than the touch interval', async () => {
    const start = new Date('2026-01-01T00:00:00Z')
    const { token } = await createSession(db.db, userId, start)
    const soon = new Date(start.getTime() + SESSION_TOUCH_INTERVAL_MS / 2)
    expect((await validateSessionToken(db.db, token, soon))?.refreshed).toBe(false)
  })

  it('ends an idle session and deletes it', async () => {
    const start = new Date('2026-01-01T00:00:00Z')
    const { token } = await createSession(db.db, userId, start)
    const idle = new Date(start.getTime() + SESSION_IDLE_TIMEOUT_MS + 1)
    expect(await validateSessionToken(db.db, token, idle)).toBeNull()
    expect(await validateSessionToken(db.db, token, start)).toBeNull()
  })

  it('ends every session 30 days after sign-in however active', async () => {
    const start = new Date('2026-01-01T00:00:00Z')
    const { token } = await createSession(db.db, userId, start)
    let now = start.getTime()
    while (now + SESSION_IDLE_TIMEOUT_MS / 2 < start.getTime() + SESSION_ABSOLUTE_LIFETIME_MS) {
      now += SESSION_IDLE_TIMEOUT_MS / 2
      expect(await validateSessionToken(db.db, token, new Date(now))).not.toBeNull()
    }
    const pastLimit = new Date(start.getTime() + SESSION_ABSOLUTE_LIFETIME_MS)
    expect(await validateSessionToken(db.db, token, pastLimit)).toBeNull()
  })

  it('rejects malformed tokens without a query error', async () => {
    for (const token of ['', 'abc', 'a.b.c', `${'x'.repeat(100)}.y`]) {
      expect(await validateSessionToken(db.db, token)).toBeNull()
    }
  })

  it('deleteUserSessions ends all but the kept session and returns the ended ids', async () => {
    const idOf = (token: string) => token.split('.')[0]!
    const tokens = await Promise.all([1, 2, 3].map(() => createSession(db.db, userId)))
    const [kept, ...others] = tokens.map((t) => t.token)
    const ended = await deleteUserSessions(db.db, userId, idOf(kept!))
    expect(ended).toEqual(expect.arrayContaining(others.map(idOf)))
    expect(ended).not.toContain(idOf(kept!))
    expect(await validateSessionToken(db.db, kept!)).not.toBeNull()
    for (const token of others) expect(await validateSessionToken(db.db, token)).toBeNull()
    expect(await deleteUserSessions(db.db, userId)).toEqual([idOf(kept!)])
  })
})
