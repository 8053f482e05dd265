import {
  CANVAS_ASSUMED_NODE_HEIGHT,
  CANVAS_ASSUMED_NODE_WIDTH,
  CANVAS_COMPACT_NODE_ZOOM,
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

/**
 * The view never zooms in past this when it fits the nodes or follows a result (issue 20
 * item 3): a lone node fitted at 250 % filled the screen, and the result beside it pushed
 * its generator (and the Generate button) off the canvas, under the Nodes Library. People
 * still zoom in themselves up to {@link CANVAS_MAX_ZOOM}.
 */
export const FIT_MAX_ZOOM = 1

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
/**
 * The canvas controls' toolbar (zoom, fit, reset, undo, redo) in the bottom-left corner, in
 * px: its panel margin (Tailwind's `m-3`), and its size (six 32 px buttons, the 48 px zoom
 * level, two separators, gaps and padding: 284 x 42 in Chromium), rounded up so a small
 * change to it does not let nodes slip under it.
 */
export const CONTROLS_SIZE = { width: 300, height: 42, margin: 12 } as const
/** Space kept between fitted or followed nodes and the overlays (minimap, toolbar), in px. */
export const OVERLAY_GAP_PX = 16

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

/** Where the canvas controls' toolbar sits on a canvas of `size`, with its gap to the nodes. */
export function controlsRect(size: { width: number; height: number }): ScreenBox {
  const { width, height, margin } = CONTROLS_SIZE
  return {
    left: margin,
    top: size.height - margin - height - OVERLAY_GAP_PX,
    right: margin + width + OVERLAY_GAP_PX,
    bottom: size.height - margin,
  }
}

/** The boxes that float over a canvas of `size` (the minimap where it shows, the toolbar). */
export function canvasOverlays(size: { width: number; height: number }): ScreenBox[] {
  const minimap = minimapRect(size)
  return minimap ? [minimap, controlsRect(size)] : [controlsRect(size)]
}

function sizeOf(n: FitNode): { width: number; height: number } {
  return {
    width: n.measured?.width || CANVAS_ASSUMED_NODE_WIDTH,
    height: n.measured?.height || CANVAS_ASSUMED_NODE_HEIGHT,
  }
}

/** The least room fit view keeps between the nodes and the canvas' edges, in px. */
export const FIT_MIN_MARGIN_PX = OVERLAY_GAP_PX

/**
 * The room fit view keeps around the nodes at `zoom`, in px: spec §9's padding of 100 in
 * canvas units (100 px at 100 %, less as the view zooms out, so a large graph fills the
 * canvas instead of a frame of 200 empty px: issue 42 item 5), never under
 * {@link FIT_MIN_MARGIN_PX}.
 */
export function fitMarginPx(zoom: number): number {
  return Math.min(
    CANVAS_FIT_VIEW_PADDING_PX,
    Math.max(FIT_MIN_MARGIN_PX, CANVAS_FIT_VIEW_PADDING_PX * zoom),
  )
}

/**
 * Past this many nodes fit view keeps the graph's whole box, not each node, clear of the
 * overlays: the search is quadratic in the nodes near the canvas' bottom.
 */
export const FIT_EACH_NODE_MAX = 200

/** Steps of the binary search for the fitted zoom: (1 - 0.05) / 2^14, under 0.01 %. */
const FIT_ZOOM_STEPS = 14

/** An open interval of translations, in px. */
interface Open {
  lo: number
  hi: number
}

/**
 * The point of `[lo, hi]` nearest `want` that lies in none of the open intervals `holes`
 * (touching one is allowed), or null when there is none.
 */
function nearestFree(lo: number, hi: number, want: number, holes: readonly Open[]): number | null {
  if (lo > hi) return null
  const sorted = [...holes].sort((a, b) => a.lo - b.lo)
  const merged: Open[] = []
  for (const h of sorted) {
    const last = merged[merged.length - 1]
    if (last && h.lo < last.hi) last.hi = Math.max(last.hi, h.hi)
    else merged.push({ ...h })
  }
  const p = Math.min(hi, Math.max(lo, want))
  const hole = merged.find((h) => h.lo < p && p < h.hi)
  if (!hole) return p
  const options = [hole.lo, hole.hi].filter((v) => v >= lo && v <= hi)
  if (options.length === 0) return null
  return options.reduce((a, b) => (Math.abs(b - want) < Math.abs(a - want) ? b : a))
}

/**
 * The translation nearest `want` that shows every one of `boxes` (flow coordinates) at
 * `zoom` inside a canvas of `size`, `margin` px in, without any of them sharing area with an
 * overlay (px from the canvas' top-left); null when there is none. The best x is `want`'s
 * or an edge where a box meets an overlay or the margin: each is tried, with the nearest
 * free y for it.
 */
function clearTranslation(
  boxes: readonly FlowBox[],
  zoom: number,
  size: { width: number; height: number },
  overlays: readonly ScreenBox[],
  margin: number,
  want: { x: number; y: number },
): { x: number; y: number } | null {
  const scaled = boxes.map((b) => ({
    left: b.x * zoom,
    top: b.y * zoom,
    right: (b.x + b.width) * zoom,
    bottom: (b.y + b.height) * zoom,
  }))
  const x = {
    lo: margin - Math.min(...scaled.map((b) => b.left)),
    hi: size.width - margin - Math.max(...scaled.map((b) => b.right)),
  }
  const y = {
    lo: margin - Math.min(...scaled.map((b) => b.top)),
    hi: size.height - margin - Math.max(...scaled.map((b) => b.bottom)),
  }
  if (x.lo > x.hi || y.lo > y.hi) return null
  // The translations at which a box shares area with an overlay, where they can happen.
  const blocked = scaled
    .flatMap((b) =>
      overlays.map((o) => ({
        x: { lo: o.left - b.right, hi: o.right - b.left },
        y: { lo: o.top - b.bottom, hi: o.bottom - b.top },
      })),
    )
    .filter((f) => f.x.hi > x.lo && f.x.lo < x.hi && f.y.hi > y.lo && f.y.lo < y.hi)
  const xs = [want.x, x.lo, x.hi, ...blocked.flatMap((f) => [f.x.lo, f.x.hi])].map((v) =>
    Math.min(x.hi, Math.max(x.lo, v)),
  )
  let best: { x: number; y: number } | null = null
  let bestDistance = Infinity
  for (const tx of new Set(xs)) {
    const holes = blocked.filter((f) => f.x.lo < tx && tx < f.x.hi).map((f) => f.y)
    const ty = nearestFree(y.lo, y.hi, want.y, holes)
    if (ty === null) continue
    const distance = (tx - want.x) ** 2 + (ty - want.y) ** 2
    if (distance < bestDistance) {
      best = { x: tx, y: ty }
      bestDistance = distance
    }
  }
  return best
}

/**
 * Fit view (spec §9; issue 14 item 3, issue 20 item 3, issue 42 item 5): the viewport that
 * shows every node as large as it can, up to {@link FIT_MAX_ZOOM} (100 %), inside a canvas
 * of `size` px with {@link fitMarginPx} around them, and none of them under an overlay: the
 * boxes of `overlays` (px from the canvas' top-left, with their gap; measured on the page by
 * `canvas-overlays.ts`, else the nominal minimap and toolbar of {@link canvasOverlays}). Nodes
 * may sit beside an overlay, so the graph fills the area the overlays leave free. Among the
 * places that work it takes the one nearest the graph centred on the canvas. Nodes not yet
 * measured count as 300 x 200 (spec §9); past {@link FIT_EACH_NODE_MAX} nodes their whole box
 * is kept clear instead. The largest zoom is found by a binary search; when even the minimum
 * zoom (0.05) cannot keep the nodes clear, the graph is centred at it. Null when there are
 * no nodes or no canvas.
 */
export function fitCanvasViewport(
  nodes: readonly FitNode[],
  size: { width: number; height: number },
  overlays: readonly ScreenBox[] = canvasOverlays(size),
): Viewport | null {
  if (nodes.length === 0 || size.width <= 0 || size.height <= 0) return null
  const each = nodes.map((n) => ({ x: n.position.x, y: n.position.y, ...sizeOf(n) }))
  const whole = unionBox(each)
  const boxes = each.length > FIT_EACH_NODE_MAX ? [whole] : each
  const centred = (zoom: number) => ({
    x: size.width / 2 - (whole.x + whole.width / 2) * zoom,
    y: size.height / 2 - (whole.y + whole.height / 2) * zoom,
  })
  const at = (zoom: number): Viewport | null => {
    const t = clearTranslation(boxes, zoom, size, overlays, fitMarginPx(zoom), centred(zoom))
    return t ? { ...t, zoom } : null
  }
  const top = at(FIT_MAX_ZOOM)
  if (top) return top
  let best = at(CANVAS_MIN_ZOOM)
  if (!best) return { ...centred(CANVAS_MIN_ZOOM), zoom: CANVAS_MIN_ZOOM }
  let lo = CANVAS_MIN_ZOOM
  let hi = FIT_MAX_ZOOM
  for (let step = 0; step < FIT_ZOOM_STEPS; step++) {
    const mid = (lo + hi) / 2
    const placed = at(mid)
    if (placed) {
      best = placed
      lo = mid
    } else {
      hi = mid
    }
  }
  return best
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

/** The smallest box that holds every one of `boxes` (at least one). */
export function unionBox(boxes: readonly FlowBox[]): FlowBox {
  const left = Math.min(...boxes.map((b) => b.x))
  const top = Math.min(...boxes.map((b) => b.y))
  const right = Math.max(...boxes.map((b) => b.x + b.width))
  const bottom = Math.max(...boxes.map((b) => b.y + b.height))
  return { x: left, y: top, width: right - left, height: bottom - top }
}

/** `box` (flow coordinates) on screen through `viewport`, in px from the canvas' top-left. */
export function screenBoxOf(box: FlowBox, viewport: Viewport): ScreenBox {
  return {
    left: box.x * viewport.zoom + viewport.x,
    top: box.y * viewport.zoom + viewport.y,
    right: (box.x + box.width) * viewport.zoom + viewport.x,
    bottom: (box.y + box.height) * viewport.zoom + viewport.y,
  }
}

/** True when two screen boxes share area (touching edges do not). */
export function boxesOverlap(a: ScreenBox, b: ScreenBox): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom
}

/** What the view follows (issue 14 item 3, issue 20 item 3), in flow coordinates. */
export interface FollowTarget {
  /** The new result nodes: shown whole, clear of the canvas' overlays. */
  results: readonly FlowBox[]
  /**
   * The nodes on screen they came from (the generator whose button made them): kept whole
   * on the canvas and clear of the overlays too, while both fit at
   * {@link FOLLOW_SOURCE_MIN_ZOOM} or more.
   */
  sources: readonly FlowBox[]
}

/**
 * The view keeps the node a result came from in view down to this zoom, no farther: below
 * half size a node's 14 px text is too small to read, so where the two lie farther apart
 * (a made video's Video node, some 2,000 units right of the script it is connected to) the
 * view shows the result alone.
 */
export const FOLLOW_SOURCE_MIN_ZOOM = 0.5
/** Half a pixel: a box placed flush against an edge counts as inside it. */
const PLACED_EPSILON_PX = 0.5

/** An interval of viewport translations, in px. */
interface Span {
  lo: number
  hi: number
}

/**
 * Every rectangle of viewport translations (x, y) that puts `box`, at `zoom`, inside the
 * canvas with `margin` px to its edges and clear of each overlay: one per way round the
 * overlays (left of, right of, above or below each), the empty ones left out.
 */
function placements(
  box: FlowBox,
  zoom: number,
  size: { width: number; height: number },
  overlays: readonly ScreenBox[],
  margin: number,
): { x: Span; y: Span }[] {
  const left = box.x * zoom
  const top = box.y * zoom
  const right = (box.x + box.width) * zoom
  const bottom = (box.y + box.height) * zoom
  let found = [
    {
      x: { lo: margin - left, hi: size.width - margin - right },
      y: { lo: margin - top, hi: size.height - margin - bottom },
    },
  ]
  for (const o of overlays) {
    found = found
      .flatMap((p) => [
        { x: { lo: p.x.lo, hi: Math.min(p.x.hi, o.left - right) }, y: p.y },
        { x: { lo: Math.max(p.x.lo, o.right - left), hi: p.x.hi }, y: p.y },
        { x: p.x, y: { lo: p.y.lo, hi: Math.min(p.y.hi, o.top - bottom) } },
        { x: p.x, y: { lo: Math.max(p.y.lo, o.bottom - top), hi: p.y.hi } },
      ])
      .filter((p) => p.x.lo <= p.x.hi && p.y.lo <= p.y.hi)
  }
  return found
}

const clampTo = (value: number, span: Span) => Math.min(span.hi, Math.max(span.lo, value))

/**
 * The viewport at `zoom` that places `box` as {@link placements} asks, moved as little as
 * possible from `viewport` zoomed to `zoom` about the canvas' centre; null when none does.
 */
function placeAt(
  box: FlowBox,
  zoom: number,
  viewport: Viewport,
  size: { width: number; height: number },
  overlays: readonly ScreenBox[],
  margin: number,
): Viewport | null {
  const ratio = zoom / viewport.zoom
  const cx = size.width / 2
  const cy = size.height / 2
  const anchor = { x: cx - (cx - viewport.x) * ratio, y: cy - (cy - viewport.y) * ratio }
  let best: Viewport | null = null
  let bestDistance = Infinity
  for (const p of placements(box, zoom, size, overlays, margin)) {
    const x = clampTo(anchor.x, p.x)
    const y = clampTo(anchor.y, p.y)
    const distance = (x - anchor.x) ** 2 + (y - anchor.y) ** 2
    if (distance < bestDistance) {
      best = { x, y, zoom }
      bestDistance = distance
    }
  }
  return best
}

/**
 * {@link placeAt} at `high`, else at the largest whole percent below it and not below
 * `low` where `box` can be placed; null when it cannot be at `low` either. A smaller box
 * fits wherever a larger one does, so the zooms that work are all those up to a limit:
 * a binary search finds it.
 */
function placeLargest(
  box: FlowBox,
  low: number,
  high: number,
  viewport: Viewport,
  size: { width: number; height: number },
  overlays: readonly ScreenBox[],
  margin: number,
): Viewport | null {
  const atHigh = placeAt(box, high, viewport, size, overlays, margin)
  if (atHigh) return atHigh
  let lo = Math.ceil(low * 100 - 1e-9)
  let hi = Math.ceil(high * 100 - 1e-9) - 1
  if (lo > hi) return null
  let best = placeAt(box, lo / 100, viewport, size, overlays, margin)
  if (!best) return null
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2)
    const placed = placeAt(box, mid / 100, viewport, size, overlays, margin)
    if (placed) {
      best = placed
      lo = mid
    } else {
      hi = mid - 1
    }
  }
  return best
}

/** True when every one of `boxes` is on the canvas, `margin` px in, and clear of the overlays. */
function allPlaced(
  boxes: readonly FlowBox[],
  viewport: Viewport,
  size: { width: number; height: number },
  overlays: readonly ScreenBox[],
  margin: number,
): boolean {
  const e = PLACED_EPSILON_PX
  return boxes.every((b) => {
    const s = screenBoxOf(b, viewport)
    const core = { left: s.left + e, top: s.top + e, right: s.right - e, bottom: s.bottom - e }
    return (
      core.left >= margin &&
      core.top >= margin &&
      core.right <= size.width - margin &&
      core.bottom <= size.height - margin &&
      !overlays.some((o) => boxesOverlap(core, o))
    )
  })
}

/**
 * Where the view goes to follow a new result (issue 14 item 3, issue 20 item 3), or null
 * when it can stay: the results are on the canvas (`margin` px in) clear of the overlays
 * (the minimap and the controls' toolbar: {@link canvasOverlays}) and the sources inside it,
 * clear of them too. Otherwise it moves as little as it can, never zooming in and never
 * past {@link FIT_MAX_ZOOM} (100 %), zooming out only as far as needed, to show, in this
 * order of preference:
 * 1. every result and its sources (down to {@link FOLLOW_SOURCE_MIN_ZOOM});
 * 2. the first (top-left) result and the sources (likewise);
 * 3. every result (down to `CANVAS_COMPACT_NODE_ZOOM`, where nodes turn compact);
 * 4. the first result (down to the minimum zoom).
 * A result larger than the canvas even then gets its top-left shown ({@link panToInclude}).
 * Boxes are in flow coordinates, `size` is the canvas' in px.
 */
export function followViewport(
  viewport: Viewport,
  size: { width: number; height: number },
  { results, sources }: FollowTarget,
  {
    margin = FOLLOW_MARGIN_PX,
    overlays = canvasOverlays(size),
  }: { margin?: number; overlays?: readonly ScreenBox[] } = {},
): Viewport | null {
  if (results.length === 0 || size.width <= 0 || size.height <= 0) return null
  if (
    allPlaced(results, viewport, size, overlays, margin) &&
    allPlaced(sources, viewport, size, overlays, 0)
  ) {
    return null
  }
  const top = Math.min(FIT_MAX_ZOOM, viewport.zoom)
  const first = results.reduce((a, b) => (b.y < a.y || (b.y === a.y && b.x < a.x) ? b : a))
  const attempts: { boxes: readonly FlowBox[]; low: number }[] = [
    { boxes: results, low: CANVAS_COMPACT_NODE_ZOOM },
    { boxes: [first], low: CANVAS_MIN_ZOOM },
  ]
  if (sources.length > 0) {
    attempts.unshift(
      { boxes: [...results, ...sources], low: FOLLOW_SOURCE_MIN_ZOOM },
      { boxes: [first, ...sources], low: FOLLOW_SOURCE_MIN_ZOOM },
    )
  }
  for (const { boxes, low } of attempts) {
    const box = unionBox(boxes)
    const placed = placeLargest(box, Math.min(low, top), top, viewport, size, overlays, margin)
    if (placed) return placed
  }
  return panToInclude(viewport, size, first, margin)
}
