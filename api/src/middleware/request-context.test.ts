import { describe, expect, it } from 'vitest'
import { loggedPath } from './request-context.ts'

describe('loggedPath', () => {
  it('never logs the secret of an invitation link', () => {
    expect(loggedPath('/api/invitations/abcdefghijklmnopqrstuvwxyz234567')).toBe(
      '/api/invitations/:token',
    )
    expect(loggedPath('/api/invitations/accept')).toBe('/api/invitations/accept')
    expect(loggedPath('/api/projects/7/invitations/3')).toBe('/api/projects/7/invitations/3')
  })
})
