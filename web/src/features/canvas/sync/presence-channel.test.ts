import { describe, expect, it } from 'vitest'
import { type AwarenessLike, PresenceChannel } from './presence-channel'

function fakeAwareness(clientID: number) {
  const states = new Map<number, Record<string, unknown>>([[clientID, {}]])
  const listeners = new Set<() => void>()
  const awareness: AwarenessLike & { states: typeof states; emit: () => void } = {
    clientID,
    states,
    getStates: () => states,
    setLocalStateField(field, value) {
      states.set(clientID, { ...states.get(clientID), [field]: value })
      awareness.emit()
    },
    on: (_e, fn) => void listeners.add(fn),
    off: (_e, fn) => void listeners.delete(fn),
    emit: () => {
      for (const fn of listeners) fn()
    },
  }
  return awareness
}

describe('PresenceChannel', () => {
  it('announces the user with a colour from the id, and the selection when it changes', () => {
    const channel = new PresenceChannel()
    const awareness = fakeAwareness(1)
    channel.setUser({ id: 3, name: 'Ada' })
    channel.attach(awareness)
    expect(awareness.states.get(1)?.user).toMatchObject({ id: 3, name: 'Ada' })
    channel.setSelected(['n1'])
    expect(awareness.states.get(1)?.selected).toEqual(['n1'])
  })

  it('keeps the remote clients and their selections, not itself', () => {
    const channel = new PresenceChannel()
    const awareness = fakeAwareness(1)
    channel.attach(awareness)
    awareness.states.set(2, { user: { id: 9, name: 'Bob', color: '#000' }, selected: ['n1'] })
    awareness.emit()
    const { peers, selections } = channel.store.getState()
    expect(peers.map((p) => p.clientId)).toEqual([2])
    expect(selections.get('n1')).toEqual(['#000'])
    awareness.states.set(2, { ...awareness.states.get(2), cursor: { x: 1, y: 1 } })
    awareness.emit()
    expect(channel.store.getState().selections).toBe(selections)
    channel.detach()
    expect(channel.store.getState().peers).toEqual([])
  })

  it('clears the cursor at once when the pointer leaves', () => {
    const channel = new PresenceChannel()
    const awareness = fakeAwareness(1)
    channel.attach(awareness)
    channel.setCursor({ x: 1, y: 2 })
    expect(awareness.states.get(1)?.cursor).toEqual({ x: 1, y: 2 })
    channel.setCursor({ x: 5, y: 5 })
    channel.setCursor(null)
    expect(awareness.states.get(1)?.cursor).toBeNull()
    channel.detach()
  })
})
