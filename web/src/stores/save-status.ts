import { create } from 'zustand'

/**
 * Whether the open project's changes have reached the server: `saved` (persisted),
 * `saving` (sent, not yet acknowledged) or `unsaved` (local changes, including offline).
 * @see spec §4 Save status, ARCHITECTURE decision 6
 */
export type SaveStatus = 'saved' | 'saving' | 'unsaved'

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
