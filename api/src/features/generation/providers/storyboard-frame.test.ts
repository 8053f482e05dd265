import { SUBTITLE_BAND_FRACTION } from '@reelgraph/media'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { rasterize } from './builtin-image.ts'
import { artNames, OWN_ART, storyboardArt } from './storyboard-art.ts'
import { composeFrame, OFFLINE_MARK, type StoryboardFrame, textEm } from './storyboard-frame.ts'
import { frameSvg } from './storyboard-svg.ts'

/** Issue 20 item 4: the builtin storyboard frame is a picture, not a card of text. */

const NIGHT_LIGHTHOUSE =
  'Wide shot of a lighthouse on a rocky headland at night, its beam sweeping over the sea as a ship passes'
const SUNSET_PERSON = 'Close-up of a person at sunset, warm light on their face'
const SHIPS_WHEEL = "Detail shot of a ship's wheel, a sailor's hands gripping the spokes"
const PRESENTER =
  'Medium shot of the presenter in a flowering garden, a screen behind them showing the title "How Honeybees Make Honey", filmed at eye level in soft natural light; they explain: let\'s talk about how honeybees make honey.'

const PRESETS: [number, number][] = [
  [1920, 1080],
  [1080, 1920],
  [1080, 1080],
]

async function rawPixels(frame: StoryboardFrame): Promise<Buffer> {
  const png = await rasterize(frameSvg(frame, await storyboardArt()), frame.width, frame.height)
  return sharp(png).raw().toBuffer()
}

/** The frame's rows from `fromRow` down, as raw RGBA bytes. */
function rowsFrom(raw: Buffer, frame: StoryboardFrame, fromRow: number): Buffer {
  const rowBytes = raw.length / frame.height
  return raw.subarray(fromRow * rowBytes)
}

describe('the bottom quarter, where subtitles go', () => {
  it.each(
    PRESETS.flatMap(([w, h]) =>
      [NIGHT_LIGHTHOUSE, SUNSET_PERSON, SHIPS_WHEEL, PRESENTER].map(
        (prompt) => [w, h, prompt] as const,
      ),
    ),
  )(
    'at %i x %i holds only the background and the mark: %s',
    async (width, height, prompt) => {
      const frame = composeFrame(prompt, width, height, 11)
      expect(frame.illustrations.length).toBeGreaterThan(0)
      expect(frame.title).not.toBeNull()
      const bare = { ...frame, illustrations: [], title: null }
      const [full, background] = await Promise.all([rawPixels(frame), rawPixels(bare)])
      // The illustrations and the title are really drawn (above the subtitle band) ...
      expect(full.equals(background)).toBe(false)
      // ... and not one pixel of them in the bottom quarter.
      const firstRow = Math.floor(height * (1 - SUBTITLE_BAND_FRACTION))
      expect(rowsFrom(full, frame, firstRow).equals(rowsFrom(background, frame, firstRow))).toBe(
        true,
      )
    },
    20_000,
  )
})

describe('composition', () => {
  it('is the same for the same prompt, size and seed, and another for another seed', () => {
    const a = composeFrame(NIGHT_LIGHTHOUSE, 1920, 1080, 1)
    expect(composeFrame(NIGHT_LIGHTHOUSE, 1920, 1080, 1)).toEqual(a)
    const b = composeFrame(NIGHT_LIGHTHOUSE, 1920, 1080, 2)
    // Another seed moves things, not only their colours.
    const where = (frame: StoryboardFrame) =>
      frame.illustrations.map(({ art, x, y, flip }) => ({ art, x, y, flip }))
    expect(where(b)).not.toEqual(where(a))
    expect(b.background.sky).not.toEqual(a.background.sky)
  })

  it('gives two seeds two different images', async () => {
    const [a, b] = await Promise.all([
      rawPixels(composeFrame(SUNSET_PERSON, 1080, 1080, 1)),
      rawPixels(composeFrame(SUNSET_PERSON, 1080, 1080, 2)),
    ])
    let differing = 0
    for (let i = 0; i < a.length; i += 4) if (a[i] !== b[i] || a[i + 1] !== b[i + 1]) differing++
    // Not a pixel or two: the picture changes.
    expect(differing / (a.length / 4)).toBeGreaterThan(0.05)
  })

  it('picks illustrations by the nouns of the prompt', () => {
    const arts = (prompt: string) =>
      composeFrame(prompt, 1920, 1080, 5).illustrations.map((p) => p.art)
    expect(arts('Wide shot of a lighthouse on the coast at noon')).toContain('lighthouse')
    // At night its lantern is lit.
    expect(arts(NIGHT_LIGHTHOUSE)).toContain('lighthouse-lit')
    expect(arts(NIGHT_LIGHTHOUSE).some((art) => art === 'ship' || art === 'passenger-ship')).toBe(
      true,
    )
    expect(arts(NIGHT_LIGHTHOUSE)).toContain('crescent-moon')
    // "ship's wheel" is the wheel, not a ship.
    expect(arts(SHIPS_WHEEL)).toEqual(['ships-wheel'])
    expect(arts('Medium shot of a busy city street')).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^(office-building|classical-building|department-store)$/),
      ]),
    )
    expect(arts(PRESENTER)).toContain('teacher')
    // A close-up of a person is a face.
    expect(arts(SUNSET_PERSON)).toEqual(['person'])
    // Nothing known: a small landscape, never an empty frame.
    expect(arts('Medium shot: it all comes down to a few principles.')).toEqual(
      expect.arrayContaining(['mountain']),
    )
  })

  it('draws the illustrations it picked, from the artwork', async () => {
    const art = await storyboardArt()
    const svg = frameSvg(composeFrame(SHIPS_WHEEL, 1920, 1080, 5), art)
    expect(svg).toContain(OWN_ART['ships-wheel']!.body)
    const person = frameSvg(composeFrame(SUNSET_PERSON, 1920, 1080, 5), art)
    expect(person).toContain(art.get('person')!.body)
  })

  it('shows the framing by scale and placement', () => {
    const subject = (prompt: string) => {
      const frame = composeFrame(prompt, 1920, 1080, 8)
      const [first] = frame.illustrations.filter((p) => p.art.startsWith('lighthouse'))
      return first!
    }
    const wide = subject('Wide shot of a lighthouse')
    const medium = subject('Medium shot of a lighthouse')
    const closeUp = subject('Close-up of a lighthouse')
    const detail = subject('Detail shot of a lighthouse')
    expect(wide.size).toBeLessThan(medium.size)
    expect(medium.size).toBeLessThan(closeUp.size)
    // A detail nearly fills the frame's height, cropped by its top edge.
    expect(detail.size).toBeGreaterThan(1080 * 0.9)
    expect(detail.y).toBeLessThan(0)
    // A wide shot is a landscape: several things small under a sky; a close-up is one.
    expect(composeFrame(NIGHT_LIGHTHOUSE, 1920, 1080, 8).illustrations.length).toBeGreaterThan(2)
    const closeUpFrame = composeFrame(SUNSET_PERSON, 1920, 1080, 8)
    expect(closeUpFrame.illustrations).toHaveLength(1)
  })

  it('takes its palette from the light words', () => {
    const lightness = (prompt: string) => {
      const top = composeFrame(prompt, 1280, 720, 4).background.sky[0]
      return Number(/(\d+)%\)$/.exec(top)![1])
    }
    expect(lightness('Wide shot of a harbour at night')).toBeLessThan(15)
    expect(lightness('Wide shot of a harbour at noon')).toBeGreaterThan(40)
    expect(
      composeFrame('Wide shot of a harbour at sunset', 1280, 720, 4).background.sun,
    ).not.toBeNull()
    expect(composeFrame('Wide shot of a harbour at noon', 1280, 720, 4).background.sun).toBeNull()
    const hue = (prompt: string) =>
      Number(/hsl\((\d+)/.exec(composeFrame(prompt, 1280, 720, 4).background.sky[2])![1])
    // Warm light leans toward orange, cold toward blue (the seed is the same).
    const neutral = hue('Medium shot of a field of flowers')
    expect(Math.abs(hue('Medium shot of a field of flowers in warm light') - 35)).toBeLessThan(
      Math.abs(neutral - 35),
    )
    expect(Math.abs(hue('Medium shot of a field of flowers in cold light') - 212)).toBeLessThan(
      Math.abs(neutral - 212),
    )
  })
})

describe('text', () => {
  it('is at most one line, the title, plus the small mark', async () => {
    const art = await storyboardArt()
    const long = `Medium shot: ${'a very long description of everything that happens '.repeat(40)}`
    for (const [width, height] of [...PRESETS, [64, 64] as [number, number]]) {
      for (const prompt of [NIGHT_LIGHTHOUSE, PRESENTER, long]) {
        const frame = composeFrame(prompt, width, height, 3)
        const svg = frameSvg(frame, art)
        const texts = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1])
        expect(svg.match(/<text/g)).toHaveLength(2)
        expect(svg).not.toContain('<tspan')
        expect(texts).toContain(OFFLINE_MARK)
        const title = frame.title!
        expect(title.text).not.toMatch(/\n/)
        // One line that fits the width, in the top part of the frame.
        expect(textEm(title.text) * title.fontSize).toBeLessThanOrEqual(width * 0.82 + 1)
        expect(title.y).toBeLessThan(height * 0.3)
        // The mark stays small.
        expect(frame.mark.fontSize).toBeLessThanOrEqual(Math.min(width, height) * 0.025)
        expect(frame.mark.fontSize).toBeLessThan(title.fontSize)
      }
    }
  })

  it("is the scene's title, not the prompt", () => {
    expect(composeFrame(SUNSET_PERSON, 1920, 1080, 1).title!.text).toBe('A person at sunset')
    expect(composeFrame(PRESENTER, 1920, 1080, 1).title!.text).toBe('How Honeybees Make Honey')
  })

  it('has no title for an empty prompt', () => {
    expect(composeFrame('   ', 640, 360, 1).title).toBeNull()
  })
})

describe('artwork', () => {
  it('has every illustration the vocabulary names', async () => {
    const art = await storyboardArt()
    const missing = [...artNames()].filter((name) => !art.has(name))
    expect(missing).toEqual([])
  })
})
