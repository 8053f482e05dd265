import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import {
  type ChangedTypes,
  type DocRefusal,
  docCounts,
  validateDocChange,
} from './doc-validation.ts'
import { UPDATE_REFUSAL_REASONS } from './sync.ts'
import {
  CUT_FIELDS,
  cutFieldKey,
  MAX_TIMELINE_CUTS,
  settingKey,
  TIMELINE_SETTING_FIELDS,
} from './timeline.ts'
import { timelineRegisterProblem } from './timeline-rules.ts'
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

/** Every register key a timeline may have: each cut field and each setting. */
const TIMELINE_KEYS = [
  ...CUT_FIELDS.map((field) => cutFieldKey(VIDEO, 'scene:x', field)),
  ...TIMELINE_SETTING_FIELDS.map((field) => settingKey(VIDEO, field)),
]

/** An object whose property `key` is a getter: one that throws, or one that changes its answer. */
const withGetter = fc
  .tuple(fc.constantFrom('constructor', '__proto__', 'length', 'then', 'a'), fc.boolean())
  .map(([key, throws]) => {
    let reads = 0
    const value = {}
    Object.defineProperty(value, key, {
      enumerable: true,
      get() {
        reads += 1
        if (throws) throw new Error('a getter that throws')
        return reads % 2 === 0 ? null : Object
      },
    })
    return value
  })

/** Arrays or objects nested `depth` deep. */
const deeplyNested = fc
  .tuple(fc.integer({ min: 1_000, max: 20_000 }), fc.boolean())
  .map(([depth, asArray]) => {
    let value: unknown = 'leaf'
    for (let i = 0; i < depth; i++) value = asArray ? [value] : { constructor: value }
    return value
  })

/**
 * What a hostile client can put in a register, or what a decoder can make of it: anything
 * JavaScript has, with keys that name Object.prototype's members, prototype-less objects,
 * `{constructor: null}` and `__proto__` keys, getters, and very deep nesting.
 */
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything({
    key: fc.constantFrom('constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', 'a'),
    withNullPrototype: true,
    withObjectString: true,
    withBoxedValues: true,
    withBigInt: true,
    withMap: true,
    withSet: true,
    withTypedArray: true,
    withSparseArray: true,
    withDate: true,
  }),
  fc.constantFrom<unknown>(
    { constructor: null },
    { constructor: undefined },
    { constructor: { name: null } },
    Object.create(null),
    JSON.parse('{"__proto__": {"constructor": null}}'),
    JSON.parse('{"constructor": {"name": 1}}'),
    [],
    [1],
    () => 1,
    Symbol('s'),
  ),
  withGetter,
  deeplyNested,
)

describe('timeline registers of any shape (issue 40 item 7)', () => {
  it('refuses every value that is not a plain string, number or boolean, in words, and never throws', () => {
    fc.assert(
      fc.property(fc.constantFrom(...TIMELINE_KEYS), hostile, (key, value) => {
        const problem = timelineRegisterProblem(key, value)
        const primitive =
          value === undefined || ['string', 'number', 'boolean'].includes(typeof value)
        if (!primitive) {
          expect(problem).toMatch(/^the timeline field \w+ holds .+/)
          // The words name the kind of value, never a member read off the value itself.
          expect(problem).toMatch(/holds (a list|an object|a \w+|".*"|[\w.-]+),/)
        } else {
          expect(problem === null || typeof problem === 'string').toBe(true)
        }
      }),
      { numRuns: 2_000 },
    )
  })

  it('names a hostile value by its kind', () => {
    const title = settingKey(VIDEO, 'titleText')
    const holds = (value: unknown) =>
      /holds (.+?), /.exec(timelineRegisterProblem(title, value) ?? '')?.[1]
    expect(holds({ constructor: null })).toBe('an object')
    expect(holds(Object.create(null))).toBe('an object')
    expect(holds([{ constructor: null }])).toBe('a list')
    expect(holds(10n)).toBe('a bigint')
    expect(holds('x'.repeat(300))).toBe(JSON.stringify('x'.repeat(300)).slice(0, 40))
  })

  it('refuses {constructor: null} through the document rules', () => {
    const doc = new Y.Doc()
    let calls = 0
    // Y.Map.set reads `constructor` once to pick the content; the rules read it again.
    const value = {}
    Object.defineProperty(value, 'constructor', {
      enumerable: true,
      get: () => (calls++ === 0 ? Object : null),
    })
    const refusal = check(doc, (d) =>
      getTimelinesMap(d).set(settingKey(VIDEO, 'titleText'), value as never),
    )
    expect(refusal?.reason).toBe(UPDATE_REFUSAL_REASONS.invalidTimeline)
  })
})
