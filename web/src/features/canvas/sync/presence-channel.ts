import { PRESENCE_CURSOR_INTERVAL_MS } from '@reelgraph/shared'
import { createStore, type StoreApi } from 'zustand/vanilla'
import {
  colorForUser,
  parsePresenceStates,
  type PresenceCursor,
  type PresenceUser,
  type RemotePresence,
  sameIds,
  sameSelections,
  selectionColors,
} from '../lib/presence'
import { type Throttled, throttle } from '../lib/throttle'

/** What the awareness of a Yjs provider offers that presence needs (y-protocols' `Awareness`). */
export interface AwarenessLike {
  clientID: number
  getStates: () => Map<number, unknown>
  setLocalStateField: (field: string, value: unknown) => void
  on: (event: 'change', fn: () => void) => void
  off: (event: 'change', fn: () => void) => void
}

/** The remote clients, and node id -> their colours, recomputed once per awareness change. */
export interface PresenceState {
  self: PresenceUser | null
  peers: RemotePresence[]
  selections: Map<string, string[]>
}

export type PresenceStore = StoreApi<PresenceState>

/**
 * The presence of one open project (issue 6 item 2) over the provider's awareness: this
 * client's user (name and colour), cursor (flow coordinates, sent at most every
 * `PRESENCE_CURSOR_INTERVAL_MS`) and selected node ids; and a store of the others'.
 * Drags need nothing here: they already write positions to the doc every 50 ms.
 */
export class PresenceChannel {
  readonly store: PresenceStore = createStore<PresenceState>(() => ({
    self: null,
    peers: [],
    selections: new Map(),
  }))
  private awareness: AwarenessLike | null = null
  private selected: string[] = []
  private readonly cursor: Throttled<PresenceCursor | null> = throttle(
    (cursor) => this.awareness?.setLocalStateField('cursor', cursor),
    PRESENCE_CURSOR_INTERVAL_MS,
  )
  private readonly onChange = () => {
    const awareness = this.awareness
    if (!awareness) return
    const peers = parsePresenceStates(awareness.getStates(), awareness.clientID)
    // Cursors change 20 times a second; the map (and every node reading it) only with a selection.
    const selections = selectionColors(peers)
    const previous = this.store.getState().selections
    this.store.setState({
      peers,
      selections: sameSelections(selections, previous) ? previous : selections,
    })
  }

  /** Starts sharing through `awareness` (the provider's, made on each session start). */
  attach(awareness: AwarenessLike): void {
    this.detach()
    this.awareness = awareness
    awareness.on('change', this.onChange)
    const { self } = this.store.getState()
    if (self) awareness.setLocalStateField('user', self)
    awareness.setLocalStateField('selected', this.selected)
    this.onChange()
  }

  /** Stops listening (the provider's destroy tells the others this client left). */
  detach(): void {
    this.cursor.cancel()
    this.awareness?.off('change', this.onChange)
    this.awareness = null
    this.store.setState({ peers: [], selections: new Map() })
  }

  /** This client's user; the colour comes from the id. */
  setUser(user: { id: number; name: string } | null): void {
    const self = user ? { id: user.id, name: user.name, color: colorForUser(user.id) } : null
    const current = this.store.getState().self
    if (current?.id === self?.id && current?.name === self?.name) return
    this.store.setState({ self })
    this.awareness?.setLocalStateField('user', self)
  }

  /** The pointer over the canvas in flow coordinates, or null when it left (sent at once). */
  setCursor(cursor: PresenceCursor | null): void {
    if (cursor) {
      this.cursor.call(cursor)
      return
    }
    this.cursor.cancel()
    this.awareness?.setLocalStateField('cursor', null)
  }

  /** The ids of the nodes selected here; sent only when they change. */
  setSelected(ids: string[]): void {
    if (sameIds(ids, this.selected)) return
    this.selected = ids
    this.awareness?.setLocalStateField('selected', ids)
  }
}
