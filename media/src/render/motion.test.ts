import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { KEN_BURNS_MAX_ZOOM, KEN_BURNS_MIN_ZOOM_CHANGE } from './config.ts'
import { kenBurnsMotion } from './motion.ts'

describe('kenBurnsMotion', () => {
  it('is the same for the same seed, within range, and visibly moving (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.integer()), (seed) => {
        const motion = kenBurnsMotion(seed)
        expect(kenBurnsMotion(seed)).toEqual(motion)
        for (const zoom of [motion.zoomFrom, motion.zoomTo]) {
          expect(zoom).toBeGreaterThanOrEqual(1)
          expect(zoom).toBeLessThanOrEqual(KEN_BURNS_MAX_ZOOM + 1e-4)
        }
        expect(Math.abs(motion.zoomTo - motion.zoomFrom)).toBeGreaterThanOrEqual(
          KEN_BURNS_MIN_ZOOM_CHANGE - 1e-4,
        )
        for (const v of [motion.panFrom.x, motion.panFrom.y, motion.panTo.x, motion.panTo.y]) {
          expect(v).toBeGreaterThanOrEqual(0.2)
          expect(v).toBeLessThanOrEqual(0.8)
        }
      }),
    )
  })

  it('pushes in for some seeds and pulls out for others', () => {
    const moves = Array.from({ length: 40 }, (_, i) => kenBurnsMotion(`s:${i}`))
    expect(moves.some((m) => m.zoomTo > m.zoomFrom)).toBe(true)
    expect(moves.some((m) => m.zoomTo < m.zoomFrom)).toBe(true)
  })
})
