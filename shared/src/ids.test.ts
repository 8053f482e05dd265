import { describe, expect, it } from 'vitest'
import {
  assetIdSchema,
  jobIdSchema,
  MAX_SERIAL_ID,
  PROJECT_ID_MESSAGE,
  parseSerialId,
  projectIdQuerySchema,
  projectIdSchema,
  serialIdSchema,
} from './ids.ts'

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

describe('jobIdSchema and assetIdSchema (issue 14: path params through validate)', () => {
  it('accepts a UUID in either case as a job id, and nothing else', () => {
    const id = '0b0e9d5c-3f1a-4c2e-9a7b-5d6e7f8a9b0c'
    expect(jobIdSchema.parse(id)).toBe(id)
    expect(jobIdSchema.parse(id.toUpperCase())).toBe(id.toUpperCase())
    for (const raw of ['', 'not-a-job', `${id}0`, ` ${id}`, id.replaceAll('-', '')]) {
      expect(jobIdSchema.safeParse(raw).success, raw).toBe(false)
    }
  })

  it('accepts 32 lower-case base32 characters as an asset id, and nothing else', () => {
    const id = 'abcdefghijklmnopqrstuvwxyz234567'
    expect(assetIdSchema.parse(id)).toBe(id)
    for (const raw of ['', id.toUpperCase(), `${id}a`, id.slice(1), `${id.slice(1)}1`]) {
      expect(assetIdSchema.safeParse(raw).success, raw).toBe(false)
    }
  })
})

describe('projectIdSchema and projectIdQuerySchema (issue 40 item 7: one schema for every database id)', () => {
  it('accepts 1 to the int4 maximum, as a number in a body and as text in a query', () => {
    for (const id of [1, 42, MAX_SERIAL_ID]) {
      expect(projectIdSchema.parse(id)).toBe(id)
      expect(projectIdQuerySchema.parse(String(id))).toBe(id)
    }
  })

  it('refuses in words what Postgres would refuse, or what is no id at all', () => {
    for (const raw of [2 ** 31, 1e20, -1, 0, 1.5, Number.NaN, Infinity, 'abc', '42', null]) {
      const result = projectIdSchema.safeParse(raw)
      expect(result.success, String(raw)).toBe(false)
      expect(result.error?.issues[0]?.message, String(raw)).toBe(PROJECT_ID_MESSAGE)
    }
    for (const raw of ['2147483648', '1e20', '-1', '0', '1.5', ' 1', 'abc', '']) {
      const result = projectIdQuerySchema.safeParse(raw)
      expect(result.success, raw).toBe(false)
      expect(result.error?.issues[0]?.message, raw).toBe(PROJECT_ID_MESSAGE)
    }
  })
})
