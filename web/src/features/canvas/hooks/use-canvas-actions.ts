import type { CanvasActions } from '../stores/canvas-store'
import { useCanvasStore } from './use-canvas-store'

/** The canvas actions (stable: never re-renders the caller). */
export function useCanvasActions(): CanvasActions {
  return useCanvasStore((s) => s.actions)
}
