import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { DOCUMENT_RESERVATION_BYTES, HEAP_REFUSE_HEADROOM_BYTES } from '../config.ts'
import {
  defaultMemoryBudgetBytes,
  heapRefusalThresholdBytes,
  MemoryBudget,
} from './memory-budget.ts'

const MiB = 1024 * 1024
const roomyHeap = () => ({ used: 100 * MiB, limit: 4096 * MiB })

describe('MemoryBudget (issue 23 item 2)', () => {
  it('reserves room while a document loads and counts it at its estimate once loaded', () => {
    const budget = new MemoryBudget({ limitBytes: 3.5 * MiB, heap: roomyHeap })
    expect(budget.reserve('1')).toBeNull()
    expect(budget.usedBytes).toBe(DOCUMENT_RESERVATION_BYTES)
    budget.set('1', 100_000)
    expect(budget.usedBytes).toBe(MemoryBudget.costOf(100_000))
    expect(budget.reserve('2')).toBeNull()
    budget.set('2', 100_000)
    // A third would pass the budget: refused, nothing reserved.
    expect(budget.reserve('3')).toBe('memory')
    expect(budget.usedBytes).toBe(2 * MemoryBudget.costOf(100_000))
    budget.delete('1')
    expect(budget.reserve('3')).toBeNull()
  })

  it('reserves what the open documents cost on average when that is more, so the estimate stays within the budget', () => {
    const budget = new MemoryBudget({ limitBytes: 19 * MiB, heap: roomyHeap })
    const encoded = 340_000 // about 2.95 MB each: more than the fixed reservation
    let open = 0
    for (let i = 0; i < 20; i++) {
      if (budget.reserve(String(i)) !== null) break
      budget.set(String(i), encoded)
      open += 1
      expect(budget.usedBytes).toBeLessThanOrEqual(budget.limitBytes)
    }
    expect(open).toBe(Math.floor((19 * MiB) / MemoryBudget.costOf(encoded)))
  })

  it('gives back what reclaimers can before refusing, and refuses while the heap is nearly full', () => {
    let heap = roomyHeap()
    const budget = new MemoryBudget({ limitBytes: 5 * MiB, heap: () => heap })
    budget.set('copy-a', 200_000)
    budget.set('copy-b', 200_000)
    const copies = ['copy-a', 'copy-b']
    budget.addReclaimer(() => {
      const key = copies.shift()
      if (key) budget.delete(key)
      return key !== undefined
    })
    expect(budget.reserve('doc')).toBeNull()
    expect(copies).toEqual(['copy-b'])
    heap = { used: 3900 * MiB, limit: 4096 * MiB }
    budget.delete('doc')
    expect(budget.refusal()).toBe('heap')
  })

  it("keeps the headroom at least V8's young generation reserve, which the heap limit counts", () => {
    // A process whose old generation (where a heap-out-of-memory happens) is 160 MiB.
    const limit = Number(
      execFileSync(
        process.execPath,
        [
          '--max-old-space-size=160',
          '-e',
          'process.stdout.write(String(require("node:v8").getHeapStatistics().heap_size_limit))',
        ],
        { encoding: 'utf8' },
      ),
    )
    const youngReserve = limit - 160 * MiB
    expect(youngReserve).toBeGreaterThan(0)
    expect(youngReserve).toBeLessThanOrEqual(HEAP_REFUSE_HEADROOM_BYTES)
  })

  it('defaults to half the heap limit, and on a small heap to less than where the heap refusal starts', () => {
    // Node 24's default heap here: half of it (decision 012).
    expect(defaultMemoryBudgetBytes({ used: 0, limit: 4288 * MiB })).toBe(2144 * MiB)
    // --max-old-space-size=160 (a limit of 352 MiB): half would be past the old generation.
    const small = defaultMemoryBudgetBytes({ used: 0, limit: 352 * MiB })
    expect(small).toBeLessThan(heapRefusalThresholdBytes(352 * MiB))
    expect(small).toBeLessThan(160 * MiB)
  })

  it('refuses for the heap on a small heap before its old generation is full', () => {
    // A 160 MiB old generation: the limit reads 352 MiB, 85% of which (299 MiB) it never reaches.
    const budget = new MemoryBudget({
      limitBytes: 1024 * MiB,
      heap: () => ({ used: 120 * MiB, limit: 352 * MiB }),
    })
    expect(budget.refusal()).toBe('heap')
  })
})
