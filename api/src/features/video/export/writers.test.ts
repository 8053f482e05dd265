import {
  DEFAULT_TIMELINE_SETTINGS,
  type FilmCut,
  type FilmPlan,
  planFilm,
  type TimelineSettings,
} from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import { buildEditList, type EditList, type ExportMedia } from './edit-list.ts'
import { escapeXml, rationalTime, writeFcpxml } from './fcpxml.ts'
import { writeOtio } from './otio.ts'
import { checkFcpxml, findAll, framesOf, parseXml } from './testing/fcpxml-reader.ts'
import { type ReadItem, readOtio } from './testing/otio-reader.ts'

/**
 * The editor's files of a timeline (issue 24 item 3): what OTIO's documented schema and
 * FCPXML's structure read back from them is the plan's film — its cuts, order, in and out
 * points, durations, transitions, narration places.
 */

const CLIP = { url: '/api/assets/clip', durationMs: 8_000, hasAudio: true, modelId: 'm' }

function cut(id: string, sceneId: string, fields: Partial<FilmCut> = {}): FilmCut {
  return {
    id,
    sceneId,
    order: 'a0',
    place: 'a0',
    inMs: 0,
    outMs: 0,
    holdMs: 0,
    transition: 'crossfade',
    transitionMs: 500,
    removed: false,
    narrated: true,
    scene: { nodeId: sceneId, sceneNumber: sceneId, narration: 'x', imageUrl: '/i', clip: null },
    ...fields,
  }
}

/** A title card, a trimmed clip, a still and its split, a still, a clip, an end card. */
const CUTS: FilmCut[] = [
  cut('a', '1', { scene: { ...cut('a', '1').scene, clip: CLIP }, inMs: 1_000, outMs: 6_000 }),
  cut('b', '2', { transition: 'dip', transitionMs: 700 }),
  cut('b2', '2', { narrated: false, holdMs: 1_500, transition: 'wipe', transitionMs: 400 }),
  cut('c', '3', { transition: 'slide', transitionMs: 600 }),
  cut('d', '4', { scene: { ...cut('d', '4').scene, clip: CLIP }, transition: 'cut' }),
]
const NARRATION_MS: Record<string, number> = { '1': 3_000, '2': 2_500, '3': 4_000, '4': 1_000 }
const SETTINGS: TimelineSettings = {
  ...DEFAULT_TIMELINE_SETTINGS,
  titleMs: 2_000,
  titleText: 'Tide <pools> & "rocks"',
  endMs: 1_500,
  endText: 'Thanks',
  musicVolume: 0.5,
}

function film(name = 'Tide pools'): { plan: FilmPlan; edit: EditList } {
  const plan = planFilm(CUTS, SETTINGS, (c) => ({
    clipMs: c.scene.clip?.durationMs ?? null,
    narrationMs: NARRATION_MS[c.sceneId]!,
  }))
  const picture = (sceneId: string): ExportMedia =>
    CUTS.find((c) => c.sceneId === sceneId)!.scene.clip
      ? { path: `media/scene-${sceneId}.mp4`, kind: 'video', frames: 240, hasAudio: true }
      : { path: `media/scene-${sceneId}.png`, kind: 'image', frames: null, hasAudio: false }
  const edit = buildEditList({
    name,
    plan,
    width: 1920,
    height: 1080,
    settings: SETTINGS,
    picture: (p) => picture(p.cut!.sceneId),
    narration: (p) => ({
      path: `media/narration-${p.cut!.sceneId}.wav`,
      kind: 'audio',
      frames: Math.floor((NARRATION_MS[p.cut!.sceneId]! * 30) / 1000),
      hasAudio: true,
    }),
    music: { path: 'media/music.wav', kind: 'audio', frames: 300, hasAudio: true },
    sceneName: (p) => `Scene ${p.cut!.scene.sceneNumber}`,
  })
  return { plan, edit }
}

describe('the OTIO file', () => {
  it('reads back, by OTIO’s documented schema, with the plan’s cuts, order, in points and durations', () => {
    const { plan, edit } = film()
    const otio = readOtio(writeOtio(edit))
    expect([...otio.schemas.keys()].sort()).toEqual([
      'Clip.2',
      'ExternalReference.1',
      'Gap.1',
      'RationalTime.1',
      'Stack.1',
      'TimeRange.1',
      'Timeline.1',
      'Track.1',
      'Transition.1',
    ])
    expect(otio.rate).toBe(30)
    const [video, narration, music] = otio.tracks
    expect(otio.tracks.map((t) => [t.name, t.kind])).toEqual([
      ['Video', 'Video'],
      ['Narration', 'Audio'],
      ['Music', 'Audio'],
    ])

    // Order: the title card, the cuts in the timeline's order, the end card.
    const items = video!.children.filter((c): c is ReadItem => c.schema !== 'Transition.1')
    expect(items.map((i) => i.metadata.reelgraph)).toEqual(
      plan.pieces.map((p) =>
        p.kind === 'cut'
          ? { cutId: p.id, sceneId: p.cut!.sceneId }
          : expect.objectContaining({ card: p.id }),
      ),
    )
    expect(items.map((i) => i.targetUrl)).toEqual([
      null,
      'media/scene-1.mp4',
      'media/scene-2.png',
      'media/scene-2.png',
      'media/scene-3.png',
      'media/scene-4.mp4',
      null,
    ])
    // Durations: the track is the film; each item with the transitions over it is its piece.
    expect(video!.duration).toBe(plan.totalFrames)
    items.forEach((item, i) => {
      const piece = plan.pieces[i]!
      expect(item.visibleDuration).toBe(piece.frames)
      // Between its cut points, inside its piece.
      expect(item.trackStart).toBeGreaterThanOrEqual(piece.startFrame)
      expect(item.trackStart + item.duration).toBeLessThanOrEqual(piece.startFrame + piece.frames)
      // In points: the trimmed clip shows from 1 s (frame 30), the others from their start.
      const inFrame = piece.clip ? Math.round((piece.clip.inMs * 30) / 1000) : 0
      if (item.schema === 'Clip.2') expect(item.visibleStart).toBe(inFrame)
    })
    expect(items[1]!.visibleStart).toBe(30)
    // Out point: 6 s - 1 s of the clip = 150 frames (longer than its narration needs).
    expect(items[1]!.visibleDuration).toBe(150)

    // Transitions: where the plan overlaps two pieces, of its length and kind.
    const transitions = video!.children.filter((c) => c.schema === 'Transition.1')
    const planned = plan.pieces.filter((p) => p.transitionIn.frames > 0)
    expect(transitions.map((t) => [t.name, t.inOffset + t.outOffset])).toEqual(
      planned.map((p) => [
        { crossfade: 'Cross Dissolve', dip: 'Dip to Black', wipe: 'Wipe', slide: 'Slide', cut: '' }[
          p.transitionIn.type
        ],
        p.transitionIn.frames,
      ]),
    )
    expect(transitions.map((t) => t.transitionType)).toContain('SMPTE_Dissolve')
    for (const t of transitions) {
      const piece = planned[transitions.indexOf(t)]!
      expect(t.at - t.inOffset).toBe(piece.startFrame)
    }

    // Narration: each narrated cut's voice where the plan puts it, for its length.
    const voices = narration!.children.filter((c): c is ReadItem => c.schema === 'Clip.2')
    const narrated = plan.pieces.filter((p) => p.narrationFrame !== null)
    expect(voices.map((v) => [v.targetUrl, v.trackStart, v.duration])).toEqual(
      narrated.map((p) => [
        `media/narration-${p.cut!.sceneId}.wav`,
        p.startFrame + p.narrationFrame!,
        Math.floor((p.narrationMs * 30) / 1000),
      ]),
    )
    // Music: the loop end to end for the whole film, never past its file.
    expect(music!.duration).toBe(plan.totalFrames)
    for (const m of music!.children as ReadItem[]) {
      expect(m.duration).toBeLessThanOrEqual(m.availableDuration!)
    }
  })

  it('is refused by the reader when a schema, a rate or a transition is wrong', () => {
    const text = writeOtio(film().edit)
    expect(() => readOtio(text.replace('"Clip.2"', '"Clip.9"'))).toThrow(/unknown schema Clip.9/)
    expect(() => readOtio(text.replace('"rate": 30', '"rate": 24'))).toThrow(/rate/)
    const doc = JSON.parse(text)
    doc.tracks.children[0].children.unshift(doc.tracks.children[0].children[1])
    expect(() => readOtio(JSON.stringify(doc))).toThrow(/between two items/)
  })
})

describe('the FCPXML file', () => {
  it('is well-formed FCPXML 1.10 of the right structure, with the plan’s times and order', () => {
    const { plan, edit } = film('Crabs & <rocks> "1"')
    const xml = writeFcpxml(edit)
    const root = parseXml(xml)
    checkFcpxml(root, 30)
    expect(root.attrs.version).toBe('1.10')
    expect(findAll(root, 'project')[0]!.attrs.name).toBe('Crabs & <rocks> "1"')
    const sequence = findAll(root, 'sequence')[0]!
    expect(framesOf(sequence.attrs.duration, 30)).toBe(plan.totalFrames)
    const format = findAll(root, 'format')[0]!
    expect(format.attrs).toMatchObject({ frameDuration: '1/30s', width: '1920', height: '1080' })

    const spine = findAll(root, 'spine')[0]!
    const storyline = spine.children.filter((c) => c.name !== 'transition')
    expect(storyline.map((c) => c.name)).toEqual([
      'gap',
      'asset-clip',
      'video',
      'video',
      'video',
      'asset-clip',
      'gap',
    ])
    expect(storyline[0]!.attrs.name).toBe('Title card: Tide <pools> & "rocks"')
    // End to end, from 0 to the film's end.
    let at = 0
    for (const item of storyline) {
      expect(framesOf(item.attrs.offset, 30)).toBe(at)
      at += framesOf(item.attrs.duration, 30)
    }
    expect(at).toBe(plan.totalFrames)
    // The trimmed clip shows its in point (1 s: frame 30) where the plan starts it.
    const trimmed = storyline[1]!
    expect(
      framesOf(trimmed.attrs.start, 30) -
        (framesOf(trimmed.attrs.offset, 30) - plan.pieces[1]!.startFrame),
    ).toBe(30)
    // Transitions start where the plan's overlap starts, as long as it.
    const transitions = spine.children.filter((c) => c.name === 'transition')
    const planned = plan.pieces.filter((p) => p.transitionIn.frames > 0)
    expect(
      transitions.map((t) => [framesOf(t.attrs.offset, 30), framesOf(t.attrs.duration, 30)]),
    ).toEqual(planned.map((p) => [p.startFrame, p.transitionIn.frames]))
    // Narration: connected clips at lane -1, at the plan's place in film time.
    const voices = storyline.flatMap((parent) =>
      parent.children
        .filter((c) => c.name === 'asset-clip' && c.attrs.lane === '-1')
        .map(
          (c) =>
            framesOf(parent.attrs.offset, 30) +
            framesOf(c.attrs.offset, 30) -
            framesOf(parent.attrs.start, 30),
        ),
    )
    expect(voices).toEqual(
      plan.pieces
        .filter((p) => p.narrationFrame !== null)
        .map((p) => p.startFrame + p.narrationFrame!),
    )
    const music = findAll(root, 'asset-clip').filter((c) => c.attrs.lane === '-2')
    expect(music.reduce((sum, m) => sum + framesOf(m.attrs.duration, 30), 0)).toBe(plan.totalFrames)
    expect(findAll(root, 'adjust-volume')[0]!.attrs.amount).toBe('-6.02dB')
  })

  it('writes times as reduced rationals and escapes text', () => {
    expect([0, 30, 45, 1, 3003].map((f) => rationalTime(f, 30))).toEqual([
      '0s',
      '1s',
      '3/2s',
      '1/30s',
      '1001/10s',
    ])
    expect(escapeXml(`<a href="x">&'`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;')
  })

  it('is refused by the checks when malformed or of the wrong structure', () => {
    const xml = writeFcpxml(film().edit)
    expect(() => parseXml(xml.replace('&amp;', '&'))).toThrow(/raw "&"/)
    expect(() => parseXml(xml.replace('</spine>', '</sequence>'))).toThrow(/does not close/)
    expect(() => checkFcpxml(parseXml(xml.replace('<spine>', '<spine><title/>')), 30)).toThrow(
      /<title> is not allowed/,
    )
    expect(() =>
      checkFcpxml(parseXml(xml.replace('duration="1s"', 'duration="1.5s"')), 30),
    ).toThrow(/bad time/)
  })
})
