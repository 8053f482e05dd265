import { describe, expect, it } from 'vitest'
import { throttle } from './throttle'

function fakeClock() {
  let now = 0
  let next: { at: number; fn: () => void } | null = null
  return {
    now: () => now,
    setTimeout: (fn: () => void, ms: number) => {
      next = { at: now + ms, fn }
      return next
    },
    clearTimeout: (handle: unknown) => {
      if (handle === next) next = null
    },
    advance(ms: number) {
      now += ms
      const due = next
      if (due && due.at <= now) {
        next = null
        due.fn()
      }
    },
  }
}

describe('throttle', () => {
  it('sends at once, then at most once per interval with the latest value', () => {
    const clock = fakeClock()
    const sent: number[] = []
    const t = throttle((v: number) => sent.push(v), 50, clock)
    t.call(1)
    expect(sent).toEqual([1])
    clock.advance(10)
    t.call(2)
    t.call(3)
    expect(sent).toEqual([1])
    clock.advance(39)
    expect(sent).toEqual([1])
    clock.advance(1)
    expect(sent).toEqual([1, 3])
    clock.advance(100)
    t.call(4)
    expect(sent).toEqual([1, 3, 4])
  })

  it('never sends more than 20 a second at 50 ms', () => {
    const clock = fakeClock()
    const times: number[] = []
    const t = throttle(() => times.push(clock.now()), 50, clock)
    for (let ms = 0; ms < 1000; ms += 5) {
      t.call(ms)
      clock.advance(5)
    }
    expect(times.filter((at) => at < 1000)).toHaveLength(20)
    for (let i = 1; i < times.length; i++) {
      expect((times[i] as number) - (times[i - 1] as number)).toBeGreaterThanOrEqual(50)
    }
  })

  it('cancel drops the pending trailing call', () => {
    const clock = fakeClock()
    const sent: number[] = []
    const t = throttle((v: number) => sent.push(v), 50, clock)
    t.call(1)
    t.call(2)
    t.cancel()
    clock.advance(100)
    expect(sent).toEqual([1])
  })

  it('flush sends the pending trailing call at once, and only once', () => {
    const clock = fakeClock()
    const sent: number[] = []
    const t = throttle((v: number) => sent.push(v), 50, clock)
    t.call(1)
    t.call(2)
    t.flush()
    expect(sent).toEqual([1, 2])
    clock.advance(100)
    t.flush()
    expect(sent).toEqual([1, 2])
  })
})
