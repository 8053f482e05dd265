import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible'
import type { RateLimitRule, RateLimitRules } from '../config.ts'
import { AppError } from '../lib/app-error.ts'

/** One named limit: count an event for a key, or check a key without counting. */
export interface RateLimit {
  /** Counts one event; throws 429 RATE_LIMITED when the key is over its limit. */
  consume(key: string, message: string): Promise<void>
  /** Throws 429 RATE_LIMITED when the key is already blocked, without counting. */
  check(key: string, message: string): Promise<void>
  /** Forgets the key (e.g. failures after a successful login). */
  reset(key: string): Promise<void>
}

export type RateLimits = { [K in keyof RateLimitRules]: RateLimit }

function tooMany(res: RateLimiterRes, message: string): AppError {
  const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000))
  const minutes = Math.ceil(seconds / 60)
  const wait = seconds < 90 ? `${seconds} seconds` : `${minutes} minutes`
  return new AppError('RATE_LIMITED', `${message} Try again in ${wait}.`, {
    headers: { 'Retry-After': String(seconds) },
  })
}

function createLimit(name: string, rule: RateLimitRule): RateLimit {
  const limiter = new RateLimiterMemory({
    keyPrefix: name,
    points: rule.points,
    duration: rule.durationSeconds,
    blockDuration: rule.blockSeconds,
  })
  return {
    async consume(key, message) {
      try {
        await limiter.consume(key)
      } catch (err) {
        if (err instanceof RateLimiterRes) throw tooMany(err, message)
        throw err
      }
    },
    async check(key, message) {
      const res = await limiter.get(key)
      if (res && res.consumedPoints > rule.points) throw tooMany(res, message)
      if (res && res.consumedPoints >= rule.points && res.msBeforeNext > 0)
        throw tooMany(res, message)
    },
    async reset(key) {
      await limiter.delete(key)
    },
  }
}

/**
 * The auth rate limits, counted in this process's memory. A deployment with several api
 * processes keeps them per process until the Redis store lands (team-editing issue).
 */
export function createRateLimits(rules: RateLimitRules): RateLimits {
  return Object.fromEntries(
    Object.entries(rules).map(([name, rule]) => [name, createLimit(name, rule)]),
  ) as RateLimits
}
