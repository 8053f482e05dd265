import type { SaveStatus } from '@reelgraph/shared'
import { create } from 'zustand'

export type { SaveStatus }

interface SaveStatusState {
  status: SaveStatus
  /** "Saving changes..." shows while saving and lingers 2 s after (spec §4, §9). */
  savingIndicator: boolean
  /** Sets what changed (the open project's session calls it; nothing else writes here). */
  set: (patch: Partial<Pick<SaveStatusState, 'status' | 'savingIndicator'>>) => void
}

/**
 * The one save status of the open project (issue 14 item 1): its session writes it, the
 * header's pill and the canvas's "Saving changes..." read it. Saved, and no indicator, when
 * nothing is open.
 */
export const useSaveStatusStore = create<SaveStatusState>()((set) => ({
  status: 'saved',
  savingIndicator: false,
  set: (patch) => set(patch),
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

/** Whether "Saving changes..." shows (a narrow selector). */
export function useSavingIndicator(): boolean {
  return useSaveStatusStore((state) => state.savingIndicator)
}
