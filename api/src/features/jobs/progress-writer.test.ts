import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createProgressWriter } from './progress-writer.ts'

describe('createProgressWriter (issue 12: a job shows its provider progress)', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  function setup() {
    const writes: number[] = []
    const done: (() => void)[] = []
    const report = createProgressWriter<number>({
      intervalMs: 1000,
      write: (value) => {
        writes.push(value)
        return new Promise<void>((resolve) => done.push(resolve))
      },
    })
    const finish = async () => {
      done.shift()?.()
      await vi.advanceTimersByTimeAsync(0)
    }
    return { writes, report, finish }
  }

  it('writes the first report at once, and a report made once within the interval after it', async () => {
    const { writes, report, finish } = setup()
    report(0)
    expect(writes).toEqual([0])
    await finish()
    await vi.advanceTimersByTimeAsync(300)
    report(40) // reported once only, 300 ms after the last write
    expect(writes).toEqual([0])
    await vi.advanceTimersByTimeAsync(700)
    expect(writes).toEqual([0, 40])
  })

  it('never overlaps writes, and writes the latest report once the one in flight is done', async () => {
    const { writes, report, finish } = setup()
    report(10)
    await vi.advanceTimersByTimeAsync(1500)
    report(20)
    report(30)
    expect(writes).toEqual([10]) // the first write has not finished
    await finish()
    expect(writes).toEqual([10, 30])
    await finish()
    report(30)
    await vi.advanceTimersByTimeAsync(5000)
    expect(writes).toEqual([10, 30])
  })

  it('writes an urgent report (a new stage) without waiting out the interval', async () => {
    const writes: string[] = []
    const report = createProgressWriter<{ stage: string; percent: number }>({
      intervalMs: 1000,
      urgent: (previous, next) => previous?.stage !== next.stage,
      write: async (value) => {
        writes.push(`${value.stage} ${value.percent}`)
      },
    })
    report({ stage: 'voices', percent: 10 })
    await vi.advanceTimersByTimeAsync(100)
    report({ stage: 'voices', percent: 20 })
    report({ stage: 'render', percent: 30 })
    await vi.advanceTimersByTimeAsync(0)
    expect(writes).toEqual(['voices 10', 'render 30'])
  })
})
