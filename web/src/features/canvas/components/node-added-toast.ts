import { NODE_TITLES, type NodeType } from '@reelgraph/shared'
import { toast } from '@/hooks/use-toast'
import { CANVAS_TOASTS } from '../lib/canvas-messages'

/** "Node Added" (spec §4), naming what was added. */
export function toastNodeAdded(type: NodeType): void {
  toast({ ...CANVAS_TOASTS.nodeAdded, description: `${NODE_TITLES[type]} added to the canvas` })
}
