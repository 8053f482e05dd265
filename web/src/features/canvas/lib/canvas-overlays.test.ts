import { describe, expect, it } from 'vitest'
import { overlayBoxes } from './canvas-overlays'
import { fitCanvasViewport, OVERLAY_GAP_PX, screenBoxOf } from './viewport'

describe('overlayBoxes: the measured overlays of the canvas (issue 42 item 5)', () => {
  // The canvas at 1280x720: right of the 256 px library, under 150 px of headers.
  const canvas = { left: 256, top: 150, right: 1280, bottom: 720 }
  const g = OVERLAY_GAP_PX

  it('turns page boxes into canvas boxes with their gap, cut to the canvas, and drops the rest', () => {
    const minimap = { left: 1065, top: 555, right: 1265, bottom: 705 }
    const toolbar = { left: 268, top: 666, right: 552, bottom: 708 }
    const library = { left: 0, top: 150, right: 256, bottom: 720 }
    const hidden = { left: 0, top: 0, right: 0, bottom: 0 }
    // Each grown by the gap and cut to the canvas (the toolbar is 12 px from its edges).
    expect(overlayBoxes(canvas, [minimap, toolbar, library, hidden])).toEqual([
      { left: 809 - g, top: 405 - g, right: 1024, bottom: 570 },
      { left: 0, top: 516 - g, right: 296 + g, bottom: 570 },
    ])
    // A panel over the canvas' left edge covers what it covers.
    expect(overlayBoxes(canvas, [{ left: 0, top: 150, right: 400, bottom: 720 }], 0)).toEqual([
      { left: 0, top: 0, right: 144, bottom: 570 },
    ])
  })

  it('lets fit view use what it measured: a wider toolbar pushes the nodes above it', () => {
    const size = { width: 1024, height: 570 }
    // A row of nodes as wide as the canvas.
    const nodes = [0, 1, 2, 3].map((i) => ({
      position: { x: i * 350, y: 0 },
      measured: { width: 300, height: 200 },
    }))
    const wideToolbar = overlayBoxes(canvas, [{ left: 256, top: 300, right: 1280, bottom: 720 }])
    const vp = fitCanvasViewport(nodes, size, wideToolbar)!
    for (const n of nodes) {
      const box = screenBoxOf({ ...n.position, ...n.measured }, vp)
      expect(box.bottom).toBeLessThanOrEqual(wideToolbar[0]!.top + 1e-6)
    }
    expect(vp.zoom).toBeLessThan(fitCanvasViewport(nodes, size, [])!.zoom)
  })
})
