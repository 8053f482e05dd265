import type { ProjectMember } from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import { inviteAudience, invitePath, roleNoun, sameEmail, selfMember } from './sharing'

const member = (userId: number, name: string): ProjectMember => ({
  userId,
  name,
  email: `${name.toLowerCase()}@example.com`,
  role: userId === 1 ? 'owner' : 'editor',
  joinedAt: '2026-01-01T00:00:00.000Z',
})

describe('sharing helpers', () => {
  it('builds the invitation path with the token encoded', () => {
    expect(invitePath('abc')).toBe('/invite?token=abc')
    expect(invitePath('a+b/c')).toBe('/invite?token=a%2Bb%2Fc')
  })

  it('tells who looks at an invitation', () => {
    expect(inviteAudience(null, 'ana@example.com')).toBe('signed-out')
    expect(inviteAudience({ email: 'Ana@Example.com' }, 'ana@example.com')).toBe('invited-account')
    expect(inviteAudience({ email: 'bo@example.com' }, 'ana@example.com')).toBe('other-account')
  })

  it('compares addresses without case or spaces', () => {
    expect(sameEmail(' A@B.co ', 'a@b.co')).toBe(true)
    expect(sameEmail('a@b.co', 'b@b.co')).toBe(false)
  })

  it('names the role and finds the signed-in member', () => {
    expect(roleNoun('editor')).toBe('an editor')
    expect(roleNoun('viewer')).toBe('a viewer')
    const members = [member(1, 'Ada'), member(2, 'Bo')]
    expect(selfMember(members, 2)?.name).toBe('Bo')
    expect(selfMember(members, 3)).toBeNull()
    expect(selfMember(members, null)).toBeNull()
  })
})
