import type {
  Credits,
  LoginInput,
  Ok,
  PasswordResetRequestInput,
  RegisterInput,
  ResetPasswordInput,
  User,
  VerifyEmailInput,
} from '@reelgraph/shared'
import { USER_CACHE_TIME_MS } from '@reelgraph/shared'
import { queryOptions } from '@tanstack/react-query'
import { apiRequest, getQueryFn } from '@/lib/api-client'
import { QUERY_KEYS } from '@/lib/query-keys'

/**
 * The session probe: the signed-in user, or null when anonymous (a 401 is not an error).
 * Not retried, fresh for 5 minutes.
 * @see spec §7 GET /api/user
 */
export const userQueryOptions = queryOptions({
  queryKey: QUERY_KEYS.user,
  queryFn: getQueryFn<User>({ on401: 'returnNull' }),
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
  queryFn: getQueryFn<Credits>({ on401: 'returnNull' }),
  staleTime: 0,
  refetchOnWindowFocus: true,
  refetchOnMount: true,
})

/** `POST /api/login`: starts a session. @throws {ApiError} 401 INVALID_CREDENTIALS, 429. */
export function login(input: LoginInput): Promise<User> {
  return apiRequest<User>('POST', '/api/login', input)
}

/** `POST /api/register`: creates the account (201) and starts a session. @throws 409 EMAIL_TAKEN. */
export function register(input: RegisterInput): Promise<User> {
  return apiRequest<User>('POST', '/api/register', input)
}

/** `POST /api/logout`: ends the session. */
export function logout(): Promise<Ok> {
  return apiRequest<Ok>('POST', '/api/logout')
}

/** `POST /api/request-password-reset`: emails a reset link when the address has an account. */
export function requestPasswordReset(input: PasswordResetRequestInput): Promise<Ok> {
  return apiRequest<Ok>('POST', '/api/request-password-reset', input)
}

/** `POST /api/reset-password`: sets a new password with an emailed token. @throws 400 INVALID_TOKEN. */
export function resetPassword(input: ResetPasswordInput): Promise<Ok> {
  return apiRequest<Ok>('POST', '/api/reset-password', input)
}

/** `POST /api/verify-email`: confirms the address with an emailed token. @throws 400 INVALID_TOKEN. */
export function verifyEmail(input: VerifyEmailInput): Promise<Ok> {
  return apiRequest<Ok>('POST', '/api/verify-email', input)
}

/** `POST /api/resend-verification`: emails a new verification link to the signed-in user. */
export function resendVerification(): Promise<Ok> {
  return apiRequest<Ok>('POST', '/api/resend-verification')
}
