import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  segmentCacheKey,
  type SegmentKeyClipPart,
  type SegmentKeyInput,
  type SegmentKeyPart,
  type SegmentKeyStillPart,
} from './cache-key.ts'

const hex = fc.stringMatching(/^[0-9a-f]{64}$/)
const unit = fc.double({ min: 0, max: 1, noNaN: true })
const colour = fc.stringMatching(/^#[0-9a-f]{6}$/)

const stillPart: fc.Arbitrary<SegmentKeyStillPart> = fc.record({
  imageSha256: hex,
  fit: fc.constantFrom('cover' as const, 'contain-blur' as const),
  motion: fc.record({
    zoomFrom: fc.double({ min: 1, max: 1.12, noNaN: true }),
    zoomTo: fc.double({ min: 1, max: 1.12, noNaN: true }),
    panFrom: fc.record({ x: unit, y: unit }),
    panTo: fc.record({ x: unit, y: unit }),
  }),
  sceneFrames: fc.integer({ min: 31, max: 10_000 }),
  firstSceneFrame: fc.integer({ min: 0, max: 10_000 }),
})

// Issue 22 item 4: a scene that is a clip.
const clipPart: fc.Arbitrary<SegmentKeyClipPart> = fc.record({
  clipSha256: hex,
  fit: fc.constantFrom('cover' as const, 'contain' as const),
  timing: fc.oneof(
    fc.constant({ kind: 'play' as const }),
    fc.constant({ kind: 'hold' as const }),
    fc.record({
      kind: fc.constant('slow' as const),
      factor: fc.double({ min: 1.01, max: 20, noNaN: true }),
    }),
  ),
  sceneFrames: fc.integer({ min: 31, max: 10_000 }),
  firstSceneFrame: fc.integer({ min: 0, max: 10_000 }),
})

const part: fc.Arbitrary<SegmentKeyPart> = fc.oneof(stillPart, clipPart)

const keyInput: fc.Arbitrary<SegmentKeyInput> = fc.record({
  preset: fc.record({
    name: fc.constantFrom('16:9' as const, '9:16' as const, '1:1' as const),
    width: fc.integer({ min: 8, max: 2_000 }).map((n) => 2 * n),
    height: fc.integer({ min: 8, max: 2_000 }).map((n) => 2 * n),
    fps: fc.integer({ min: 1, max: 120 }),
  }),
  frames: fc.integer({ min: 1, max: 10_000 }),
  parts: fc.oneof(fc.tuple(part), fc.tuple(part, part)),
  subtitles: fc.option(
    fc.record({
      style: fc.record({
        font: fc.string({ minLength: 1 }),
        fontSize: fc.double({ min: 0.01, max: 0.2, noNaN: true }),
        color: colour,
        boxColor: colour,
        boxOpacity: unit,
      }),
      cues: fc.array(
        fc.record({
          startFrame: fc.nat(1_000),
          endFrame: fc.nat(1_000),
          lines: fc.array(fc.string(), { minLength: 1, maxLength: 2 }),
        }),
        { maxLength: 4 },
      ),
    }),
    { nil: null },
  ),
  ffmpeg: fc.record({ version: fc.string(), xfade: fc.boolean() }),
})

type Mutation = (input: SegmentKeyInput) => SegmentKeyInput | null
const clone = (input: SegmentKeyInput): SegmentKeyInput => structuredClone(input)
const other = (hexDigest: string) => (hexDigest[0] === 'a' ? 'b' : 'a') + hexDigest.slice(1)
const otherColour = (c: string) => (c === '#000000' ? '#000001' : '#000000')
const withCues = (input: SegmentKeyInput) =>
  input.subtitles && input.subtitles.cues.length > 0 ? input.subtitles : null
const isClip = (p: SegmentKeyPart): p is SegmentKeyClipPart => 'clipSha256' in p
const still = (p: SegmentKeyPart | undefined) => (p && 'imageSha256' in p ? p : null)
const clip = (p: SegmentKeyPart | undefined) => (p && isClip(p) ? p : null)

/** Each changes one thing that shapes the segment, or returns null where it does not apply. */
const mutations: Record<string, Mutation> = {
  width: (i) => ({ ...clone(i), preset: { ...i.preset, width: i.preset.width + 2 } }),
  height: (i) => ({ ...clone(i), preset: { ...i.preset, height: i.preset.height + 2 } }),
  fps: (i) => ({ ...clone(i), preset: { ...i.preset, fps: i.preset.fps + 1 } }),
  frames: (i) => ({ ...clone(i), frames: i.frames + 1 }),
  image: (i) => {
    const c = clone(i)
    const p = still(c.parts.at(-1))
    if (!p) return null
    p.imageSha256 = other(p.imageSha256)
    return c
  },
  fit: (i) => {
    const c = clone(i)
    const p = still(c.parts[0])
    if (!p) return null
    p.fit = p.fit === 'cover' ? 'contain-blur' : 'cover'
    return c
  },
  zoom: (i) => {
    const c = clone(i)
    const p = still(c.parts[0])
    if (!p) return null
    p.motion.zoomTo += 0.01
    return c
  },
  pan: (i) => {
    const c = clone(i)
    const p = still(c.parts.at(-1))
    if (!p) return null
    p.motion.panFrom.y += 0.01
    return c
  },
  clipBytes: (i) => {
    const c = clone(i)
    const p = clip(c.parts.at(-1))
    if (!p) return null
    p.clipSha256 = other(p.clipSha256)
    return c
  },
  clipFit: (i) => {
    const c = clone(i)
    const p = clip(c.parts[0])
    if (!p) return null
    p.fit = p.fit === 'cover' ? 'contain' : 'cover'
    return c
  },
  clipTiming: (i) => {
    const c = clone(i)
    const p = clip(c.parts[0])
    if (!p) return null
    p.timing = p.timing.kind === 'hold' ? { kind: 'play' } : { kind: 'hold' }
    return c
  },
  clipSlowFactor: (i) => {
    const c = clone(i)
    const p = clip(c.parts.at(-1))
    if (p?.timing.kind !== 'slow') return null
    p.timing = { kind: 'slow', factor: p.timing.factor + 0.001 }
    return c
  },
  stillToClip: (i) => {
    const c = clone(i)
    const p = still(c.parts[0])
    if (!p) return null
    ;(c.parts as SegmentKeyPart[])[0] = {
      clipSha256: p.imageSha256,
      fit: 'cover',
      timing: { kind: 'play' },
      sceneFrames: p.sceneFrames,
      firstSceneFrame: p.firstSceneFrame,
    }
    return c
  },
  sceneFrames: (i) => {
    const c = clone(i)
    c.parts[0]!.sceneFrames += 1
    return c
  },
  firstSceneFrame: (i) => {
    const c = clone(i)
    c.parts[0]!.firstSceneFrame += 1
    return c
  },
  partsCount: (i) => {
    const c = clone(i)
    return { ...c, parts: c.parts.length === 1 ? [c.parts[0]!, c.parts[0]!] : [c.parts[0]!] }
  },
  cueTime: (i) => {
    const c = clone(i)
    const subs = withCues(c)
    if (!subs) return null
    ;(subs.cues[0] as { endFrame: number }).endFrame += 1
    return c
  },
  cueText: (i) => {
    const c = clone(i)
    const subs = withCues(c)
    if (!subs) return null
    ;(subs.cues[0]!.lines as string[])[0] += 'x'
    return c
  },
  cueAdded: (i) => {
    const c = clone(i)
    const cue = { startFrame: 0, endFrame: 1, lines: ['new'] }
    const style = c.subtitles?.style ?? {
      font: 'Sans',
      fontSize: 0.05,
      color: '#ffffff',
      boxColor: '#000000',
      boxOpacity: 0.5,
    }
    return { ...c, subtitles: { style, cues: [...(c.subtitles?.cues ?? []), cue] } }
  },
  font: (i) => {
    const c = clone(i)
    const subs = withCues(c)
    if (!subs) return null
    subs.style.font += 'x'
    return c
  },
  fontSize: (i) => {
    const c = clone(i)
    const subs = withCues(c)
    if (!subs) return null
    subs.style.fontSize += 0.001
    return c
  },
  color: (i) => {
    const c = clone(i)
    const subs = withCues(c)
    if (!subs) return null
    subs.style.color = otherColour(subs.style.color)
    return c
  },
  boxColor: (i) => {
    const c = clone(i)
    const subs = withCues(c)
    if (!subs) return null
    subs.style.boxColor = otherColour(subs.style.boxColor)
    return c
  },
  boxOpacity: (i) => {
    const c = clone(i)
    const subs = withCues(c)
    if (!subs) return null
    subs.style.boxOpacity = subs.style.boxOpacity > 0.5 ? 0.1 : 0.9
    return c
  },
  ffmpegVersion: (i) => ({ ...clone(i), ffmpeg: { ...i.ffmpeg, version: i.ffmpeg.version + 'x' } }),
  xfadeInCrossfade: (i) =>
    i.parts.length === 2 ? { ...clone(i), ffmpeg: { ...i.ffmpeg, xfade: !i.ffmpeg.xfade } } : null,
  // Issue 24: a timeline's transitions, trims, captions and cards.
  transitionType: (i) =>
    i.parts.length === 2
      ? { ...clone(i), transition: i.transition === 'wipe' ? 'slide' : 'wipe' }
      : null,
  clipSpan: (i) => {
    const c = clone(i)
    const p = clip(c.parts[0])
    if (!p) return null
    p.span = p.span ? { ...p.span, outMs: p.span.outMs + 1 } : { inMs: 100, outMs: 900 }
    return c
  },
  captions: (i) => {
    const c = clone(i)
    const ass = c.captions?.ass ?? ''
    return { ...c, captions: { ass: `${ass}Dialogue: x`, fonts: 'f@1' } }
  },
  stillToCard: (i) => {
    const c = clone(i)
    const p = still(c.parts[0])
    if (!p) return null
    ;(c.parts as SegmentKeyPart[])[0] = {
      cardAss: 'Dialogue: title',
      background: '#111111',
      fonts: 'f@1',
      sceneFrames: p.sceneFrames,
      firstSceneFrame: p.firstSceneFrame,
    }
    return c
  },
}

const card = (text: string | null, background = '#111111') => ({
  cardAss: text,
  background,
  fonts: 'f@1',
  sceneFrames: 30,
  firstSceneFrame: 0,
})

describe('segmentCacheKey', () => {
  it('keys a card by its text and colour, not by where its segment starts', () => {
    const base = {
      preset: { name: '16:9' as const, width: 640, height: 360, fps: 30 },
      frames: 30,
      subtitles: null,
      ffmpeg: { version: 'ffmpeg 5', xfade: true },
    }
    const key = (part: ReturnType<typeof card>) => segmentCacheKey({ ...base, parts: [part] })
    expect(key(card('Hello'))).not.toBe(key(card('Hello!')))
    expect(key(card('Hello'))).not.toBe(key(card('Hello', '#222222')))
    expect(key(card('Hello'))).toBe(key({ ...card('Hello'), firstSceneFrame: 12, sceneFrames: 90 }))
    // Captions count by their document and the fonts' versions.
    const captioned = (fonts: string) =>
      segmentCacheKey({ ...base, parts: [card(null)], captions: { ass: 'Dialogue: a', fonts } })
    expect(captioned('f@1')).not.toBe(captioned('f@2'))
    expect(captioned('f@1')).not.toBe(key(card(null)))
  })

  it('is a SHA-256 hex digest, the same for the same input', () => {
    fc.assert(
      fc.property(keyInput, (input) => {
        const key = segmentCacheKey(input)
        expect(key).toMatch(/^[0-9a-f]{64}$/)
        expect(segmentCacheKey(structuredClone(input))).toBe(key)
      }),
    )
  })

  it.each(Object.keys(mutations))('changes when the %s changes (property)', (name) => {
    fc.assert(
      fc.property(keyInput, (input) => {
        const changed = mutations[name]!(input)
        fc.pre(changed !== null)
        expect(segmentCacheKey(changed!)).not.toBe(segmentCacheKey(input))
      }),
    )
  })

  it('ignores what does not shape the segment (property)', () => {
    fc.assert(
      fc.property(
        keyInput,
        fc.constantFrom('16:9' as const, '9:16' as const, '1:1' as const),
        fc.boolean(),
        fc.record({ font: fc.string(), color: colour, boxOpacity: unit }),
        (input, name, xfade, style) => {
          const key = segmentCacheKey(input)
          // Extra fields, another preset name, key order: no change.
          const noisy = {
            extra: 'ignored',
            ffmpeg: { xfade: input.ffmpeg.xfade, version: input.ffmpeg.version, path: '/x' },
            subtitles: input.subtitles,
            parts: input.parts.map((p) => ({
              ...p,
              stillPath: '/tmp/x.png',
              clipPath: '/tmp/x.mp4',
            })),
            frames: input.frames,
            preset: { ...input.preset, name },
          } as SegmentKeyInput
          expect(segmentCacheKey(noisy)).toBe(key)
          // A scene body does not use xfade.
          if (input.parts.length === 1) {
            expect(segmentCacheKey({ ...input, ffmpeg: { ...input.ffmpeg, xfade } })).toBe(key)
          }
          // Without a cue the subtitle style shapes nothing.
          if (!withCues(input)) {
            const styled = {
              ...input,
              subtitles: {
                style: { fontSize: 0.05, boxColor: '#000000', ...style },
                cues: [],
              },
            }
            expect(segmentCacheKey(styled)).toBe(key)
            expect(segmentCacheKey({ ...input, subtitles: null })).toBe(key)
          }
        },
      ),
    )
  })
})
