import type { NodeType } from '@reelgraph/shared'
import type { NodeDataOf } from '../lib/node-types'
import { useCanvasStore } from './use-canvas-store'

/**
 * One node's data, straight from the canvas store (same tick as the doc), for the fields
 * inside a node; undefined once the node is gone.
 */
export function useNodeData<T extends NodeType>(id: string, _type: T): NodeDataOf<T> | undefined {
  return useCanvasStore((s) => s.dataById.get(id)) as NodeDataOf<T> | undefined
}
