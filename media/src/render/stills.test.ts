import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { VIDEO_PRESETS } from './config.ts'
import { RenderError } from './errors.ts'
import { fitStill, stillCacheKey, stillSize } from './stills.ts'
import { makeTestImage } from './testing/media-fixtures.ts'

describe('fitStill', () => {
  it.each(['cover', 'contain-blur'] as const)(
    'gives a JPEG of the oversampled frame size (%s)',
    async (fit) => {
      const preset = VIDEO_PRESETS['9:16']
      const still = await fitStill(await makeTestImage(200, 1600, 1000), preset, fit)
      const meta = await sharp(still).metadata()
      expect(meta.format).toBe('jpeg')
      expect({ width: meta.width, height: meta.height }).toEqual(stillSize(preset))
      expect(meta.width).toBeGreaterThan(preset.width)
    },
  )

  it('shows the whole image with contain-blur, and crops it with cover', async () => {
    const preset = VIDEO_PRESETS['16:9']
    // A tall white image: contain-blur keeps a dark backdrop at the sides, cover fills.
    const tall = await sharp({
      create: { width: 400, height: 1200, channels: 3, background: '#ffffff' },
    })
      .png()
      .toBuffer()
    const corner = async (fit: 'cover' | 'contain-blur') => {
      const { data } = await sharp(await fitStill(tall, preset, fit))
        .extract({ left: 0, top: 0, width: 8, height: 8 })
        .raw()
        .toBuffer({ resolveWithObject: true })
      return data[0]!
    }
    expect(await corner('cover')).toBeGreaterThan(240)
    expect(await corner('contain-blur')).toBeLessThan(200)
  })

  it('refuses bytes that are not an image', async () => {
    await expect(
      fitStill(new TextEncoder().encode('not an image'), VIDEO_PRESETS['1:1'], 'cover'),
    ).rejects.toThrow(RenderError)
  })
})

describe('stillCacheKey', () => {
  it('changes with the image, the fit and the preset, and nothing else', () => {
    const key = stillCacheKey('a'.repeat(64), VIDEO_PRESETS['16:9'], 'cover')
    expect(stillCacheKey('a'.repeat(64), { ...VIDEO_PRESETS['16:9'] }, 'cover')).toBe(key)
    expect(stillCacheKey('b'.repeat(64), VIDEO_PRESETS['16:9'], 'cover')).not.toBe(key)
    expect(stillCacheKey('a'.repeat(64), VIDEO_PRESETS['16:9'], 'contain-blur')).not.toBe(key)
    expect(stillCacheKey('a'.repeat(64), VIDEO_PRESETS['1:1'], 'cover')).not.toBe(key)
  })
})
