import type { CanvasNode } from '../lib/node-types'
import { useCanvasStore } from './use-canvas-store'

/** React Flow's nodes of the open project. */
export function useCanvasNodes(): CanvasNode[] {
  return useCanvasStore((s) => s.nodes)
}
