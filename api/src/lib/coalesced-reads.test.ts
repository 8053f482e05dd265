import { setImmediate as nextTurn } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { CoalescedReads } from './coalesced-reads.ts'

/** A read that answers when told to, counting how often it ran. */
function gatedRead<V>() {
  let runs = 0
  const waiting: { resolve: (value: V) => void; reject: (error: Error) => void }[] = []
  return {
    read: () =>
      new Promise<V>((resolve, reject) => {
        runs++
        waiting.push({ resolve, reject })
      }),
    answer: (value: V) => waiting.shift()!.resolve(value),
    fail: (error: Error) => waiting.shift()!.reject(error),
    runs: () => runs,
  }
}

describe('CoalescedReads', () => {
  it('shares one read among the callers of a key in the same turn', async () => {
    const reads = new CoalescedReads<string>()
    const scope = {}
    const gate = gatedRead<string>()
    const first = reads.run(scope, 'k', gate.read)
    const second = reads.run(scope, 'k', gate.read)
    await nextTurn()
    expect(gate.runs()).toBe(1)
    gate.answer('v1')
    expect(await Promise.all([first, second])).toEqual(['v1', 'v1'])
  })

  it('shares reads that answer within the turn (embedded PGlite runs a query without yielding)', async () => {
    const reads = new CoalescedReads<number>()
    const scope = {}
    let runs = 0
    const read = async () => ++runs
    // Twenty callers whose work reaches the read through promise callbacks only.
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => Promise.resolve().then(() => reads.run(scope, 'k', read))),
    )
    expect(runs).toBe(1)
    expect(new Set(answers)).toEqual(new Set([1]))
  })

  it('starts a new read for a caller that asks once the read was sent, so it sees later changes', async () => {
    const reads = new CoalescedReads<string>()
    const scope = {}
    const gate = gatedRead<string>()
    const early = reads.run(scope, 'k', gate.read)
    await nextTurn()
    expect(gate.runs()).toBe(1)
    // The first read is at the database; a caller now (after a change it made) reads anew.
    const late = reads.run(scope, 'k', gate.read)
    await nextTurn()
    expect(gate.runs()).toBe(2)
    gate.answer('before the change')
    gate.answer('after the change')
    expect(await early).toBe('before the change')
    expect(await late).toBe('after the change')
  })

  it('reads apart for other keys and other scopes', async () => {
    const reads = new CoalescedReads<string>()
    const gate = gatedRead<string>()
    const a = {}
    const b = {}
    const answers = [
      reads.run(a, 'k', gate.read),
      reads.run(a, 'j', gate.read),
      reads.run(b, 'k', gate.read),
    ]
    await nextTurn()
    expect(gate.runs()).toBe(3)
    gate.answer('ak')
    gate.answer('aj')
    gate.answer('bk')
    expect(await Promise.all(answers)).toEqual(['ak', 'aj', 'bk'])
  })

  it('gives a failed read’s error to every caller that shared it, and keeps no failure', async () => {
    const reads = new CoalescedReads<string>()
    const scope = {}
    const gate = gatedRead<string>()
    const shared = [reads.run(scope, 'k', gate.read), reads.run(scope, 'k', gate.read)]
    await nextTurn()
    gate.fail(new Error('connection lost'))
    for (const read of shared) await expect(read).rejects.toThrow('connection lost')
    const retry = reads.run(scope, 'k', gate.read)
    await nextTurn()
    gate.answer('v')
    expect(await retry).toBe('v')
    expect(gate.runs()).toBe(2)
  })
})
