import type { CanvasEdge } from './node-types'

/**
 * Connections as assistive technology meets them (issue 14 item 9): named by the labels of
 * the nodes they join ("Connection from Script Generator to Generated Script"), never by
 * internal ids, and in the Tab order only while selected (React Flow's `focusable`, with
 * `edgesFocusable` off on the canvas), so Tab goes from node to node. Pure; the canvas's
 * `useAccessibleEdges` keeps the objects stable between renders
 * (`createAccessibleEdges`).
 */

/** "Connection from <source label> to <target label>" (a missing label reads "a node"). */
export function connectionLabel(sourceLabel: string | undefined, targetLabel: string | undefined) {
  return `Connection from ${sourceLabel || 'a node'} to ${targetLabel || 'a node'}`
}

/** Memory between calls: the derived edge of each store edge, by object identity. */
export type EdgeA11yCache = WeakMap<CanvasEdge, CanvasEdge>

/**
 * The edges to draw: each store edge with its `ariaLabel` from `labelOf` (node id -> label)
 * and `focusable` equal to its selection. An edge whose derived fields did not change is the
 * object returned last time (from `cache`); when every edge is, `previous` itself comes back,
 * so React Flow sees no change.
 */
export function accessibleEdges(
  edges: readonly CanvasEdge[],
  labelOf: (nodeId: string) => string | undefined,
  cache: EdgeA11yCache,
  previous: readonly CanvasEdge[] | null,
): CanvasEdge[] {
  let same = previous !== null && previous.length === edges.length
  const next = edges.map((edge, i) => {
    const ariaLabel = connectionLabel(labelOf(edge.source), labelOf(edge.target))
    const focusable = edge.selected === true
    const cached = cache.get(edge)
    const derived =
      cached && cached.ariaLabel === ariaLabel && cached.focusable === focusable
        ? cached
        : { ...edge, ariaLabel, focusable }
    cache.set(edge, derived)
    if (same && previous?.[i] !== derived) same = false
    return derived
  })
  return same && previous ? (previous as CanvasEdge[]) : next
}

/**
 * {@link accessibleEdges} with its memory held inside: each call after the first reuses the
 * objects (and the array) of the one before. One per canvas.
 */
export function createAccessibleEdges(): (
  edges: readonly CanvasEdge[],
  labelOf: (nodeId: string) => string | undefined,
) => CanvasEdge[] {
  const cache: EdgeA11yCache = new WeakMap()
  let previous: CanvasEdge[] | null = null
  return (edges, labelOf) => {
    previous = accessibleEdges(edges, labelOf, cache, previous)
    return previous
  }
}
