import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { type ChangedTypes, docCounts, validateDocChange } from '../doc-validation.ts'
import { type GraphNode, graphNodeSchema, type NodeData } from '../graph.ts'
import { addNode, getNodesMap, readNode } from '../graph-doc.ts'
import { createGraphNode } from '../node-defaults.ts'
import { imageGeneratorForScene, imageResult, scenesResult, scriptResult } from '../placement.ts'
import { createProjectInput, patchProjectInput } from '../projects.ts'
import type { NodeField, NodeFieldValue } from './node-field.ts'
import {
  DEFAULT_CONNECTION_POINTS,
  defaultNodeData,
  NODE_KINDS,
  NODE_TITLES,
  NODE_TYPES,
  type NodeType,
  nodeDataProblem,
  readNodeData,
  storedNodeData,
} from './registry.ts'
import { type ClipTake, MAX_CLIP_TAKES } from './clip.ts'
import { MAX_VIDEO_TAKES, VIDEO_PRESET_NAMES, type VideoTake } from './video.ts'

/** Text as a person types it (no U+0000, no lone surrogates: text hygiene refuses those). */
const textArb = fc
  .string({ unit: 'grapheme', maxLength: 40 })
  .map((s) => s.replaceAll('\u0000', ''))

const takeArb: fc.Arbitrary<VideoTake> = fc.record({
  mp4Url: fc.constantFrom('/api/assets/a', '/api/assets/b', '/api/assets/c'),
  srtUrl: fc.constantFrom('/api/assets/s', ''),
  vttUrl: fc.constantFrom('/api/assets/v', ''),
  durationMs: fc.integer({ min: 0, max: 600_000 }),
  inputHash: fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), maxLength: 13 }),
  renderedAt: fc.constantFrom('2026-11-21T14:05:00.000Z', ''),
  preset: fc.constantFrom(...VIDEO_PRESET_NAMES),
})

const clipTakeArb: fc.Arbitrary<ClipTake> = fc.record({
  videoUrl: fc.constantFrom('/api/assets/a', '/api/assets/b', '/api/assets/c'),
  posterUrl: fc.constantFrom('/api/assets/p', ''),
  durationMs: fc.integer({ min: 0, max: 20_000 }),
  hasAudio: fc.boolean(),
  modelId: fc.constantFrom('fal:fal-ai/kling-video', 'builtin:motion-draft'),
  prompt: textArb,
  seed: fc.integer({ min: 0, max: 2_147_483_647 }),
  createdAt: fc.constant('2026-11-26T15:00:00.000Z'),
})

/** The lists the JSON fields hold, by key. */
const JSON_LISTS: Record<string, fc.Arbitrary<NodeFieldValue>> = {
  videoTakes: fc.array(takeArb, { maxLength: MAX_VIDEO_TAKES }),
  clipTakes: fc.array(clipTakeArb, { maxLength: MAX_CLIP_TAKES }),
}

/** A value a field can hold, of the kind it declares (what the canvas or the server writes). */
function valueArb(key: string, field: NodeField<NodeFieldValue>): fc.Arbitrary<NodeFieldValue> {
  const kind = field.kind
  switch (kind.type) {
    case 'text':
      return field.optional ? textArb.filter((s) => s !== '') : textArb
    case 'number':
      return kind.integer
        ? fc.integer({ min: kind.min ?? -1_000_000, max: kind.max ?? 1_000_000 })
        : fc
            .double({ min: kind.min ?? -1e9, max: kind.max ?? 1e9, noNaN: true })
            .map((n) => (Object.is(n, -0) ? 0 : n))
    case 'boolean':
      return fc.boolean()
    case 'choice':
      return fc.constantFrom(...kind.values)
    case 'json': {
      const list = JSON_LISTS[key]
      if (!list) throw new Error(`No list arbitrary for the JSON field ${key}`)
      return list
    }
  }
}

/** Some fields of a node of `type`, each with a value of its kind. */
function patchArb(type: NodeType): fc.Arbitrary<Partial<Record<string, NodeFieldValue>>> {
  const fields = NODE_KINDS[type].fields as Record<string, NodeField<NodeFieldValue>>
  return fc.record(
    Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, valueArb(key, field)])),
    { requiredKeys: [] },
  )
}

/** Every node the canvas can create: from the Nodes Library or a result, then edited. */
const canvasNodeArb: fc.Arbitrary<GraphNode> = fc.oneof(
  fc
    .constantFrom(...NODE_TYPES)
    .chain((type) => fc.tuple(fc.constant(createGraphNode(type, { x: 10, y: 20 })), patchArb(type)))
    .map(([node, patch]) => ({
      ...node,
      data: { ...node.data, ...storedNodeData(node.type, patch) },
    })),
  textArb.map((script) => scriptResult({ id: 's', position: { x: 0, y: 0 } }, script).nodes[0]!),
  fc
    .array(fc.record({ narration: textArb, visuals: textArb }), { minLength: 1, maxLength: 3 })
    .map((scenes) => scenesResult({ id: 't', position: { x: 0, y: 0 } }, scenes).nodes[0]!),
  fc.record({ prompt: textArb, width: fc.integer({ min: 64, max: 2048 }), url: textArb }).map(
    ({ prompt, width, url }) =>
      imageResult(
        { id: 'g', position: { x: 0, y: 0 } },
        { prompt, width, height: width },
        {
          imageUrl: url,
        },
      ).nodes[0]!,
  ),
  textArb.map(
    (visuals) => imageGeneratorForScene({ id: 's', position: { x: 0, y: 0 }, visuals }).nodes[0]!,
  ),
)

/** Adds `node` to `doc` in one transaction and runs the sync validator on it. */
function addChecked(doc: Y.Doc, node: GraphNode) {
  const before = docCounts(doc)
  let changed: ChangedTypes | null = null
  const capture = (tr: Y.Transaction) => {
    changed = tr.changed
  }
  doc.on('afterTransaction', capture)
  addNode(doc, node)
  doc.off('afterTransaction', capture)
  return validateDocChange(doc, changed!, before)
}

describe('node data, defined once (issue 21 item 3)', () => {
  it('every node the canvas can create passes its schema and round-trips through the document', () => {
    fc.assert(
      fc.property(canvasNodeArb, (node) => {
        for (const [key, value] of Object.entries(node.data)) {
          expect(nodeDataProblem(node.type, key, value)).toBeNull()
        }
        expect(graphNodeSchema.safeParse(node).success).toBe(true)

        const doc = new Y.Doc()
        expect(addChecked(doc, node)).toBeNull()
        const back = readNode(node.id, getNodesMap(doc).get(node.id))
        expect(back).toEqual(node)

        // Reading gives each stored value back in its stored form, and reading twice
        // (the canvas reads its flow data again) changes nothing.
        const read = readNodeData(node.type, back!.data)
        const stored = storedNodeData(node.type, read)
        for (const [key, value] of Object.entries(back!.data)) expect(stored[key]).toEqual(value)
        expect(readNodeData(node.type, read)).toEqual(read)
      }),
      { numRuns: 300 },
    )
  })

  it('reads missing or mistyped fields as defaults, numeric strings as numbers, "true"/"false" as booleans', () => {
    expect(readNodeData('image-generator', { width: '512', height: true, seed: 7 })).toMatchObject({
      width: 512,
      height: 720,
      numInferenceSteps: 25,
      guidanceScale: 7.5,
      seed: '7',
    })
    expect(readNodeData('video', { subtitles: 'false', music: 'true', preset: '4:3' })).toEqual({
      preset: '16:9',
      voice: '',
      subtitles: false,
      music: true,
      // Issue 22 item 4: how the scenes that are clips render.
      clipFit: 'cover',
      clipShorter: 'hold',
      clipSound: 'off',
      videoTakes: [],
    })
    expect(readNodeData('editable-text', { sceneCount: '40' }).sceneCount).toBe(25)
    expect(readNodeData('script-generator', { style: 'Gothic' }).style).toBe('Professional')
    // Unknown keys are not read (they stay in the stored data), and job fields are a
    // generator's only.
    expect(readNodeData('scene', { extra: 1, jobStatus: 'running' })).toEqual({
      sceneNumber: '1',
      narration: '',
      visuals: '',
    })
    expect(readNodeData('image-generator', { jobStatus: 'running' })).toMatchObject({
      jobStatus: 'running',
    })
  })

  it('derives the node types, titles, connection points and defaults from one registry', () => {
    expect(NODE_TYPES).toEqual(Object.keys(NODE_KINDS))
    for (const type of NODE_TYPES) {
      expect(NODE_KINDS[type].type).toBe(type)
      expect(NODE_TITLES[type]).toBe(NODE_KINDS[type].title)
      expect(DEFAULT_CONNECTION_POINTS[type]).toBe(NODE_KINDS[type].connectionPoints)
      // A new node's data reads as its defaults, written back unchanged.
      const data: NodeData = defaultNodeData(type)
      expect(storedNodeData(type, readNodeData(type, data))).toMatchObject(data)
    }
  })

  it('refuses REST graphs whose known fields do not read, naming the field', () => {
    const node = {
      ...createGraphNode('image-generator', { x: 0, y: 0 }),
      data: { width: 'wide', anything: 'else' },
    }
    const created = createProjectInput.safeParse({ name: 'P', nodes: [node] })
    expect(created.success).toBe(false)
    expect(created.error?.issues[0]?.path).toEqual(['nodes', 0, 'data', 'width'])
    const patched = patchProjectInput.safeParse({ nodes: [node], connections: [] })
    expect(patched.error?.issues[0]?.message).toContain('"width"')
    const fine = { ...node, data: { width: '512', anything: 'else' } }
    expect(patchProjectInput.safeParse({ nodes: [fine], connections: [] }).success).toBe(true)
  })
})
