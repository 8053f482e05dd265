import {
  creditsSchema,
  type LoginInput,
  type Ok,
  okSchema,
  type PasswordResetRequestInput,
  type RegisterInput,
  type ResetPasswordInput,
  type User,
  USER_CACHE_TIME_MS,
  userSchema,
  type VerifyEmailInput,
} from '@reelgraph/shared'
import { queryOptions } from '@tanstack/react-query'
import { api, getQueryFn, parseAnswer } from '@/lib/api-client'
import { QUERY_KEYS } from '@/lib/query-keys'

/**
 * The session probe: the signed-in user, or null when anonymous (a 401 is not an error).
 * Not retried, fresh for 5 minutes.
 * @see spec §7 GET /api/user
 */
export const userQueryOptions = queryOptions({
  queryKey: QUERY_KEYS.user,
  queryFn: getQueryFn({
    on401: 'returnNull',
    schema: userSchema,
    what: 'your account',
    call: ({ signal }) => api.GET('/user', { signal }),
  }),
  retry: false,
  staleTime: USER_CACHE_TIME_MS,
})

/**
 * The credit balance. Always stale: refetched on mount and on window focus; a 401 gives null.
 * Enable it only while a user is signed in.
 * @see spec §7 GET /api/user/credits
 */
export const creditsQueryOptions = queryOptions({
  queryKey: QUERY_KEYS.credits,
  queryFn: getQueryFn({
    on401: 'returnNull',
    schema: creditsSchema,
    what: 'your credits',
    call: ({ signal }) => api.GET('/user/credits', { signal }),
  }),
  staleTime: 0,
  refetchOnWindowFocus: true,
  refetchOnMount: true,
})

/** `POST /api/login`: starts a session. @throws {ApiError} 401 INVALID_CREDENTIALS, 429. */
export async function login(input: LoginInput): Promise<User> {
  const { data } = await api.POST('/login', { body: input })
  return parseAnswer(userSchema, data, 'the sign-in')
}

/** `POST /api/register`: creates the account (201) and starts a session. @throws 409 EMAIL_TAKEN. */
export async function register(input: RegisterInput): Promise<User> {
  const { data } = await api.POST('/register', { body: input })
  return parseAnswer(userSchema, data, 'the registration')
}

/** `POST /api/logout`: ends the session. */
export async function logout(): Promise<Ok> {
  const { data } = await api.POST('/logout')
  return parseAnswer(okSchema, data, 'the sign-out')
}

/** `POST /api/request-password-reset`: emails a reset link when the address has an account. */
export async function requestPasswordReset(input: PasswordResetRequestInput): Promise<Ok> {
  const { data } = await api.POST('/request-password-reset', { body: input })
  return parseAnswer(okSchema, data, 'the reset request')
}

/** `POST /api/reset-password`: sets a new password with an emailed token. @throws 400 INVALID_TOKEN. */
export async function resetPassword(input: ResetPasswordInput): Promise<Ok> {
  const { data } = await api.POST('/reset-password', { body: input })
  return parseAnswer(okSchema, data, 'the password reset')
}

/** `POST /api/verify-email`: confirms the address with an emailed token. @throws 400 INVALID_TOKEN. */
export async function verifyEmail(input: VerifyEmailInput): Promise<Ok> {
  const { data } = await api.POST('/verify-email', { body: input })
  return parseAnswer(okSchema, data, 'the verification')
}

/** `POST /api/resend-verification`: emails a new verification link to the signed-in user. */
export async function resendVerification(): Promise<Ok> {
  const { data } = await api.POST('/resend-verification')
  return parseAnswer(okSchema, data, 'the new link')
}
