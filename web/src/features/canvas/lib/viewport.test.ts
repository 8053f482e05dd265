import { describe, expect, it } from 'vitest'
import {
  clampZoom,
  fitCanvasViewport,
  fitViewport,
  overlayBottomPx,
  isOnScreen,
  panToInclude,
  stepZoom,
  zoomAroundPoint,
  zoomPercent,
} from './viewport'

describe('viewport', () => {
  it('keeps zoom within 0.05 to 2.5 and steps by the button step (spec §9)', () => {
    expect(clampZoom(0.01)).toBe(0.05)
    expect(clampZoom(3)).toBe(2.5)
    expect(stepZoom(1, 0.1)).toBe(1.1)
    expect(stepZoom(0.1, -0.1)).toBe(0.05)
    expect(stepZoom(0.3, 0.05)).toBe(0.35)
    expect(zoomPercent(1.1)).toBe('110%')
  })

  it('zooms around the pointer: the flow point under it stays put', () => {
    const vp = { x: 100, y: 50, zoom: 1 }
    const point = { x: 300, y: 200 }
    const next = zoomAroundPoint(vp, point, 1.05)
    const before = { x: (point.x - vp.x) / vp.zoom, y: (point.y - vp.y) / vp.zoom }
    const after = { x: (point.x - next.x) / next.zoom, y: (point.y - next.y) / next.zoom }
    expect(after.x).toBeCloseTo(before.x)
    expect(after.y).toBeCloseTo(before.y)
  })

  it('fits the nodes with 100 px around them, unmeasured nodes counting as 300 x 200', () => {
    const vp = fitViewport([{ position: { x: 0, y: 0 } }], { width: 800, height: 600 })
    // 300 x 200 into 600 x 400: zoom 2, centred.
    expect(vp).toEqual({ x: 100, y: 100, zoom: 2 })
    const wide = fitViewport(
      [
        { position: { x: 0, y: 0 } },
        { position: { x: 5700, y: 0 }, measured: { width: 300, height: 100 } },
      ],
      { width: 800, height: 600 },
    )
    expect(wide?.zoom).toBeCloseTo(0.1)
    expect(fitViewport([], { width: 800, height: 600 })).toBeNull()
    const far = fitViewport([{ position: { x: 0, y: 0 } }, { position: { x: 1e6, y: 0 } }], {
      width: 800,
      height: 600,
    })
    expect(far?.zoom).toBe(0.05)
  })
})

describe('fitViewport clear of the overlays (issue 14 item 3: the minimap covered nodes)', () => {
  const nodes = [
    { position: { x: 0, y: 0 } },
    { position: { x: 2000, y: 900 }, measured: { width: 300, height: 200 } },
  ]
  it('keeps every node above the minimap where it shows, and pads 100 where it does not', () => {
    for (const size of [
      { width: 1280, height: 720 },
      { width: 1440, height: 900 },
      { width: 500, height: 700 },
    ]) {
      const vp = fitCanvasViewport(nodes, size)!
      const bottom = vp.y + 1100 * vp.zoom
      const right = vp.x + 2300 * vp.zoom
      expect(bottom).toBeLessThanOrEqual(
        size.height - Math.max(100, overlayBottomPx(size.width)) + 1e-6,
      )
      expect(vp.y).toBeGreaterThanOrEqual(100 - 1e-6)
      expect(vp.x).toBeGreaterThanOrEqual(100 - 1e-6)
      expect(right).toBeLessThanOrEqual(size.width - 100 + 1e-6)
    }
    expect(overlayBottomPx(1280)).toBeGreaterThan(100)
    expect(overlayBottomPx(500)).toBe(0)
  })
})

describe('panToInclude (issue 14 item 3)', () => {
  const size = { width: 1000, height: 600 }
  it('leaves the view when the box is on screen', () => {
    expect(
      panToInclude({ x: 0, y: 0, zoom: 1 }, size, { x: 100, y: 100, width: 300, height: 200 }),
    ).toBeNull()
  })
  it('moves the view as little as needed, keeping the zoom', () => {
    const next = panToInclude(
      { x: 0, y: 0, zoom: 0.5 },
      size,
      { x: 2400, y: 0, width: 300, height: 400 },
      48,
    )
    // Right edge at (2400 + 300) * 0.5 = 1350 px: left by 1350 - (1000 - 48); top 0 down to 48.
    expect(next).toEqual({ x: -398, y: 48, zoom: 0.5 })
  })
  it('shows the top-left of a box larger than the screen', () => {
    const next = panToInclude(
      { x: 0, y: 0, zoom: 1 },
      size,
      { x: -500, y: -500, width: 3000, height: 3000 },
      10,
    )
    expect(next).toEqual({ x: 510, y: 510, zoom: 1 })
  })
  it('tells a box on screen from one off it', () => {
    const view = { x: 0, y: 0, zoom: 1 }
    expect(isOnScreen(view, size, { x: 990, y: 10, width: 50, height: 50 })).toBe(true)
    expect(isOnScreen(view, size, { x: 1001, y: 10, width: 50, height: 50 })).toBe(false)
  })
})
