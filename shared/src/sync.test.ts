import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BUSY_RETRY_MAX_MS, BUSY_RETRY_MIN_MS, busyRetryDelayMs } from './sync.ts'

describe('busyRetryDelayMs (issue 23)', () => {
  it('waits between the minimum and a ceiling that doubles per attempt up to the maximum', () => {
    fc.assert(
      fc.property(
        fc.nat(40),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, r) => {
          const delay = busyRetryDelayMs(attempt, () => r)
          const ceiling = Math.min(BUSY_RETRY_MAX_MS, BUSY_RETRY_MIN_MS * 2 ** attempt)
          expect(delay).toBeGreaterThanOrEqual(BUSY_RETRY_MIN_MS)
          expect(delay).toBeLessThanOrEqual(ceiling)
        },
      ),
    )
    // Jittered: two refused clients do not come back at the same moment.
    expect(busyRetryDelayMs(5, () => 0.1)).not.toBe(busyRetryDelayMs(5, () => 0.9))
    expect(busyRetryDelayMs(30, () => 0.999_999)).toBe(BUSY_RETRY_MAX_MS)
  })
})
