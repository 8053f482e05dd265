/** A throttled call: `call(value)` sends at most once per interval, the latest value last. */
export interface Throttled<T> {
  call: (value: T) => void
  /** Drops a pending trailing call. */
  cancel: () => void
  /** Sends a pending trailing call now (the end of a drag). */
  flush: () => void
}

interface Clock {
  now: () => number
  setTimeout: (fn: () => void, ms: number) => unknown
  clearTimeout: (handle: unknown) => void
}

const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

/**
 * Calls `fn` at once, then at most once per `intervalMs`: values arriving in between are
 * kept and the latest is sent when the interval ends (leading and trailing edge).
 */
export function throttle<T>(
  fn: (value: T) => void,
  intervalMs: number,
  clock = realClock,
): Throttled<T> {
  let last = -Infinity
  let timer: unknown = null
  let pending: { value: T } | null = null
  const fire = (value: T) => {
    last = clock.now()
    fn(value)
  }
  return {
    call(value) {
      const wait = last + intervalMs - clock.now()
      if (wait <= 0 && timer === null) {
        fire(value)
        return
      }
      pending = { value }
      if (timer !== null) return
      timer = clock.setTimeout(
        () => {
          timer = null
          const p = pending
          pending = null
          if (p) fire(p.value)
        },
        Math.max(wait, 0),
      )
    },
    cancel() {
      if (timer !== null) clock.clearTimeout(timer)
      timer = null
      pending = null
    },
    flush() {
      const p = pending
      if (timer !== null) clock.clearTimeout(timer)
      timer = null
      pending = null
      if (p) fire(p.value)
    },
  }
}
