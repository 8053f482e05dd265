import type { User } from '@reelgraph/shared'
import { useQuery } from '@tanstack/react-query'
import { useContext, useEffect } from 'react'
import { useStore } from 'zustand'
import { createStore } from 'zustand/vanilla'
import { QUERY_KEYS } from '@/lib/query-keys'
import type { PresenceUser, RemotePresence } from '../lib/presence'
import type { PresenceChannel, PresenceState } from '../sync/presence-channel'
import { PresenceContext } from '../stores/presence-context'

const NO_COLORS: readonly string[] = []
const EMPTY_STATE: PresenceState = { self: null, peers: [], selections: new Map() }
const EMPTY_STORE = createStore<PresenceState>(() => EMPTY_STATE)

/** The open project's presence channel, or null outside an editor. */
export function usePresenceChannel(): PresenceChannel | null {
  return useContext(PresenceContext)
}

function usePresenceState<T>(selector: (state: PresenceState) => T, fallback: T): T {
  const channel = usePresenceChannel()
  // A store that never changes stands in outside an editor (hooks run unconditionally).
  return useStore(channel?.store ?? EMPTY_STORE, channel ? selector : () => fallback)
}

/** The other clients on the project (this one excluded), one entry per tab. */
export function usePresence(): RemotePresence[] {
  return usePresenceState((s) => s.peers, EMPTY_STATE.peers)
}

/** This client's user as it is announced (name and colour). */
export function usePresenceSelf(): PresenceUser | null {
  return usePresenceState((s) => s.self, null)
}

/** The colours of the remote users who selected this node (a stable empty list if none). */
export function useRemoteSelectionColors(nodeId: string | null): readonly string[] {
  return usePresenceState((s) => (nodeId && s.selections.get(nodeId)) || NO_COLORS, NO_COLORS)
}

/** Announces the signed-in user (from the `QUERY_KEYS.user` cache) on the channel. */
export function useAnnounceUser(channel: PresenceChannel): void {
  const user = useQuery<User | null>({ queryKey: QUERY_KEYS.user, enabled: false }).data ?? null
  const id = user?.id
  const name = user?.name
  useEffect(() => {
    channel.setUser(id === undefined || name === undefined ? null : { id, name })
  }, [channel, id, name])
}
