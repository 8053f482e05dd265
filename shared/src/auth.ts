import { z } from 'zod'
import {
  EMAIL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from './constants.ts'

/**
 * Validation messages, word for word.
 * @see spec §5 Validation rules (Login, Register, Password reset)
 */
export const AUTH_MESSAGES = {
  emailInvalid: 'Please enter a valid email address',
  passwordRequired: 'Password is required',
  nameRequired: 'Name is required',
  nameTooLong: `Name must be at most ${NAME_MAX_LENGTH} characters`,
  passwordTooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  passwordTooLong: `Password must be at most ${PASSWORD_MAX_LENGTH} characters`,
  confirmPasswordRequired: 'Please confirm your password',
  passwordsDoNotMatch: 'Passwords do not match',
  termsRequired: 'You must agree to the Terms and Privacy Policy',
  tokenRequired: 'The link is missing its token. Open the link from your email again.',
} as const

/**
 * The registration form's password hint (ARCHITECTURE decision 3: length only, common
 * passwords refused; replaces the spec's composition rule).
 */
export const PASSWORD_HINT = `At least ${PASSWORD_MIN_LENGTH} characters. Very common passwords are not accepted.`

/** An email address: trimmed, at most 254 characters, validated by pattern (spec §5). */
export const emailSchema = z
  .string({ error: AUTH_MESSAGES.emailInvalid })
  .trim()
  .max(EMAIL_MAX_LENGTH, AUTH_MESSAGES.emailInvalid)
  .pipe(z.email({ error: AUTH_MESSAGES.emailInvalid }))

/** A new password: 8 to 128 characters, no composition rules (ARCHITECTURE decision 3). */
export const newPasswordSchema = z
  .string({ error: AUTH_MESSAGES.passwordTooShort })
  .min(PASSWORD_MIN_LENGTH, AUTH_MESSAGES.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, AUTH_MESSAGES.passwordTooLong)

/** A display name: trimmed, 1 to 100 characters (spec §5 Register). */
export const nameSchema = z
  .string({ error: AUTH_MESSAGES.nameRequired })
  .trim()
  .min(1, AUTH_MESSAGES.nameRequired)
  .max(NAME_MAX_LENGTH, AUTH_MESSAGES.nameTooLong)

/**
 * `POST /api/login` body and the login form.
 * @see spec §5 Login, §7
 */
export const loginInput = z
  .object({
    email: emailSchema,
    password: z
      .string({ error: AUTH_MESSAGES.passwordRequired })
      .min(1, AUTH_MESSAGES.passwordRequired)
      .max(PASSWORD_MAX_LENGTH * 8, AUTH_MESSAGES.passwordTooLong),
  })
  .meta({ id: 'LoginInput' })
export type LoginInput = z.infer<typeof loginInput>

/**
 * `POST /api/register` body: only name, email and password (spec §5 Register).
 */
export const registerInput = z
  .object({ name: nameSchema, email: emailSchema, password: newPasswordSchema })
  .meta({ id: 'RegisterInput' })
export type RegisterInput = z.infer<typeof registerInput>

/**
 * The registration form: the payload plus confirmation and terms agreement.
 * @see spec §5 Register (form as used)
 */
export const registerForm = z
  .object({
    name: nameSchema,
    email: emailSchema,
    password: newPasswordSchema,
    confirmPassword: z.string().min(1, AUTH_MESSAGES.confirmPasswordRequired),
    termsAgreed: z.boolean().refine((v) => v, AUTH_MESSAGES.termsRequired),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: AUTH_MESSAGES.passwordsDoNotMatch,
    path: ['confirmPassword'],
  })
export type RegisterForm = z.infer<typeof registerForm>

/** `POST /api/request-password-reset` body and form (spec §5 Password reset). */
export const passwordResetRequestInput = z
  .object({ email: emailSchema })
  .meta({ id: 'PasswordResetRequestInput' })
export type PasswordResetRequestInput = z.infer<typeof passwordResetRequestInput>

/** An emailed secret (reset, verification, invitation links): 1 to 200 characters. */
export const tokenSchema = z
  .string({ error: AUTH_MESSAGES.tokenRequired })
  .min(1, AUTH_MESSAGES.tokenRequired)
  .max(200, AUTH_MESSAGES.tokenRequired)

/** `POST /api/reset-password` body: the emailed token and the new password. */
export const resetPasswordInput = z
  .object({ token: tokenSchema, password: newPasswordSchema })
  .meta({ id: 'ResetPasswordInput' })
export type ResetPasswordInput = z.infer<typeof resetPasswordInput>

/** The set-a-new-password form on /reset-password. */
export const resetPasswordForm = z
  .object({
    password: newPasswordSchema,
    confirmPassword: z.string().min(1, AUTH_MESSAGES.confirmPasswordRequired),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: AUTH_MESSAGES.passwordsDoNotMatch,
    path: ['confirmPassword'],
  })
export type ResetPasswordForm = z.infer<typeof resetPasswordForm>

/** `POST /api/verify-email` body: the token from the verification email. */
export const verifyEmailInput = z.object({ token: tokenSchema }).meta({ id: 'VerifyEmailInput' })
export type VerifyEmailInput = z.infer<typeof verifyEmailInput>

/**
 * The user as the API returns it. Never carries the password hash or any token.
 * `credits` is plan credits plus purchased credits (ARCHITECTURE decision 5).
 * Dates are ISO 8601 strings.
 * @see spec §3 User
 */
export const userSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    email: z.string(),
    credits: z.number().int(),
    subscriptionStatus: z.string(),
    subscriptionPeriodEnd: z.string().nullable(),
    emailVerified: z.boolean(),
    createdAt: z.string(),
  })
  .meta({ id: 'User' })
export type User = z.infer<typeof userSchema>

/**
 * `GET /api/user/credits` answer (spec §7): `credits`, the balance, is the sum of the two
 * buckets (ARCHITECTURE decision 5), which the subscription page shows apart (issue 14
 * item 7): `planCredits`, this billing period's plan credits (reset at renewal), and
 * `purchasedCredits`, package and welcome credits (never expire). Whole credits.
 */
export const creditsSchema = z
  .object({
    credits: z.number().int(),
    planCredits: z.number().int(),
    purchasedCredits: z.number().int(),
  })
  .meta({ id: 'Credits' })
export type Credits = z.infer<typeof creditsSchema>

/** A plain success answer for calls whose response the spec does not show. */
export const okSchema = z
  .object({ ok: z.literal(true), message: z.string().optional() })
  .meta({ id: 'Ok' })
export type Ok = z.infer<typeof okSchema>

/**
 * The session cookie's name: `__Host-session` when cookies are Secure (production), else
 * `session`. The api sets it; the sync server reads it on the WebSocket upgrade.
 */
export function sessionCookieName(secure: boolean): string {
  return secure ? '__Host-session' : 'session'
}
