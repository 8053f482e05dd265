import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { VIDEO_PRESETS, type PresetName } from './config.ts'
import { DEFAULT_SUBTITLE_STYLE, renderSubtitleImage, subtitleBand } from './subtitle-images.ts'

describe.each(Object.keys(VIDEO_PRESETS) as PresetName[])('subtitles at %s', (name) => {
  const preset = VIDEO_PRESETS[name]

  it('lie in an even, full-width band at the bottom', () => {
    const band = subtitleBand(preset)
    expect(band.x).toBe(0)
    expect(band.width).toBe(preset.width)
    expect(band.y + band.height).toBe(preset.height)
    expect(band.y % 2).toBe(0)
    expect(band.height % 2).toBe(0)
  })

  it('render as a band-sized PNG, transparent around the text box', async () => {
    const png = await renderSubtitleImage(
      ['A caption with <markup> & ampersands,', 'on two lines'],
      preset,
      DEFAULT_SUBTITLE_STYLE,
    )
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true })
    const band = subtitleBand(preset)
    expect([info.width, info.height, info.channels]).toEqual([band.width, band.height, 4])
    const alpha = (x: number, y: number) => data[(y * info.width + x) * 4 + 3]!
    expect(alpha(0, 0)).toBe(0)
    expect(alpha(info.width - 1, info.height - 1)).toBe(0)
    let opaque = 0
    for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) opaque++
    expect(opaque).toBeGreaterThan(1000)
  })
})

describe('renderSubtitleImage', () => {
  it('gives an empty band for blank lines and refuses bad colours', async () => {
    const preset = VIDEO_PRESETS['16:9']
    const { data } = await sharp(await renderSubtitleImage(['  '], preset, DEFAULT_SUBTITLE_STYLE))
      .raw()
      .toBuffer({ resolveWithObject: true })
    expect(data.every((v, i) => i % 4 !== 3 || v === 0)).toBe(true)
    await expect(
      renderSubtitleImage(['x'], preset, { ...DEFAULT_SUBTITLE_STYLE, color: 'red' }),
    ).rejects.toThrow(RangeError)
  })

  it('shrinks text that would not fit the band', async () => {
    const preset = VIDEO_PRESETS['1:1']
    const lines = Array.from({ length: 12 }, (_, i) => `line ${i} of a very long caption`)
    const png = await renderSubtitleImage(lines, preset, DEFAULT_SUBTITLE_STYLE)
    const meta = await sharp(png).metadata()
    expect([meta.width, meta.height]).toEqual([preset.width, subtitleBand(preset).height])
  })
})
