import { describe, expect, it } from 'vitest'
import {
  ACCESS_TOASTS,
  accessChangeToast,
  deriveCanEdit,
  INITIAL_ACCESS,
  isAccessChangedClose,
  nextAccess,
} from './access'

describe('deriveCanEdit', () => {
  it('follows the connection scope once authenticated, whatever REST said', () => {
    expect(deriveCanEdit('read-write', 'viewer')).toBe(true)
    expect(deriveCanEdit('readonly', 'owner')).toBe(false)
  })

  it('follows the REST role before the connection is authenticated', () => {
    expect(deriveCanEdit(null, 'owner')).toBe(true)
    expect(deriveCanEdit(null, 'editor')).toBe(true)
    expect(deriveCanEdit(null, 'viewer')).toBe(false)
  })

  it('stays editable when nothing is known yet (offline, local-first)', () => {
    expect(deriveCanEdit(null, null)).toBe(true)
  })
})

describe('nextAccess', () => {
  it('applies a patch and derives canEdit again', () => {
    const viewer = nextAccess(INITIAL_ACCESS, { role: 'viewer' })
    expect(viewer).toEqual({ scope: null, role: 'viewer', canEdit: false })
    const upgraded = nextAccess(viewer, { scope: 'read-write' })
    expect(upgraded).toEqual({ scope: 'read-write', role: 'viewer', canEdit: true })
    expect(nextAccess(upgraded, { scope: null }).canEdit).toBe(false)
  })
})

describe('isAccessChangedClose', () => {
  it('knows the access-changed close by code or reason', () => {
    expect(isAccessChangedClose({ code: 4205, reason: '' })).toBe(true)
    expect(isAccessChangedClose({ code: 1000, reason: 'access-changed' })).toBe(true)
    expect(isAccessChangedClose({ code: 1000, reason: 'bye' })).toBe(false)
    expect(isAccessChangedClose(undefined)).toBe(false)
  })
})

describe('accessChangeToast', () => {
  it('says nothing on a plain reconnect with the same scope', () => {
    expect(accessChangeToast(null, 'read-write', false)).toBeNull()
    expect(accessChangeToast('read-write', 'read-write', false)).toBeNull()
  })

  it('tells a person their access changed, and whether it is now view-only', () => {
    expect(accessChangeToast('read-write', 'readonly', false)).toBe(ACCESS_TOASTS.viewOnly)
    expect(accessChangeToast('readonly', 'read-write', false)).toBe(ACCESS_TOASTS.changed)
    expect(accessChangeToast('read-write', 'read-write', true)).toBe(ACCESS_TOASTS.changed)
  })
})
