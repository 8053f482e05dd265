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
 * The minimap's size and its panel margin in px (React Flow's MiniMap in the bottom-right
 * corner, shown from the `sm` breakpoint): fit view keeps nodes clear of it.
 */
export const MINIMAP_SIZE = { width: 200, height: 150, margin: 15 } as const
/** Canvas width from which the minimap shows (Tailwind's `sm`). */
export const MINIMAP_MIN_CANVAS_WIDTH = 640
/** Space kept between fitted nodes and the minimap, in px. */
const OVERLAY_GAP_PX = 16

/** A box on screen, in px from the canvas' top-left. */
export interface ScreenBox {
  left: number
  top: number
  right: number
  bottom: number
}

/**
 * Where the minimap sits on a canvas of `size` (px from the canvas' top-left, with its gap
 * to the nodes), or null where it is hidden.
 */
export function minimapRect(size: { width: number; height: number }): ScreenBox | null {
  if (size.width < MINIMAP_MIN_CANVAS_WIDTH) return null
  const { width, height, margin } = MINIMAP_SIZE
  return {
    left: size.width - margin - width - OVERLAY_GAP_PX,
    top: size.height - margin - height - OVERLAY_GAP_PX,
    right: size.width - margin,
    bottom: size.height - margin,
  }
}

/** Options of {@link fitViewport}. */
export interface FitOptions {
  /** Space around the nodes in px; spec §9: 100. */
  padding?: number
  /** Px at the bottom that an overlay covers: the nodes stay above max(padding, this). */
  reserveBottom?: number
  /** Px at the right that an overlay covers: the nodes stay left of max(padding, this). */
  reserveRight?: number
}

function sizeOf(n: FitNode): { width: number; height: number } {
  return {
    width: n.measured?.width || CANVAS_ASSUMED_NODE_WIDTH,
    height: n.measured?.height || CANVAS_ASSUMED_NODE_HEIGHT,
  }
}

/**
 * The viewport that shows every node with `padding` px around them (spec §9: padding 100,
 * nodes not yet measured count as 300 x 200) and clear of the reserved edges, centred in
 * what is left, within the zoom limits. Null when there are no nodes.
 */
export function fitViewport(
  nodes: readonly FitNode[],
  size: { width: number; height: number },
  { padding = CANVAS_FIT_VIEW_PADDING_PX, reserveBottom = 0, reserveRight = 0 }: FitOptions = {},
): Viewport | null {
  if (nodes.length === 0 || size.width <= 0 || size.height <= 0) return null
  let minX = Infinity
  let minY = Infinity
  let maxX = -Infinity
  let maxY = -Infinity
  for (const n of nodes) {
    const { width: w, height: h } = sizeOf(n)
    minX = Math.min(minX, n.position.x)
    minY = Math.min(minY, n.position.y)
    maxX = Math.max(maxX, n.position.x + w)
    maxY = Math.max(maxY, n.position.y + h)
  }
  const availableW = Math.max(1, size.width - padding - Math.max(padding, reserveRight))
  const availableH = Math.max(1, size.height - padding - Math.max(padding, reserveBottom))
  const zoom = Math.min(
    CANVAS_MAX_ZOOM,
    Math.max(CANVAS_MIN_ZOOM, Math.min(availableW / (maxX - minX), availableH / (maxY - minY))),
  )
  return {
    x: padding + availableW / 2 - ((minX + maxX) / 2) * zoom,
    y: padding + availableH / 2 - ((minY + maxY) / 2) * zoom,
    zoom,
  }
}

/** True when some node, seen through `viewport`, shares area with `box`. */
function anyNodeUnder(nodes: readonly FitNode[], viewport: Viewport, box: ScreenBox): boolean {
  return nodes.some((n) => {
    const { width, height } = sizeOf(n)
    const left = n.position.x * viewport.zoom + viewport.x
    const top = n.position.y * viewport.zoom + viewport.y
    return (
      left < box.right &&
      box.left < left + width * viewport.zoom &&
      top < box.bottom &&
      box.top < top + height * viewport.zoom
    )
  })
}

/**
 * {@link fitViewport} on a canvas `size`, with no node under the minimap (issue 14 item 3:
 * it covered nodes). The plain fit when no node lands there; else the fit that keeps the
 * minimap's height free at the bottom or its width free at the right, whichever zooms out
 * less (a far zoom turns nodes compact).
 */
export function fitCanvasViewport(
  nodes: readonly FitNode[],
  size: { width: number; height: number },
): Viewport | null {
  const plain = fitViewport(nodes, size)
  const minimap = minimapRect(size)
  if (!plain || !minimap || !anyNodeUnder(nodes, plain, minimap)) return plain
  const bottom = fitViewport(nodes, size, { reserveBottom: size.height - minimap.top })
  const right = fitViewport(nodes, size, { reserveRight: size.width - minimap.left })
  if (!bottom || !right) return plain
  return right.zoom > bottom.zoom ? right : bottom
}

/** A box in flow coordinates. */
export interface FlowBox {
  x: number
  y: number
  width: number
  height: number
}

/** Screen margin kept around a result the view pans to, in px. */
export const FOLLOW_MARGIN_PX = 48

/**
 * The viewport, at the same zoom, moved as little as needed to bring `box` (flow
 * coordinates) on screen with `margin` px around it; when it is larger than the screen, its
 * top-left is shown. Null when it is on screen already (nothing to move).
 * @see issue 14 item 3 (the view follows a new result)
 */
export function panToInclude(
  viewport: Viewport,
  size: { width: number; height: number },
  box: FlowBox,
  margin = FOLLOW_MARGIN_PX,
): Viewport | null {
  const { zoom } = viewport
  const left = box.x * zoom + viewport.x
  const top = box.y * zoom + viewport.y
  const right = left + box.width * zoom
  const bottom = top + box.height * zoom
  const shift = (start: number, end: number, extent: number) => {
    if (end - start > extent - 2 * margin) return margin - start // too big: its start
    if (start < margin) return margin - start
    if (end > extent - margin) return extent - margin - end
    return 0
  }
  const dx = shift(left, right, size.width)
  const dy = shift(top, bottom, size.height)
  if (dx === 0 && dy === 0) return null
  return { x: viewport.x + dx, y: viewport.y + dy, zoom }
}

/** True when `box` (flow coordinates) is at least partly on screen. */
export function isOnScreen(
  viewport: Viewport,
  size: { width: number; height: number },
  box: FlowBox,
): boolean {
  const left = box.x * viewport.zoom + viewport.x
  const top = box.y * viewport.zoom + viewport.y
  return (
    left < size.width &&
    top < size.height &&
    left + box.width * viewport.zoom > 0 &&
    top + box.height * viewport.zoom > 0
  )
}
