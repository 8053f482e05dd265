/**
 * When a failed store is tried again (issue 3: retry with backoff; issue 11: at most
 * PERSIST_MAX_ATTEMPTS attempts, then wait for the next change).
 */
import {
  PERSIST_MAX_ATTEMPTS,
  PERSIST_RETRY_BASE_MS,
  PERSIST_RETRY_MAX_MS,
} from '@reelgraph/shared'

/** How {@link StoreRetry} backs off (tests pass smaller values). */
export interface StoreRetryOptions {
  /** First wait after a failed store in ms, doubled after each failure (default PERSIST_RETRY_BASE_MS). */
  baseMs?: number | undefined
  /** Longest wait between store attempts in ms (default PERSIST_RETRY_MAX_MS). */
  maxMs?: number | undefined
  /** Attempts of one store before it waits for the next change (default PERSIST_MAX_ATTEMPTS). */
  maxAttempts?: number | undefined
}

/**
 * The backoff of failed stores: PERSIST_RETRY_BASE_MS doubling to PERSIST_RETRY_MAX_MS, at
 * most PERSIST_MAX_ATTEMPTS attempts (the defaults; tests pass smaller ones). Its waits are
 * timers that {@link wakeAll} ends at once, so a shutdown does not sit out a backoff.
 */
export class StoreRetry {
  private readonly baseMs: number
  private readonly maxMs: number
  private readonly maxAttempts: number
  private readonly sleepers = new Set<() => void>()

  constructor(options: StoreRetryOptions = {}) {
    this.baseMs = options.baseMs ?? PERSIST_RETRY_BASE_MS
    this.maxMs = options.maxMs ?? PERSIST_RETRY_MAX_MS
    this.maxAttempts = options.maxAttempts ?? PERSIST_MAX_ATTEMPTS
  }

  /** True when `attempt` (from 1) is the last allowed: after it fails, the store waits for the next change. */
  isLastAttempt(attempt: number): boolean {
    return attempt >= this.maxAttempts
  }

  /** The wait in ms after failed attempt `attempt` (from 1): the base, doubled after each failure up to the max. */
  delayAfter(attempt: number): number {
    let delay = this.baseMs
    for (let n = 1; n < attempt; n++) delay = Math.min(delay * 2, this.maxMs)
    return delay
  }

  /** Resolves after `ms`, or at once when {@link wakeAll} is called meanwhile. */
  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer)
        this.sleepers.delete(wake)
        resolve()
      }
      const timer = setTimeout(wake, ms)
      this.sleepers.add(wake)
    })
  }

  /** Ends every wait under way now (shutting down: each store tries once more at once). */
  wakeAll(): void {
    for (const wake of this.sleepers) wake()
  }
}
