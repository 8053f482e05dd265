import { constantTimeEqual } from '@oslojs/crypto/subtle'
import type { Kysely } from 'kysely'
import type { DB, SessionRow, UserRow } from './schema.ts'
import { generateSecret, hashSecret } from './tokens.ts'

/** A session ends after this long without a request (sliding expiry). */
export const SESSION_IDLE_TIMEOUT_MS = 7 * 24 * 60 * 60 * 1000
/** A session ends this long after sign-in however active it is (absolute limit, issue 2). */
export const SESSION_ABSOLUTE_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000
/** last_seen_at is written at most this often, so reads stay reads. */
export const SESSION_TOUCH_INTERVAL_MS = 60 * 60 * 1000

/**
 * Sessions as the Lucia guide describes them: the cookie carries `<id>.<secret>`, the
 * database keeps only SHA-256(secret), compared in constant time.
 * Idle sessions end after SESSION_IDLE_TIMEOUT_MS; every session ends
 * SESSION_ABSOLUTE_LIFETIME_MS after sign-in.
 */

/** A signed-in session and when its cookie should expire. */
export interface ValidSession {
  session: SessionRow
  user: UserRow
  /** When the session ends if unused: min(idle expiry, absolute expiry). */
  expiresAt: Date
  /** True when last_seen_at was just moved forward: re-send the cookie. */
  refreshed: boolean
}

/** When a session seen at `lastSeenAt`, created at `createdAt`, stops being valid. */
export function sessionExpiresAt(createdAt: Date, lastSeenAt: Date): Date {
  return new Date(
    Math.min(
      lastSeenAt.getTime() + SESSION_IDLE_TIMEOUT_MS,
      createdAt.getTime() + SESSION_ABSOLUTE_LIFETIME_MS,
    ),
  )
}

/** Starts a session for `userId`; returns the cookie token and its expiry. */
export async function createSession(
  db: Kysely<DB>,
  userId: number,
  now = new Date(),
): Promise<{ token: string; expiresAt: Date }> {
  const id = generateSecret()
  const secret = generateSecret()
  await db
    .insertInto('sessions')
    .values({
      id,
      secret_hash: hashSecret(secret),
      user_id: userId,
      created_at: now,
      last_seen_at: now,
    })
    .execute()
  return { token: `${id}.${secret}`, expiresAt: sessionExpiresAt(now, now) }
}

/**
 * Looks up the session of a cookie token, with its user, in one query. Deletes it when it
 * has expired; moves last_seen_at forward at most once per SESSION_TOUCH_INTERVAL_MS.
 * @returns null for a malformed, unknown, forged or expired token.
 */
export async function validateSessionToken(
  db: Kysely<DB>,
  token: string,
  now = new Date(),
): Promise<ValidSession | null> {
  const [id, secret, extra] = token.split('.')
  if (!id || !secret || extra !== undefined || id.length > 64 || secret.length > 64) return null
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select([
      'sessions.id as session_id',
      'sessions.secret_hash as session_secret_hash',
      'sessions.created_at as session_created_at',
      'sessions.last_seen_at as session_last_seen_at',
    ])
    .where('sessions.id', '=', id)
    .executeTakeFirst()
  if (!row) return null
  if (!constantTimeEqual(hashSecret(secret), new Uint8Array(row.session_secret_hash))) return null
  const { session_id, session_secret_hash, session_created_at, session_last_seen_at, ...user } = row
  const session: SessionRow = {
    id: session_id,
    secret_hash: session_secret_hash,
    user_id: user.id,
    created_at: session_created_at,
    last_seen_at: session_last_seen_at,
  }
  if (now >= sessionExpiresAt(session.created_at, session.last_seen_at)) {
    await deleteSession(db, session.id)
    return null
  }
  let refreshed = false
  if (now.getTime() - session.last_seen_at.getTime() >= SESSION_TOUCH_INTERVAL_MS) {
    await db
      .updateTable('sessions')
      .set({ last_seen_at: now })
      .where('id', '=', session.id)
      .execute()
    session.last_seen_at = now
    refreshed = true
  }
  return {
    session,
    user,
    expiresAt: sessionExpiresAt(session.created_at, session.last_seen_at),
    refreshed,
  }
}

/** Ends one session (logout). */
export async function deleteSession(db: Kysely<DB>, sessionId: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute()
}

/**
 * Ends every session of a user except `keepSessionId` (password reset).
 * @returns the ids of the sessions deleted, so their open sync connections can be closed
 *   once the deletion is committed (issue 6 / security).
 */
export async function deleteUserSessions(
  db: Kysely<DB>,
  userId: number,
  keepSessionId?: string,
): Promise<string[]> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId)
  if (keepSessionId) query = query.where('id', '!=', keepSessionId)
  const rows = await query.returning('id').execute()
  return rows.map((row) => row.id)
}
