/**
 * Tunables of the api, each with its unit and reason.
 */

/** Largest request body accepted, in bytes, unless a route needs more (issue 2). */
export const BODY_LIMIT_BYTES = 1024 * 1024
/**
 * Project bodies carry whole graphs: a project may hold 5 MiB (issue 3), plus room for
 * JSON whitespace, so the size rule can answer with its own message.
 */
export const PROJECT_BODY_LIMIT_BYTES = 6 * 1024 * 1024

/** A password reset link works for one hour (issue 2). */
export const PASSWORD_RESET_TOKEN_TTL_MS = 60 * 60 * 1000
/** An email verification link works for two days: people verify late. */
export const EMAIL_VERIFICATION_TOKEN_TTL_MS = 48 * 60 * 60 * 1000

/** argon2id parameters (OWASP Password Storage: m=19 MiB, t=2, p=1). */
export const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const

/** A rate limit: `points` events per `durationSeconds`, then blocked for `blockSeconds`. */
export interface RateLimitRule {
  points: number
  durationSeconds: number
  blockSeconds: number
}

/**
 * The rate limits of the auth calls (issue 2, OWASP Authentication cheat sheet). A login
 * attempt counts before its password is checked and is given back when it succeeds, so the
 * login limits count failures (issue 11 item 4).
 */
export interface RateLimitRules {
  /**
   * Failed logins for one account from one client address: stops one guesser early, and
   * only them, so a stranger cannot lock the owner out (issue 11 item 5). Forgotten when the
   * account signs in from that address.
   */
  loginFailuresPerAccountAndIp: RateLimitRule
  /** Failed logins for one account from every address together: stops a distributed guess. */
  loginFailuresPerAccount: RateLimitRule
  /** Failed logins from one address, every account together: stops password spraying. */
  loginFailuresPerIp: RateLimitRule
  /** Registrations from one IP address. */
  registrationsPerIp: RateLimitRule
  /** Password reset requests from one IP address. */
  resetRequestsPerIp: RateLimitRule
  /** Password reset requests for one email address (stops mail bombing). */
  resetRequestsPerEmail: RateLimitRule
  /** Verification email re-sends per user. */
  verificationResendsPerUser: RateLimitRule
  /** Project invitations sent per user, all projects together (stops mail bombing; issue 6). */
  invitationsPerUser: RateLimitRule
}

export const DEFAULT_RATE_LIMITS: RateLimitRules = {
  // 5 per 15 min, then 15 min: a person mistyping gets several tries (issue 2).
  loginFailuresPerAccountAndIp: { points: 5, durationSeconds: 15 * 60, blockSeconds: 15 * 60 },
  // 100 per hour, then 1 hour: OWASP ASVS 2.2.1 allows at most 100 failures per hour per account.
  loginFailuresPerAccount: { points: 100, durationSeconds: 60 * 60, blockSeconds: 60 * 60 },
  // 50 per 15 min, then 15 min: room for an office behind one address.
  loginFailuresPerIp: { points: 50, durationSeconds: 15 * 60, blockSeconds: 15 * 60 },
  registrationsPerIp: { points: 20, durationSeconds: 60 * 60, blockSeconds: 60 * 60 },
  resetRequestsPerIp: { points: 10, durationSeconds: 15 * 60, blockSeconds: 15 * 60 },
  resetRequestsPerEmail: { points: 3, durationSeconds: 60 * 60, blockSeconds: 60 * 60 },
  verificationResendsPerUser: { points: 3, durationSeconds: 60 * 60, blockSeconds: 60 * 60 },
  invitationsPerUser: { points: 30, durationSeconds: 60 * 60, blockSeconds: 60 * 60 },
}
