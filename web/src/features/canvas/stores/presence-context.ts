import { createContext } from 'react'
import type { PresenceChannel } from '../sync/presence-channel'

/** The open project's presence channel; read it with the hooks in `use-presence.ts`. */
export const PresenceContext = createContext<PresenceChannel | null>(null)
