import { PRESENCE_COLORS } from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import {
  colorForUser,
  initialsOf,
  parsePresenceStates,
  peopleOf,
  type RemotePresence,
  sameIds,
  sameSelections,
  selectionColors,
} from './presence'

const ada = { id: 1, name: 'Ada Lovelace', color: '#111111' }
const bob = { id: 2, name: 'Bob', color: '#222222' }

function peer(clientId: number, user = ada, selected: string[] = []): RemotePresence {
  return { clientId, user, cursor: null, selected }
}

describe('colorForUser', () => {
  it('is deterministic and from the palette, negative ids included', () => {
    expect(colorForUser(7)).toBe(colorForUser(7))
    for (const id of [0, 1, 5, 123, -3]) expect(PRESENCE_COLORS).toContain(colorForUser(id))
    expect(colorForUser(1)).not.toBe(colorForUser(2))
  })
})

describe('initialsOf', () => {
  it('takes the first and last word', () => {
    expect(initialsOf('ada king lovelace')).toBe('AL')
    expect(initialsOf('  Bob ')).toBe('B')
    expect(initialsOf('')).toBe('?')
  })
})

describe('parsePresenceStates', () => {
  it('excludes this client, skips states without a user, keeps one entry per client', () => {
    const states = new Map<number, unknown>([
      [30, { user: ada, cursor: { x: 1, y: 2 }, selected: ['a', 3, 'b'] }],
      [10, { user: bob }],
      [20, { user: ada, cursor: null }],
      [5, {}],
      [6, { user: { id: 'x', name: 'n', color: 'c' } }],
      [99, { user: bob, cursor: { x: 0, y: 0 } }],
    ])
    const peers = parsePresenceStates(states, 99)
    expect(peers.map((p) => p.clientId)).toEqual([10, 20, 30])
    expect(peers[2]).toEqual({
      clientId: 30,
      user: ada,
      cursor: { x: 1, y: 2 },
      selected: ['a', 'b'],
    })
    expect(peers[0]?.cursor).toBeNull()
    expect(peers[0]?.selected).toEqual([])
  })

  it('drops a cursor that is not two finite numbers', () => {
    const states = new Map<number, unknown>([[1, { user: ada, cursor: { x: Number.NaN, y: 1 } }]])
    expect(parsePresenceStates(states, 0)[0]?.cursor).toBeNull()
  })
})

describe('selectionColors', () => {
  it('maps node ids to the colours of who selected them, each colour once', () => {
    const map = selectionColors([
      peer(1, ada, ['a', 'b']),
      peer(2, ada, ['a']),
      peer(3, bob, ['a']),
    ])
    expect(map.get('a')).toEqual([ada.color, bob.color])
    expect(map.get('b')).toEqual([ada.color])
    expect(map.has('c')).toBe(false)
  })
})

describe('peopleOf', () => {
  it('counts a user with two tabs once, in first-seen order', () => {
    expect(peopleOf([bob, ada, bob])).toEqual([bob, ada])
  })
})

describe('sameIds', () => {
  it('compares in order', () => {
    expect(sameIds(['a', 'b'], ['a', 'b'])).toBe(true)
    expect(sameIds(['a', 'b'], ['b', 'a'])).toBe(false)
    expect(sameIds([], ['a'])).toBe(false)
  })
})

describe('sameSelections', () => {
  it('compares content', () => {
    const a = new Map([['n', ['#1']]])
    expect(sameSelections(a, new Map([['n', ['#1']]]))).toBe(true)
    expect(sameSelections(a, new Map([['n', ['#2']]]))).toBe(false)
    expect(sameSelections(a, new Map())).toBe(false)
  })
})
