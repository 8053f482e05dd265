import { create } from 'zustand'

/**
 * Whether the open project's changes have reached the server: `saved` (persisted),
 * `saving` (sent, not yet acknowledged), `unsaved` (local changes not yet sent, or the
 * last store failed) or `unreachable` (local changes, and the sync server has been out of
 * reach for a while, refused the connection, or the browser is offline: issue 11, never a
 * silent Unsaved). The pill reads "Not saved: can't reach the server" for the last.
 * @see spec §4 Save status, ARCHITECTURE decision 6
 */
export type SaveStatus = 'saved' | 'saving' | 'unsaved' | 'unreachable'

interface SaveStatusState {
  status: SaveStatus
  setStatus: (status: SaveStatus) => void
}

/**
 * The save-status pill's state. The canvas feeds it; the header reads it.
 * Defaults to `saved` (nothing open means nothing unsaved).
 */
export const useSaveStatusStore = create<SaveStatusState>()((set) => ({
  status: 'saved',
  setStatus: (status) => set({ status }),
}))

/** The current save status (a narrow selector, so readers re-render only when it changes). */
export function useSaveStatus(): SaveStatus {
  return useSaveStatusStore((state) => state.status)
}

/**
 * What the save-status pill (its accessible text and tooltip) and the canvas's toast say
 * while changes cannot reach the server (`unreachable`, issue 11).
 */
export const UNREACHABLE_MESSAGE = {
  title: "Not saved: can't reach the server",
  description:
    'Check your internet connection. Your changes stay on this device and are sent when the connection is back.',
} as const
