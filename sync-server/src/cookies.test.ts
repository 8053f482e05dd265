import { describe, expect, it } from 'vitest'
import { readCookie } from './cookies.ts'

describe('readCookie', () => {
  it('finds a cookie among others, percent-decoded and unquoted', () => {
    expect(readCookie('a=1; session=abc.def; b=2', 'session')).toBe('abc.def')
    expect(readCookie('session=%61bc', 'session')).toBe('abc')
    expect(readCookie('session="abc"', 'session')).toBe('abc')
    expect(readCookie('__Host-session=x; session=y', '__Host-session')).toBe('x')
  })

  it('answers undefined for a missing header, a missing cookie or a malformed value', () => {
    expect(readCookie(null, 'session')).toBeUndefined()
    expect(readCookie('', 'session')).toBeUndefined()
    expect(readCookie('sessions=abc; xsession=abc', 'session')).toBeUndefined()
    expect(readCookie('session=%E0%A4%A', 'session')).toBeUndefined()
  })
})
