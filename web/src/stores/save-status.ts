import type { SaveStatus } from '@reelgraph/shared'
import { create } from 'zustand'

export type { SaveStatus }

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
