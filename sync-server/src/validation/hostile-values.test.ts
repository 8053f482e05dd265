import {
  addNode,
  getNodesMap,
  getTimelinesMap,
  type GraphNode,
  settingKey,
  cutFieldKey,
  UPDATE_REFUSAL_REASONS,
} from '@reelgraph/shared'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { inspectUpdate } from './update-inspector.ts'

/**
 * Values of any shape in a client's update (issue 40 item 7): whatever a register or a node's
 * data field holds, the check answers a refusal in words (or takes a valid value), and never
 * throws, which would reset the sender's connection instead of sending `update-refused`.
 */

const VIDEO = 'video-1-a'
const PLACEHOLDER = 'placeholder'

/** Keys that name members of Object.prototype, which a careless reader trips on. */
const hostileKeys = fc.constantFrom(
  'constructor',
  '__proto__',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'name',
  'a',
)

/**
 * Anything lib0 can encode: objects (prototype-less ones too) with hostile keys, lists,
 * bigints, binary, null, undefined, nested deeply or not.
 */
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything({
    key: hostileKeys,
    withNullPrototype: true,
    withBigInt: true,
    withTypedArray: false,
    maxDepth: 6,
  }),
  fc.constantFrom<unknown>(
    { constructor: null },
    { constructor: { name: null } },
    JSON.parse('{"__proto__": {"constructor": null}}'),
    new Uint8Array([1, 2, 3]),
    [],
  ),
  fc.integer({ min: 500, max: 5_000 }).map((depth) => {
    let value: unknown = { constructor: null }
    for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { ['__proto__']: value }
    return value
  }),
)

/**
 * The update a client sends after setting `key` of `map` to `value`, encoded as lib0 encodes
 * any value: the entry is written with a placeholder and its content swapped for `value`
 * before encoding (Y.Map.set itself refuses some shapes a hand-made update can carry).
 */
function updateSetting<T>(doc: Y.Doc, map: Y.Map<T>, key: string, value: unknown): Uint8Array {
  map.set(key, PLACEHOLDER as T)
  const item = (map as unknown as { _map: Map<string, { content: { arr: unknown[] } }> })._map.get(
    key,
  )
  if (!item) throw new Error('no item for the key')
  item.content.arr[0] = value
  return Y.encodeStateAsUpdate(doc)
}

const isPlain = (v: unknown) =>
  v === undefined || v === null || ['string', 'number', 'boolean'].includes(typeof v)

const fields = fc.constantFrom(
  settingKey(VIDEO, 'titleText'),
  settingKey(VIDEO, 'musicVolume'),
  settingKey(VIDEO, 'music'),
  cutFieldKey(VIDEO, 'scene:x', 'holdMs'),
  cutFieldKey(VIDEO, 'scene:x', 'transition'),
)

describe('hostile values in a client update (issue 40 item 7)', () => {
  it('refuses a timeline register of any shape with invalid-timeline, never throwing', () => {
    fc.assert(
      fc.property(fields, hostile, (key, value) => {
        const client = new Y.Doc()
        const update = updateSetting(client, getTimelinesMap(client), key, value)
        const refusal = inspectUpdate(new Y.Doc(), update)
        if (isPlain(value)) return
        // Nesting past what lib0's decoder can read is no Yjs update: the shape refusal.
        expect([
          UPDATE_REFUSAL_REASONS.invalidTimeline,
          UPDATE_REFUSAL_REASONS.documentShape,
        ]).toContain(refusal?.reason)
        expect(refusal?.detail).toMatch(/\w/)
      }),
      { numRuns: 500 },
    )
  })

  it('answers a node data field of any shape without throwing', () => {
    const node: GraphNode = {
      id: 'scene-1700000000000-a',
      type: 'scene',
      label: 'Scene',
      position: { x: 0, y: 0 },
      data: { narration: 'text', sceneNumber: '1' },
      connectionPoints: 'both',
    }
    fc.assert(
      fc.property(
        fc.constantFrom('narration', 'sceneNumber', 'constructor'),
        hostile,
        (key, value) => {
          const client = new Y.Doc()
          addNode(client, node)
          const data = (getNodesMap(client).get(node.id) as unknown as Y.Map<unknown>).get(
            'data',
          ) as Y.Map<unknown>
          const update = updateSetting(client, data, key, value)
          const refusal = inspectUpdate(new Y.Doc(), update)
          if (!isPlain(value)) expect(refusal?.reason).toBeDefined()
        },
      ),
      { numRuns: 300 },
    )
  })
})
