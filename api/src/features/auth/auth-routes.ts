import {
  loginInput,
  okSchema,
  passwordResetRequestInput,
  registerInput,
  resetPasswordInput,
  userSchema,
  verifyEmailInput,
} from '@reelgraph/shared'
import { Hono } from 'hono'
import type { AppEnv } from '../../app-env.ts'
import { clientIp } from '../../lib/client-ip.ts'
import { docs } from '../../lib/openapi.ts'
import { validate } from '../../lib/validate.ts'
import { requireAuth, secureCookies } from '../../middleware/session.ts'
import { toUserJson } from '../user/user-json.ts'
import {
  endSession,
  logIn,
  normalizeEmail,
  registerUser,
  resetPassword,
  sendEmailVerification,
  sendPasswordReset,
  verifyEmail,
} from './auth-service.ts'
import { clearSessionCookie, writeSessionCookie } from './session-cookie.ts'
import { createSession } from '@reelgraph/db'

const TAG = 'Auth'
/** The one answer to every reset request, known email or not (spec §8). */
const RESET_REQUESTED_MESSAGE =
  'If your email is registered, you will receive a password reset link.'

/**
 * Signs the user in: a new session (so a new id at every login) in a fresh cookie. The
 * previous session of this browser ends, its sync sockets too.
 */
async function startSession(c: Parameters<typeof requireAuth>[0], userId: number): Promise<void> {
  const previous = c.var.auth
  if (previous) await endSession(c.var.db, c.var.deps.documents, c.var.logger, previous.session.id)
  const { token, expiresAt } = await createSession(c.var.db, userId)
  writeSessionCookie(c, secureCookies(c), token, expiresAt)
}

/**
 * Accounts: register, login, logout, password reset and email verification.
 * @see spec §5 (Login, Register, Password reset), §7, issue 2
 */
export const authRoutes = new Hono<AppEnv>()
  .post(
    '/register',
    docs({ summary: 'Create an account and sign in', tag: TAG, response: userSchema, status: 201 }),
    validate('json', registerInput),
    async (c) => {
      const { rateLimits, mailer, env, tasks } = c.var.deps
      await rateLimits.registrationsPerIp.consume(
        clientIp(c),
        'Too many accounts created from this network.',
      )
      const user = await registerUser(c.var.db, c.req.valid('json'))
      await startSession(c, user.id)
      tasks.run('verification email', () =>
        sendEmailVerification(c.var.db, mailer, env.APP_URL, user),
      )
      return c.json(toUserJson(user), 201)
    },
  )
  .post(
    '/login',
    docs({ summary: 'Sign in with email and password', tag: TAG, response: userSchema }),
    validate('json', loginInput),
    async (c) => {
      const { db, deps } = c.var
      const user = await logIn({
        db,
        limits: deps.rateLimits,
        input: c.req.valid('json'),
        clientAddress: clientIp(c),
      })
      await startSession(c, user.id)
      return c.json(toUserJson(user))
    },
  )
  .post('/logout', docs({ summary: 'Sign out', tag: TAG, response: okSchema }), async (c) => {
    const auth = c.var.auth
    if (auth) await endSession(c.var.db, c.var.deps.documents, c.var.logger, auth.session.id)
    clearSessionCookie(c, secureCookies(c))
    return c.json({ ok: true as const })
  })
  .post(
    '/request-password-reset',
    docs({
      summary: 'Email a password reset link',
      description:
        'Answers the same for known and unknown emails; the email is sent in the background.',
      tag: TAG,
      response: okSchema,
    }),
    validate('json', passwordResetRequestInput),
    async (c) => {
      const { email } = c.req.valid('json')
      const { rateLimits, mailer, env, tasks } = c.var.deps
      const message = 'Too many password reset requests.'
      await rateLimits.resetRequestsPerIp.consume(clientIp(c), message)
      await rateLimits.resetRequestsPerEmail.consume(normalizeEmail(email), message)
      tasks.run('password reset email', () =>
        sendPasswordReset(c.var.db, mailer, env.APP_URL, email),
      )
      return c.json({ ok: true as const, message: RESET_REQUESTED_MESSAGE })
    },
  )
  .post(
    '/reset-password',
    docs({ summary: 'Set a new password with an emailed token', tag: TAG, response: okSchema }),
    validate('json', resetPasswordInput),
    async (c) => {
      const { documents } = c.var.deps
      const input = c.req.valid('json')
      await resetPassword(c.var.db, documents, c.var.logger, input, c.var.auth?.session.id)
      return c.json({
        ok: true as const,
        message: 'Your password has been changed. Sign in with it.',
      })
    },
  )
  .post(
    '/verify-email',
    docs({
      summary: 'Verify an email address with an emailed token',
      tag: TAG,
      response: okSchema,
    }),
    validate('json', verifyEmailInput),
    async (c) => {
      await verifyEmail(c.var.db, c.req.valid('json').token)
      return c.json({ ok: true as const, message: 'Your email address is verified.' })
    },
  )
  .post(
    '/resend-verification',
    docs({ summary: 'Email a new verification link', tag: TAG, response: okSchema }),
    async (c) => {
      const { user } = requireAuth(c)
      if (user.email_verified_at)
        return c.json({ ok: true as const, message: 'Your email is already verified.' })
      const { rateLimits, mailer, env } = c.var.deps
      await rateLimits.verificationResendsPerUser.consume(
        String(user.id),
        'Too many verification emails.',
      )
      await sendEmailVerification(c.var.db, mailer, env.APP_URL, user)
      return c.json({
        ok: true as const,
        message: `We sent a new verification link to ${user.email}.`,
      })
    },
  )
