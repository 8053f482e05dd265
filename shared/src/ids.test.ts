import { describe, expect, it } from 'vitest'
import { MAX_SERIAL_ID, parseSerialId, serialIdSchema } from './ids.ts'

describe('parseSerialId', () => {
  it('reads positive decimal ids up to the int4 maximum', () => {
    expect(parseSerialId('1')).toBe(1)
    expect(parseSerialId('42')).toBe(42)
    expect(parseSerialId(String(MAX_SERIAL_ID))).toBe(MAX_SERIAL_ID)
  })

  it('refuses anything else', () => {
    for (const raw of [
      '',
      '0',
      '007',
      '-1',
      '+1',
      '1.5',
      '1e3',
      ' 1',
      'abc',
      '2147483648',
      '99999999999',
    ]) {
      expect(parseSerialId(raw), raw).toBeNull()
    }
  })
})

describe('serialIdSchema (issue 14: path params through validate)', () => {
  it('answers the id as a number, and fails on what parseSerialId refuses', () => {
    expect(serialIdSchema.parse('42')).toBe(42)
    for (const raw of ['', '0', '007', '2147483648', 'abc']) {
      expect(serialIdSchema.safeParse(raw).success, raw).toBe(false)
    }
  })
})
