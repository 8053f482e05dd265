import { describe, expect, it } from 'vitest'
import { formatStorageSize } from './storage.ts'

describe('formatStorageSize (issue 40 item 5)', () => {
  const MIB = 1024 ** 2
  const GIB = 1024 ** 3
  it('reads as people read sizes: GB with one decimal, MB whole from 10 MB, one decimal below', () => {
    expect(formatStorageSize(0)).toBe('0 MB')
    expect(formatStorageSize(1)).toBe('0.1 MB')
    expect(formatStorageSize(0.44 * MIB)).toBe('0.4 MB')
    expect(formatStorageSize(120 * MIB)).toBe('120 MB')
    expect(formatStorageSize(GIB)).toBe('1 GB')
    expect(formatStorageSize(1.1 * GIB)).toBe('1.1 GB')
  })
  it('rounds up when asked, so a total just past a quota never reads as the quota', () => {
    expect(formatStorageSize(GIB + 1, 'up')).toBe('1.1 GB')
    expect(formatStorageSize(GIB + 1)).toBe('1 GB')
    expect(formatStorageSize(MIB + 1, 'up')).toBe('1.1 MB')
    expect(formatStorageSize(10 * MIB + 1, 'up')).toBe('11 MB')
  })
})
