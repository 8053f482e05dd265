import { describe, expect, it } from 'vitest'
import { parseDurationList } from './durations.ts'

describe('parseDurationList (WEBHOOK_RETRY_DELAYS, issue 41 item 3)', () => {
  it('reads durations with their units, in order, in ms', () => {
    expect(parseDurationList(' 500ms, 5s,2m ,1.5h,1d')).toEqual([
      500, 5_000, 120_000, 5_400_000, 86_400_000,
    ])
    expect(parseDurationList('')).toEqual([])
  })

  it('refuses, naming them, entries without a unit, zero, or past the longest', () => {
    expect(() => parseDurationList('5s, 30, 0s, 2 weeks, 8d', 7 * 86_400_000)).toThrow(
      'not a duration such as 500ms, 5s, 2m, 1h or 1d (at most 7 days): 30, 0s, 2 weeks, 8d',
    )
  })
})
