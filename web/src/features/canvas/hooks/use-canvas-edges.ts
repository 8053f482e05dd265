import type { CanvasEdge } from '../lib/node-types'
import { useCanvasStore } from './use-canvas-store'

/** React Flow's edges (the connections) of the open project. */
export function useCanvasEdges(): CanvasEdge[] {
  return useCanvasStore((s) => s.edges)
}
