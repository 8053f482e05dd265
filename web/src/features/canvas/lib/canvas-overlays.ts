import { canvasOverlays, OVERLAY_GAP_PX, type ScreenBox } from './viewport'

/**
 * What floats over the canvas or covers part of it, measured on the page when the view is
 * fitted (issue 42 item 5: their boxes at run time, not guessed sizes): React Flow's minimap,
 * anything marked `data-canvas-overlay` (the canvas controls' toolbar), and the Nodes Library
 * panel where a layout puts it over the canvas.
 */
export const CANVAS_OVERLAY_SELECTOR = [
  '.react-flow__minimap',
  '[data-canvas-overlay]',
  'aside[aria-labelledby="nodes-library-title"]',
].join(', ')

/** A box on the page in px, as `getBoundingClientRect()` gives it. */
export interface PageRect {
  left: number
  top: number
  right: number
  bottom: number
}

/**
 * The part of each of `rects` (page px) that covers the canvas `canvas` (page px), as boxes
 * in px from the canvas' top-left, each grown by `gap` on every side and cut to the canvas;
 * hidden elements (no area) and those beside the canvas (touching it at most) are left out.
 */
export function overlayBoxes(
  canvas: PageRect,
  rects: readonly PageRect[],
  gap = OVERLAY_GAP_PX,
): ScreenBox[] {
  const width = canvas.right - canvas.left
  const height = canvas.bottom - canvas.top
  return (
    rects
      // Only what covers part of the canvas: a panel beside it is no overlay.
      .filter(
        (r) =>
          r.left < canvas.right &&
          canvas.left < r.right &&
          r.top < canvas.bottom &&
          canvas.top < r.bottom,
      )
      .map((r) => ({
        left: Math.max(0, r.left - canvas.left - gap),
        top: Math.max(0, r.top - canvas.top - gap),
        right: Math.min(width, r.right - canvas.left + gap),
        bottom: Math.min(height, r.bottom - canvas.top + gap),
      }))
      .filter((b) => b.right > b.left && b.bottom > b.top)
  )
}

/**
 * The overlays of the canvas whose React Flow element is `canvas` ({@link overlayBoxes} of
 * the elements {@link CANVAS_OVERLAY_SELECTOR} finds in its document); the nominal minimap and
 * toolbar ({@link canvasOverlays}) when the canvas has no size yet.
 */
export function measureCanvasOverlays(canvas: Element): ScreenBox[] {
  const rect = canvas.getBoundingClientRect()
  if (rect.width <= 0 || rect.height <= 0) return canvasOverlays(rect)
  const found = [...canvas.ownerDocument.querySelectorAll(CANVAS_OVERLAY_SELECTOR)]
  return overlayBoxes(
    rect,
    found.map((el) => el.getBoundingClientRect()),
  )
}
