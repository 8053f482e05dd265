/**
 * A small seeded pseudo-random source (mulberry32) for the offline drafts (issue 14 item
 * 10): the same seed gives the same draft, another seed most likely another one.
 */
export interface SeededRandom {
  /** A float in [0, 1). */
  next(): number
  /** One of `items` (not empty). */
  pick<T>(items: readonly T[]): T
}

/** A generator for `seed` (any integer; only its low 32 bits count). */
export function seededRandom(seed: number): SeededRandom {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
  }
}
