import type { SessionStatus } from '../stores/canvas-store'
import { useCanvasStore } from '../hooks/use-canvas-store'

/** Whether the open project is ready, refused, and its save status. */
export function useSessionStatus(): SessionStatus {
  return useCanvasStore((s) => s.session)
}
