import { describe, expect, it } from 'vitest'
import { authHref, safeNextPath } from './next-path'

describe('safeNextPath', () => {
  it('keeps same-site paths with their query and hash', () => {
    expect(safeNextPath('/invite?token=abc')).toBe('/invite?token=abc')
    expect(safeNextPath('/projects')).toBe('/projects')
    expect(safeNextPath('/?id=3#x')).toBe('/?id=3#x')
  })

  it('refuses other sites and odd forms', () => {
    for (const bad of [
      null,
      undefined,
      '',
      'https://evil.example/',
      '//evil.example/path',
      '/\\evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      'invite',
      '/\tevil',
      ' /projects',
    ]) {
      expect(safeNextPath(bad), String(bad)).toBeNull()
    }
  })

  it('never leads back to /auth', () => {
    expect(safeNextPath('/auth?next=/projects')).toBeNull()
    expect(safeNextPath('/auth/')).toBeNull()
  })

  it('normalizes dot segments without leaving the site', () => {
    expect(safeNextPath('/a/../invite?token=t')).toBe('/invite?token=t')
  })
})

describe('authHref', () => {
  it('builds the /auth link with only the given, safe parts', () => {
    expect(authHref()).toBe('/auth')
    expect(authHref({ view: 'register', next: '/invite?token=a b', email: 'a@b.co' })).toBe(
      '/auth?view=register&next=%2Finvite%3Ftoken%3Da%2520b&email=a%40b.co',
    )
    expect(authHref({ next: 'https://evil.example' })).toBe('/auth')
  })
})
