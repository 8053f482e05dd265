import { useCanvasStore } from './use-canvas-store'

/**
 * Whether this person may edit the open project: false for a viewer, by the connection's
 * scope once authenticated, else by the project's REST role (issue 6 item 1).
 */
export function useCanEdit(): boolean {
  return useCanvasStore((s) => s.access.canEdit)
}
