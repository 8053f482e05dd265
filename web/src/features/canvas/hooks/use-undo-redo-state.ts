import { useShallow } from 'zustand/shallow'
import { useCanvasStore } from './use-canvas-store'

/** Whether there is something of this person's to undo and to redo. */
export function useUndoRedoState(): { canUndo: boolean; canRedo: boolean } {
  return useCanvasStore(useShallow((s) => ({ canUndo: s.canUndo, canRedo: s.canRedo })))
}
