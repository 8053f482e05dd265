import {
  CANVAS_ASSUMED_NODE_HEIGHT,
  CANVAS_ASSUMED_NODE_WIDTH,
  CANVAS_FIT_VIEW_PADDING_PX,
  CANVAS_MAX_ZOOM,
  CANVAS_MIN_ZOOM,
} from '@reelgraph/shared'

/** React Flow's viewport: the flow-to-screen translation and zoom. */
export interface Viewport {
  x: number
  y: number
  zoom: number
}

/** A zoom kept within 0.05 to 2.5 (spec §9), rounded to 2 decimals so steps add up. */
export function clampZoom(zoom: number): number {
  const z = Math.min(CANVAS_MAX_ZOOM, Math.max(CANVAS_MIN_ZOOM, zoom))
  return Math.round(z * 100) / 100
}

/** The zoom one step in (`+step`) or out (`-step`) from `zoom`. */
export function stepZoom(zoom: number, step: number): number {
  return clampZoom(zoom + step)
}

/** The zoom as the controls show it: "100%". */
export function zoomPercent(zoom: number): string {
  return `${Math.round(zoom * 100)}%`
}

/**
 * The viewport at `zoom` that keeps the flow point under the screen `point` (relative to
 * the canvas' top-left) where it is: wheel zoom around the pointer.
 */
export function zoomAroundPoint(
  viewport: Viewport,
  point: { x: number; y: number },
  zoom: number,
): Viewport {
  const next = clampZoom(zoom)
  const ratio = next / viewport.zoom
  return {
    x: point.x - (point.x - viewport.x) * ratio,
    y: point.y - (point.y - viewport.y) * ratio,
    zoom: next,
  }
}

/** A node as fit view sees it: its position and, once measured, its size. */
export interface FitNode {
  position: { x: number; y: number }
  measured?: { width?: number | undefined; height?: number | undefined } | undefined
}

/**
 * The viewport that shows every node with `padding` px around them (spec §9: padding 100,
 * nodes not yet measured count as 300 x 200), centred, within the zoom limits. Null when
 * there are no nodes.
 */
export function fitViewport(
  nodes: readonly FitNode[],
  size: { width: number; height: number },
  padding = CANVAS_FIT_VIEW_PADDING_PX,
): Viewport | null {
  if (nodes.length === 0 || size.width <= 0 || size.height <= 0) return null
  let minX = Infinity
  let minY = Infinity
  let maxX = -Infinity
  let maxY = -Infinity
  for (const n of nodes) {
    const w = n.measured?.width || CANVAS_ASSUMED_NODE_WIDTH
    const h = n.measured?.height || CANVAS_ASSUMED_NODE_HEIGHT
    minX = Math.min(minX, n.position.x)
    minY = Math.min(minY, n.position.y)
    maxX = Math.max(maxX, n.position.x + w)
    maxY = Math.max(maxY, n.position.y + h)
  }
  const availableW = Math.max(1, size.width - 2 * padding)
  const availableH = Math.max(1, size.height - 2 * padding)
  const zoom = Math.min(
    CANVAS_MAX_ZOOM,
    Math.max(CANVAS_MIN_ZOOM, Math.min(availableW / (maxX - minX), availableH / (maxY - minY))),
  )
  const cx = (minX + maxX) / 2
  const cy = (minY + maxY) / 2
  return { x: size.width / 2 - cx * zoom, y: size.height / 2 - cy * zoom, zoom }
}
