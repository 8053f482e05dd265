import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import {
  type ChangedTypes,
  type DocRefusal,
  docCounts,
  validateDocChange,
} from './doc-validation.ts'
import { UPDATE_REFUSAL_REASONS } from './sync.ts'
import { cutFieldKey, MAX_TIMELINE_CUTS, settingKey } from './timeline.ts'
import { docFilm, editCut, editTimelineSettings, getTimelinesMap, moveCut } from './timeline-doc.ts'
import type { VideoScene } from './video.ts'

const VIDEO = 'video-1-a'

function check(doc: Y.Doc, change: (doc: Y.Doc) => void): DocRefusal | null {
  const before = docCounts(doc)
  let changed: ChangedTypes | null = null
  const capture = (tr: Y.Transaction) => {
    changed = tr.changed
  }
  doc.on('afterTransaction', capture)
  try {
    doc.transact(() => change(doc))
  } finally {
    doc.off('afterTransaction', capture)
  }
  return changed ? validateDocChange(doc, changed, before) : null
}

const scenes: VideoScene[] = [1, 2, 3].map((i) => ({
  nodeId: `scene-${i}-s`,
  sceneNumber: String(i),
  narration: 'Hello.',
  imageUrl: null,
  clip: null,
}))

describe('timeline registers in the sync rules (issue 24)', () => {
  it('accepts what the timeline edits write', () => {
    const doc = new Y.Doc()
    expect(
      check(doc, (d) => {
        const film = docFilm(d, VIDEO, scenes).cuts
        moveCut(d, VIDEO, film, film[0]!.id, 2)
        editCut(d, VIDEO, film[1]!, { holdMs: 5_000, transition: 'wipe', transitionMs: 800 })
        editTimelineSettings(d, VIDEO, {
          music: 'builtin:calm',
          titleText: 'A film',
          captionStyle: 'word-highlight',
          captionHighlight: '#ff0000',
        })
      }),
    ).toBeNull()
  })

  it.each([
    ['an unknown field', cutFieldKey(VIDEO, 'scene:scene-1-s', 'holdMs').replace('holdMs', 'x'), 1],
    ['a malformed key', 'video-1-a/cut', 1],
    ['a key of no video', 'not a node/settings/titleText', 'x'],
    ['a negative length', cutFieldKey(VIDEO, 'scene:scene-1-s', 'holdMs'), -5],
    ['a length past the limit', cutFieldKey(VIDEO, 'scene:scene-1-s', 'holdMs'), 10_000_000],
    ['a string length', cutFieldKey(VIDEO, 'scene:scene-1-s', 'inMs'), '100'],
    ['an unknown transition', cutFieldKey(VIDEO, 'scene:scene-1-s', 'transition'), 'spin'],
    ['a bad place', cutFieldKey(VIDEO, 'scene:scene-1-s', 'movedTo'), 'a b'],
    ['a bad scene id', cutFieldKey(VIDEO, 'scene:scene-1-s', 'sceneId'), '../x'],
    ['music from a typed address', settingKey(VIDEO, 'music'), 'http://169.254.169.254/x.wav'],
    ['a NUL in a card', settingKey(VIDEO, 'titleText'), 'a\u0000b'],
    ['a card too long', settingKey(VIDEO, 'endText'), 'x'.repeat(201)],
    ['an unknown caption style', settingKey(VIDEO, 'captionStyle'), 'comic'],
    ['a colour that is not #rrggbb', settingKey(VIDEO, 'captionColor'), 'red'],
  ])('refuses %s', (_, key, value) => {
    const doc = new Y.Doc()
    const refusal = check(doc, (d) => d.getMap('timelines').set(key as string, value))
    expect(refusal?.reason).toBe(UPDATE_REFUSAL_REASONS.invalidTimeline)
  })

  it('refuses a nested type in a register', () => {
    const doc = new Y.Doc()
    const refusal = check(doc, (d) =>
      d.getMap('timelines').set(settingKey(VIDEO, 'titleText'), new Y.Map()),
    )
    expect(refusal?.reason).toBe(UPDATE_REFUSAL_REASONS.invalidTimeline)
  })

  it('refuses a timeline past its cut limit, and accepts a removal', () => {
    const doc = new Y.Doc()
    const map = getTimelinesMap(doc)
    const refusal = check(doc, () => {
      for (let i = 0; i <= MAX_TIMELINE_CUTS; i++)
        map.set(cutFieldKey(VIDEO, `split-${i}`, 'holdMs'), 1_000)
    })
    expect(refusal?.reason).toBe(UPDATE_REFUSAL_REASONS.tooManyCuts)
    expect(check(doc, () => map.delete(cutFieldKey(VIDEO, 'split-0', 'holdMs')))).toBeNull()
  })
})
