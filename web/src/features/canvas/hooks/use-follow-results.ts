import { NODE_FOOTPRINTS } from '@reelgraph/shared'
import { useReactFlow, useStore } from '@xyflow/react'
import { useEffect } from 'react'
import type { CanvasNode } from '../lib/node-types'
import { type FlowBox, isOnScreen, panToInclude } from '../lib/viewport'
import { useCanvasStoreApi } from './use-canvas-store'

/** How long the view takes to pan to a new result, in ms: quick, but followable by eye. */
export const FOLLOW_PAN_MS = 400

function boxOf(node: CanvasNode): FlowBox {
  const size = NODE_FOOTPRINTS[node.type]
  return {
    x: node.position.x,
    y: node.position.y,
    width: node.measured?.width ?? size.width,
    height: node.measured?.height ?? size.height,
  }
}

function union(boxes: readonly FlowBox[]): FlowBox {
  const left = Math.min(...boxes.map((b) => b.x))
  const top = Math.min(...boxes.map((b) => b.y))
  const right = Math.max(...boxes.map((b) => b.x + b.width))
  const bottom = Math.max(...boxes.map((b) => b.y + b.height))
  return { x: left, y: top, width: right - left, height: bottom - top }
}

/**
 * The view follows a new result (issue 14 item 3): when nodes appear off screen, or cut by
 * its edge, that are connected to a node on screen (a generation's result beside its generator, a made video's
 * next step), the view pans, animated and at the same zoom, as little as needed to show
 * them (their top-left when they do not fit). Nodes that appear unconnected (another person's additions), or while this
 * person is dragging, never move the view.
 */
export function useFollowResults(): void {
  const store = useCanvasStoreApi()
  const { getViewport, setViewport } = useReactFlow()
  const width = useStore((s) => s.width)
  const height = useStore((s) => s.height)

  useEffect(() => {
    const known = new Set(store.getState().nodes.map((n) => n.id))
    return store.subscribe((state, previous) => {
      if (state.nodes === previous.nodes) return
      const fresh = state.nodes.filter((n) => !known.has(n.id))
      for (const n of fresh) known.add(n.id)
      if (fresh.length === 0 || width === 0 || height === 0) return
      if (state.nodes.some((n) => n.dragging)) return
      const size = { width, height }
      const viewport = getViewport()
      const freshIds = new Set(fresh.map((n) => n.id))
      const byId = new Map(state.nodes.map((n) => [n.id, n]))
      const results = fresh.filter((n) =>
        state.edges.some((e) => {
          const other = e.target === n.id ? e.source : e.source === n.id ? e.target : null
          if (other === null || freshIds.has(other)) return false
          const node = byId.get(other)
          return node !== undefined && isOnScreen(viewport, size, boxOf(node))
        }),
      )
      if (results.length === 0) return
      // All of them when they fit on screen, else the first (top-left) of them.
      const next = panToInclude(viewport, size, union(results.map(boxOf)))
      if (next) void setViewport(next, { duration: FOLLOW_PAN_MS })
    })
  }, [store, getViewport, setViewport, width, height])
}
