import { describe, expect, it } from 'vitest'
import { initialsOf } from './utils'

describe('initialsOf', () => {
  it('takes the first letters of the first and last words', () => {
    expect(initialsOf('Ada Lovelace')).toBe('AL')
    expect(initialsOf('  grace   brewster murray hopper ')).toBe('GH')
  })

  it('takes one letter from a one-word name', () => {
    expect(initialsOf('Plato')).toBe('P')
  })

  it('falls back to "U" without a name (spec §2 Header)', () => {
    expect(initialsOf('')).toBe('U')
    expect(initialsOf('   ')).toBe('U')
    expect(initialsOf(null)).toBe('U')
    expect(initialsOf(undefined)).toBe('U')
  })
})
