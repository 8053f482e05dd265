import { TOAST_LIMIT } from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import { reducer, type ToasterToast } from './use-toast'

const toastWith = (id: string): ToasterToast => ({ id, title: `Toast ${id}`, open: true })

describe('toast reducer', () => {
  it('shows at most one toast: a new one replaces the previous (spec §4 Toasts)', () => {
    expect(TOAST_LIMIT).toBe(1)
    let state = reducer({ toasts: [] }, { type: 'ADD_TOAST', toast: toastWith('1') })
    state = reducer(state, { type: 'ADD_TOAST', toast: toastWith('2') })
    expect(state.toasts.map((t) => t.id)).toEqual(['2'])
  })

  it('closes a dismissed toast and removes it later', () => {
    let state = reducer({ toasts: [] }, { type: 'ADD_TOAST', toast: toastWith('3') })
    state = reducer(state, { type: 'DISMISS_TOAST', toastId: '3' })
    expect(state.toasts[0]?.open).toBe(false)
    state = reducer(state, { type: 'REMOVE_TOAST', toastId: '3' })
    expect(state.toasts).toEqual([])
  })
})
