import { describe, expect, it } from 'vitest'
import { PositionWriter, type WriterClock } from './position-writer'

function fakeClock() {
  let now = 0
  const timers: { at: number; fn: () => void; id: number }[] = []
  let next = 1
  const clock: WriterClock = {
    now: () => now,
    setTimeout: (fn, ms) => {
      const id = next++
      timers.push({ at: now + ms, fn, id })
      return id
    },
    clearTimeout: (id) => {
      const i = timers.findIndex((t) => t.id === id)
      if (i >= 0) timers.splice(i, 1)
    },
  }
  const advance = (ms: number) => {
    now += ms
    for (const t of [...timers].sort((a, b) => a.at - b.at)) {
      if (t.at <= now) {
        timers.splice(timers.indexOf(t), 1)
        t.fn()
      }
    }
  }
  return { clock, advance }
}

describe('PositionWriter', () => {
  it('writes at most once per interval, the latest position winning, and flushes on drag end', () => {
    const { clock, advance } = fakeClock()
    const writes: [string, { x: number; y: number }][][] = []
    const writer = new PositionWriter((p) => writes.push([...p]), 50, clock)
    writer.queue('a', { x: 1, y: 1 })
    expect(writes).toHaveLength(1)
    for (let i = 2; i <= 5; i++) {
      advance(10)
      writer.queue('a', { x: i, y: i })
    }
    expect(writes).toHaveLength(1)
    advance(10)
    expect(writes).toHaveLength(2)
    expect(writes[1]).toEqual([['a', { x: 5, y: 5 }]])
    advance(5)
    writer.queue('a', { x: 9, y: 9 })
    writer.queue('b', { x: 0, y: 0 })
    writer.flush()
    expect(writes).toHaveLength(3)
    expect(writes[2]).toEqual([
      ['a', { x: 9, y: 9 }],
      ['b', { x: 0, y: 0 }],
    ])
    advance(100)
    expect(writes).toHaveLength(3)
  })
})
