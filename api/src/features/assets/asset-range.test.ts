import { describe, expect, it } from 'vitest'
import { parseRange, RANGE_CHUNK_MAX_BYTES } from './asset-routes.ts'

describe('parseRange (issue 13 item 4: a video seeks)', () => {
  it('reads one range, a suffix, and an open end up to a chunk', () => {
    expect(parseRange('bytes=100-199', 1000)).toEqual({ start: 100, end: 199 })
    expect(parseRange('bytes=900-5000', 1000)).toEqual({ start: 900, end: 999 })
    expect(parseRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 })
    expect(parseRange('bytes=10-', 1000)).toEqual({ start: 10, end: 999 })
    const big = RANGE_CHUNK_MAX_BYTES * 3
    expect(parseRange('bytes=0-', big)).toEqual({ start: 0, end: RANGE_CHUNK_MAX_BYTES - 1 })
  })

  it('answers the whole for no, several or malformed ranges; unsatisfiable past the end', () => {
    expect(parseRange(undefined, 1000)).toBeNull()
    expect(parseRange('bytes=0-1,5-6', 1000)).toBeNull()
    expect(parseRange('items=0-1', 1000)).toBeNull()
    expect(parseRange('bytes=1000-', 1000)).toBe('unsatisfiable')
    expect(parseRange('bytes=5-4', 1000)).toBe('unsatisfiable')
    expect(parseRange('bytes=-0', 1000)).toBe('unsatisfiable')
  })
})
