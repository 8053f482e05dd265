import { describe, expect, it } from 'vitest'
import { assetIdOf } from './timeline-api'

describe('assetIdOf', () => {
  it('reads the id of an asset URL the server handed out', () => {
    expect(assetIdOf('/api/assets/abcdefghijklmnopqrstuvwxyz234567')).toBe(
      'abcdefghijklmnopqrstuvwxyz234567',
    )
  })

  it('is null for anything else, so nothing else is fetched', () => {
    expect(assetIdOf(null)).toBeNull()
    expect(assetIdOf('/api/assets/abc')).toBeNull()
    expect(assetIdOf('https://example.com/api/assets/abcdefghijklmnopqrstuvwxyz234567')).toBeNull()
    expect(assetIdOf('/api/assets/abcdefghijklmnopqrstuvwxyz234567?download=1')).toBeNull()
  })
})
