import {
  type DB,
  deleteSession,
  deleteUserSessions,
  generateSecret,
  hashSecretHex,
  type UserRow,
} from '@reelgraph/db'
import {
  type DocumentGateway,
  INITIAL_CREDITS,
  type LoginInput,
  type RegisterInput,
  type ResetPasswordInput,
} from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import { EMAIL_VERIFICATION_TOKEN_TTL_MS, PASSWORD_RESET_TOKEN_TTL_MS } from '../../config.ts'
import { AppError } from '../../lib/app-error.ts'
import type { Mailer } from '../../services/mailer.ts'
import type { RateLimits } from '../../services/rate-limiter.ts'
import { passwordResetEmail, verificationEmail } from './emails.ts'
import { hashPassword, isCommonPassword, verifyDummyPassword, verifyPassword } from './passwords.ts'

/** Lower-cases an email for storage and lookup (emails are unique case-insensitively). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase()
}

const WEAK_PASSWORD_MESSAGE =
  'This password is one of the most common passwords and is easy to guess. Choose another.'

function assertNotCommon(password: string): void {
  if (isCommonPassword(password)) {
    throw new AppError('WEAK_PASSWORD', WEAK_PASSWORD_MESSAGE, {
      fields: { password: WEAK_PASSWORD_MESSAGE },
    })
  }
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === '23505'
}

/**
 * Creates an account with INITIAL_CREDITS and its `account_creation` ledger row in one
 * transaction (spec §1, §3; issue 2). The welcome credits never expire, so they go to the
 * purchased bucket (ARCHITECTURE decision 5).
 * @throws AppError 409 EMAIL_TAKEN when the email is registered (case-insensitive);
 *   400 WEAK_PASSWORD for a common password.
 */
export async function registerUser(db: Kysely<DB>, input: RegisterInput): Promise<UserRow> {
  assertNotCommon(input.password)
  const email = normalizeEmail(input.email)
  const passwordHash = await hashPassword(input.password)
  try {
    return await db.transaction().execute(async (trx) => {
      const user = await trx
        .insertInto('users')
        .values({
          name: input.name,
          email,
          password_hash: passwordHash,
          purchased_credits: INITIAL_CREDITS,
          stripe_customer_id: null,
          stripe_subscription_id: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      await trx
        .insertInto('credit_transactions')
        .values({
          user_id: user.id,
          amount: INITIAL_CREDITS,
          transaction_type: 'account_creation',
          description: 'Welcome credits',
          purchased_amount: INITIAL_CREDITS,
          idempotency_key: `account_creation:${user.id}`,
        })
        .execute()
      return user
    })
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw new AppError(
        'EMAIL_TAKEN',
        'An account with this email already exists. Sign in, or reset your password if you forgot it.',
        { fields: { email: 'An account with this email already exists.' } },
      )
    }
    throw err
  }
}

/**
 * Checks an email and password. Unknown emails cost the same argon2 work as known ones.
 * @throws AppError 401 INVALID_CREDENTIALS for an unknown email or a wrong password.
 */
export async function authenticate(db: Kysely<DB>, input: LoginInput): Promise<UserRow> {
  const user = await db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', normalizeEmail(input.email))
    .executeTakeFirst()
  if (!user) {
    await verifyDummyPassword(input.password)
  } else if (await verifyPassword(user.password_hash, input.password)) {
    return user
  }
  throw new AppError('INVALID_CREDENTIALS', 'The email or password is incorrect.')
}

/** The login limits of {@link logIn}. */
export type LoginLimits = Pick<
  RateLimits,
  'loginFailuresPerAccountAndIp' | 'loginFailuresPerIp' | 'loginFailuresPerAccount'
>

const LOGIN_LIMIT_MESSAGE = 'Too many failed sign-in attempts.'

/**
 * Signs in with the login lockout policy: the attempt is counted before the password is
 * checked, for the account from this address, for the address and for the account, so a
 * parallel burst cannot check more passwords than the limits allow (issue 11 item 4). The
 * narrowest count comes first: an attempt it refuses spends none of the budgets shared with
 * others, so a stranger's guesses from elsewhere never block the owner's address and only a
 * many-address attack reaches the account's ceiling (issue 11 item 5). A good password gives
 * its count back and forgets the failures of this account from this address.
 * @param clientAddress The client's address (`clientIp` in lib/client-ip.ts).
 * @throws AppError 429 RATE_LIMITED (password not checked) when a limit is reached;
 *   401 INVALID_CREDENTIALS for an unknown email or a wrong password.
 * @see issue 11 items 4 and 5
 */
export async function logIn({
  db,
  limits,
  input,
  clientAddress,
}: {
  db: Kysely<DB>
  limits: LoginLimits
  input: LoginInput
  clientAddress: string
}): Promise<UserRow> {
  const account = normalizeEmail(input.email)
  const accountFromAddress = `${account} ${clientAddress}`
  await limits.loginFailuresPerAccountAndIp.consume(accountFromAddress, LOGIN_LIMIT_MESSAGE)
  await limits.loginFailuresPerIp.consume(clientAddress, LOGIN_LIMIT_MESSAGE)
  await limits.loginFailuresPerAccount.consume(account, LOGIN_LIMIT_MESSAGE)
  const user = await authenticate(db, input)
  await Promise.all([
    limits.loginFailuresPerAccountAndIp.reset(accountFromAddress),
    limits.loginFailuresPerIp.reward(clientAddress),
    limits.loginFailuresPerAccount.reward(account),
  ])
  return user
}

/** Finds a user by email, or undefined. */
export function findUserByEmail(db: Kysely<DB>, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', normalizeEmail(email))
    .executeTakeFirst()
}

/**
 * Emails a password reset link to `email` when an account has it; does nothing otherwise.
 * Callers run it in the background and answer the same either way.
 */
export async function sendPasswordReset(
  db: Kysely<DB>,
  mailer: Mailer,
  appUrl: string,
  email: string,
  now = new Date(),
): Promise<void> {
  const user = await findUserByEmail(db, email)
  if (!user) return
  const secret = generateSecret()
  await db
    .insertInto('password_reset_tokens')
    .values({
      token_hash: hashSecretHex(secret),
      user_id: user.id,
      expires_at: new Date(now.getTime() + PASSWORD_RESET_TOKEN_TTL_MS),
    })
    .execute()
  const link = `${appUrl}/reset-password?token=${secret}`
  await mailer.send(passwordResetEmail(user.email, user.name, link))
}

/**
 * Closes the live sync connections of sessions that have just ended (their rows deleted and
 * committed) on every sync server, so each provider reconnects, is refused
 * `unauthenticated` and the web app signs the person out (issue 6 / security: "signing out
 * does not close WebSockets already open"). Never throws: a failure is logged, the sessions
 * stay ended (their sockets are then refused at their next reconnect).
 */
export async function closeSessionSockets(
  documents: DocumentGateway,
  logger: Logger,
  sessionIds: readonly string[],
): Promise<void> {
  if (sessionIds.length === 0) return
  try {
    await documents.closeSessionConnections(sessionIds)
  } catch (err) {
    logger.error(
      { err, sessions: sessionIds.length },
      'closing the sync connections of ended sessions failed',
    )
  }
}

/**
 * Ends one session (logout, or the previous session at sign-in) and closes its live sync
 * connections ({@link closeSessionSockets}). Throws only when the deletion fails.
 */
export async function endSession(
  db: Kysely<DB>,
  documents: DocumentGateway,
  logger: Logger,
  sessionId: string,
): Promise<void> {
  await deleteSession(db, sessionId)
  await closeSessionSockets(documents, logger, [sessionId])
}

/**
 * Sets a new password with a reset token. The token is single use: every reset token of
 * the user is deleted, and so is every session but `keepSessionId`; once that is committed
 * the ended sessions' live sync connections are closed ({@link closeSessionSockets}).
 * Receiving the email proves the address, so it is marked verified.
 * @throws AppError 400 INVALID_TOKEN for an unknown, used or expired token;
 *   400 WEAK_PASSWORD for a common password.
 */
export async function resetPassword(
  db: Kysely<DB>,
  documents: DocumentGateway,
  logger: Logger,
  input: ResetPasswordInput,
  keepSessionId?: string,
  now = new Date(),
): Promise<UserRow> {
  assertNotCommon(input.password)
  const passwordHash = await hashPassword(input.password)
  const { user, endedSessionIds } = await db.transaction().execute(async (trx) => {
    const token = await trx
      .deleteFrom('password_reset_tokens')
      .where('token_hash', '=', hashSecretHex(input.token))
      .returningAll()
      .executeTakeFirst()
    if (!token || token.expires_at <= now) {
      throw new AppError(
        'INVALID_TOKEN',
        'This password reset link is invalid, already used or expired. Request a new one from the sign-in page.',
      )
    }
    await trx.deleteFrom('password_reset_tokens').where('user_id', '=', token.user_id).execute()
    const user = await trx
      .updateTable('users')
      .set((eb) => ({
        password_hash: passwordHash,
        email_verified_at: eb.fn.coalesce('email_verified_at', eb.val(now)),
      }))
      .where('id', '=', token.user_id)
      .returningAll()
      .executeTakeFirstOrThrow()
    const endedSessionIds = await deleteUserSessions(trx, user.id, keepSessionId)
    return { user, endedSessionIds }
  })
  await closeSessionSockets(documents, logger, endedSessionIds)
  return user
}

/** Emails a link that verifies the user's current address. */
export async function sendEmailVerification(
  db: Kysely<DB>,
  mailer: Mailer,
  appUrl: string,
  user: Pick<UserRow, 'id' | 'email' | 'name'>,
  now = new Date(),
): Promise<void> {
  const secret = generateSecret()
  await db
    .insertInto('email_verification_tokens')
    .values({
      token_hash: hashSecretHex(secret),
      user_id: user.id,
      email: user.email,
      expires_at: new Date(now.getTime() + EMAIL_VERIFICATION_TOKEN_TTL_MS),
    })
    .execute()
  const link = `${appUrl}/verify-email?token=${secret}`
  await mailer.send(verificationEmail(user.email, user.name, link))
}

/**
 * Marks an address verified with the emailed token; the user's verification tokens are
 * then deleted.
 * @throws AppError 400 INVALID_TOKEN for an unknown, used or expired token, or one sent to
 *   an address the account no longer has.
 */
export async function verifyEmail(
  db: Kysely<DB>,
  token: string,
  now = new Date(),
): Promise<UserRow> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('email_verification_tokens')
      .innerJoin('users', 'users.id', 'email_verification_tokens.user_id')
      .select([
        'email_verification_tokens.user_id',
        'email_verification_tokens.email as token_email',
        'email_verification_tokens.expires_at',
        'users.email',
      ])
      .where('token_hash', '=', hashSecretHex(token))
      .executeTakeFirst()
    if (!row || row.expires_at <= now || row.token_email !== row.email) {
      throw new AppError(
        'INVALID_TOKEN',
        'This verification link is invalid, already used or expired. Sign in and ask for a new one.',
      )
    }
    await trx.deleteFrom('email_verification_tokens').where('user_id', '=', row.user_id).execute()
    return trx
      .updateTable('users')
      .set((eb) => ({ email_verified_at: eb.fn.coalesce('email_verified_at', eb.val(now)) }))
      .where('id', '=', row.user_id)
      .returningAll()
      .executeTakeFirstOrThrow()
  })
}
