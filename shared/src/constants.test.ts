import { describe, expect, it } from 'vitest'
import { PRESENCE_COLORS } from './constants.ts'

/** WCAG 2 relative luminance of a `#rrggbb` colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

describe('PRESENCE_COLORS (issue 14 item 9)', () => {
  it('carry white initials at 4.5:1 or more (WCAG 1.4.3, small text)', () => {
    for (const color of PRESENCE_COLORS) {
      const contrast = (1 + 0.05) / (luminance(color) + 0.05)
      expect(contrast, color).toBeGreaterThanOrEqual(4.5)
    }
  })
})
