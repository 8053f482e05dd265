import { describe, expect, it } from 'vitest'
import { syncUrl } from './sync-url'

describe('syncUrl', () => {
  it('uses the page origin, wss on https', () => {
    expect(syncUrl({ protocol: 'https:', host: 'app.example.com' })).toBe(
      'wss://app.example.com/sync',
    )
    expect(syncUrl({ protocol: 'http:', host: 'localhost:3100' })).toBe('ws://localhost:3100/sync')
  })
})
