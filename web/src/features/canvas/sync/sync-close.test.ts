import { SYNC_ACCESS_CHANGED, SYNC_UPDATE_REFUSED } from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import { isUpdateRefusedClose } from './sync-close'

describe('isUpdateRefusedClose (issue 11)', () => {
  it('knows the refusal by code or by reason, and nothing else', () => {
    expect(isUpdateRefusedClose(SYNC_UPDATE_REFUSED)).toBe(true)
    expect(isUpdateRefusedClose({ code: SYNC_UPDATE_REFUSED.code, reason: '' })).toBe(true)
    // Hocuspocus' per-document close message arrives as code 1000 with the reason.
    expect(isUpdateRefusedClose({ code: 1000, reason: SYNC_UPDATE_REFUSED.reason })).toBe(true)
    expect(isUpdateRefusedClose(SYNC_ACCESS_CHANGED)).toBe(false)
    expect(isUpdateRefusedClose({ code: 1006, reason: '' })).toBe(false)
    expect(isUpdateRefusedClose(undefined)).toBe(false)
  })
})
