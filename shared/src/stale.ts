import { z } from 'zod'
import type { Connection, NodeType } from './graph.ts'
import { filmHash } from './film-hash.ts'
import { isNodeType, NODE_TITLES, readNodeData } from './nodes/registry.ts'
import { RESULT_INPUT_HASH_KEY } from './nodes/result-hash.ts'
import { shortHash } from './short-hash.ts'
import type { StoredTimeline } from './timeline.ts'
import { collectVideoInputs, type VideoGraph, type VideoGraphNode } from './video.ts'

/**
 * Run only what is stale (issue 42 item 4): each generator node's input hash (its own fields
 * and the results it reads) against the hash its newest result was made from, which nodes read
 * which results, and the plan of a run in dependency order. Pure functions over a graph, shared
 * by the api (the run, its quote, the hash stored with each result) and the canvas (the "Stale"
 * labels).
 */

export { RESULT_INPUT_HASH_KEY } from './nodes/result-hash.ts'

/** The node types that make a result from their inputs, and so can be stale. */
export const GENERATOR_NODE_TYPES = [
  'script-generator',
  'editable-text',
  'image-generator',
  'video-generator',
  'video',
] as const satisfies readonly NodeType[]
export type GeneratorNodeType = (typeof GENERATOR_NODE_TYPES)[number]

/** True when `type` is a generator's ({@link GENERATOR_NODE_TYPES}). */
export function isGeneratorType(type: string): type is GeneratorNodeType {
  return (GENERATOR_NODE_TYPES as readonly string[]).includes(type)
}

/** A Video node's stored timeline, by its id (null: none yet); the api reads the doc's. */
export type TimelineOf = (videoId: string) => StoredTimeline | null

const noTimeline: TimelineOf = () => null

/** The graph's lookups, built once per read. */
interface Lookup {
  graph: VideoGraph
  byId: Map<string, VideoGraphNode>
  /** Node ids connected to each node, either direction. */
  around: Map<string, string[]>
  /** Node ids each node feeds (source -> target). */
  out: Map<string, string[]>
  timelineOf: TimelineOf
}

function lookup(graph: VideoGraph, timelineOf: TimelineOf): Lookup {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]))
  const around = new Map<string, string[]>()
  const out = new Map<string, string[]>()
  const add = (map: Map<string, string[]>, key: string, value: string) => {
    const list = map.get(key)
    if (list) list.push(value)
    else map.set(key, [value])
  }
  for (const c of graph.connections as readonly Connection[]) {
    add(around, c.source, c.target)
    add(around, c.target, c.source)
    add(out, c.source, c.target)
  }
  return { graph, byId, around, out, timelineOf }
}

/** The time stamp of a node id (`image-<ms>-...`), 0 when it has none. */
function stampOf(id: string): number {
  const stamp = Number(id.split('-').find((part) => /^\d{10,}$/.test(part)) ?? 0)
  return Number.isFinite(stamp) ? stamp : 0
}

/** Newest first by id stamp, then by id: the order the Video node picks images and clips in. */
function newestFirst(a: string, b: string): number {
  return stampOf(b) - stampOf(a) || (a < b ? -1 : a > b ? 1 : 0)
}

function neighboursOfType(l: Lookup, id: string, type: NodeType): VideoGraphNode[] {
  const ids = [...new Set(l.around.get(id) ?? [])].sort()
  return ids.map((n) => l.byId.get(n)).filter((n): n is VideoGraphNode => n?.type === type)
}

/**
 * The prompt an image or video generator runs with: with `promptFromScene` "true", the current
 * visuals of the scene connected to it (the first by id whose visuals are not blank), since a
 * run writes them into the prompt before it starts; else its own prompt.
 */
export function effectivePrompt(graph: VideoGraph, nodeId: string): string {
  return promptOf(lookup(graph, noTimeline), nodeId)
}

function promptOf(l: Lookup, nodeId: string): string {
  const node = l.byId.get(nodeId)
  if (node?.type !== 'image-generator' && node?.type !== 'video-generator') return ''
  const data = readNodeData(node.type, node.data)
  if (data.promptFromScene === 'true') {
    for (const scene of neighboursOfType(l, nodeId, 'scene')) {
      const { visuals } = readNodeData('scene', scene.data)
      if (visuals.trim() !== '') return visuals
    }
  }
  return data.prompt
}

/** The images an image generator made (it feeds them), newest first, with their URLs. */
function imagesOf(l: Lookup, generatorId: string): { id: string; url: string }[] {
  return (l.out.get(generatorId) ?? [])
    .map((id) => l.byId.get(id))
    .filter((n): n is VideoGraphNode => n?.type === 'image')
    .map((n) => ({ id: n.id, url: readNodeData('image', n.data).imageUrl }))
    .filter((i) => i.url !== '')
    .sort((a, b) => newestFirst(a.id, b.id))
}

/**
 * A Video Generator's start image and the image generators whose result it is: for each image
 * node connected to it, the newest image its image generator made (so a redrawn picture is the
 * clip's new start), else that image's own URL; the newest of those. Without a connected image,
 * its `imageUrl` field.
 */
function startImageOf(l: Lookup, nodeId: string): { url: string; from: string[] } {
  const node = l.byId.get(nodeId)
  if (node?.type !== 'video-generator') return { url: '', from: [] }
  const candidates: { id: string; url: string }[] = []
  const from = new Set<string>()
  for (const image of neighboursOfType(l, nodeId, 'image')) {
    const makers = neighboursOfType(l, image.id, 'image-generator').filter((g) =>
      (l.out.get(g.id) ?? []).includes(image.id),
    )
    const made = makers.flatMap((g) => imagesOf(l, g.id))
    for (const g of makers) from.add(g.id)
    if (made.length > 0) candidates.push(...made)
    else {
      const url = readNodeData('image', image.data).imageUrl
      if (url !== '') candidates.push({ id: image.id, url })
    }
  }
  candidates.sort((a, b) => newestFirst(a.id, b.id))
  return {
    url: candidates[0]?.url ?? readNodeData('video-generator', node.data).imageUrl,
    from: [...from].sort(),
  }
}

/**
 * The start image a Video Generator runs with (see the run: written into its `imageUrl` before
 * it starts): the newest picture of the image node it is connected to, else its own field.
 */
export function effectiveStartImage(graph: VideoGraph, nodeId: string): string {
  return startImageOf(lookup(graph, noTimeline), nodeId).url
}

/** What a generator node's result depends on now. */
export interface GeneratorInputs {
  nodeId: string
  type: GeneratorNodeType
  /** The hash of its inputs now ({@link shortHash}: "changed" or "same" only). */
  hash: string
  /** The generator nodes whose results it reads (a run waits for them), sorted. */
  reads: string[]
  /** Why it cannot run now, in words ("has no topic"), or null. */
  problem: string | null
}

function inputsOf(l: Lookup, nodeId: string): GeneratorInputs | null {
  const node = l.byId.get(nodeId)
  if (!node || !isGeneratorType(node.type)) return null
  const hashOf = (parts: unknown[]) => shortHash(JSON.stringify([node.type, ...parts]))
  switch (node.type) {
    case 'script-generator': {
      const d = readNodeData('script-generator', node.data)
      const topic = d.topic.trim()
      return {
        nodeId,
        type: node.type,
        hash: hashOf([topic, d.style, d.tone, d.format, d.targetSeconds]),
        reads: [],
        problem: topic === '' ? 'has no topic' : null,
      }
    }
    case 'editable-text': {
      const d = readNodeData('editable-text', node.data)
      return {
        nodeId,
        type: node.type,
        hash: hashOf([d.content, d.sceneCount]),
        reads: [],
        problem: d.content.trim() === '' ? 'has no text to split into scenes' : null,
      }
    }
    case 'image-generator': {
      const d = readNodeData('image-generator', node.data)
      const prompt = promptOf(l, nodeId).trim()
      return {
        nodeId,
        type: node.type,
        hash: hashOf([
          prompt,
          d.negativePrompt,
          d.width,
          d.height,
          d.numInferenceSteps,
          d.guidanceScale,
          d.seed.trim(),
          d.modelId,
          d.modelVersionId,
        ]),
        reads: [],
        problem: prompt === '' ? 'has no prompt' : null,
      }
    }
    case 'video-generator': {
      const d = readNodeData('video-generator', node.data)
      const prompt = promptOf(l, nodeId).trim()
      const start = startImageOf(l, nodeId)
      return {
        nodeId,
        type: node.type,
        hash: hashOf([
          prompt,
          d.negativePrompt,
          d.modelId,
          d.durationSeconds,
          d.aspectRatio,
          d.seed.trim(),
          d.withAudio,
          start.url,
          d.lastFrameUrl,
        ]),
        reads: start.from,
        problem: d.modelId === '' ? 'has no video model' : prompt === '' ? 'has no prompt' : null,
      }
    }
    case 'video': {
      const inputs = collectVideoInputs(l.graph, nodeId)
      if (!inputs) return null
      const reads = new Set<string>()
      for (const scene of inputs.scenes) {
        for (const id of l.out.get(scene.nodeId) ?? []) {
          const type = l.byId.get(id)?.type
          if (type === 'image-generator' || type === 'video-generator') reads.add(id)
        }
      }
      // A connected text node's scenes are its result: a new split changes what it renders.
      for (const text of neighboursOfType(l, nodeId, 'editable-text')) reads.add(text.id)
      return {
        nodeId,
        type: node.type,
        hash: filmHash(inputs.hash, l.timelineOf(nodeId)),
        reads: [...reads].sort(),
        problem: inputs.scenes.length === 0 ? 'has no scenes' : null,
      }
    }
  }
}

/**
 * What generator `nodeId` of `graph` depends on now: its input hash, the generators whose
 * results it reads, and whether it can run.
 * @param timelineOf a Video node's stored timeline (its render's hash is shared's `filmHash`)
 * @returns null for a node that is not a generator (or not in the graph).
 */
export function generatorInputs(
  graph: VideoGraph,
  nodeId: string,
  timelineOf: TimelineOf = noTimeline,
): GeneratorInputs | null {
  return inputsOf(lookup(graph, timelineOf), nodeId)
}

/** {@link generatorInputs}'s hash, or null for a node that is not a generator. */
export function generatorInputHash(
  graph: VideoGraph,
  nodeId: string,
  timelineOf: TimelineOf = noTimeline,
): string | null {
  return generatorInputs(graph, nodeId, timelineOf)?.hash ?? null
}

/**
 * The hash a generator's newest result was made from, or null when it has none (never ran, or
 * ran before results carried their hash). A Video node's is its newest take's `inputHash`; a
 * take from before hashes (`''`) counts as current, as the Video node's Stale badge has it.
 */
export function storedResultHash(
  node: Pick<VideoGraphNode, 'type' | 'data'>,
  current: string,
): string | null {
  if (node.type === 'video') {
    const [take] = readNodeData('video', node.data).videoTakes
    if (!take) return null
    return take.inputHash === '' ? current : take.inputHash
  }
  const stored = node.data[RESULT_INPUT_HASH_KEY]
  return typeof stored === 'string' && stored !== '' ? stored : null
}

/** How current a generator's result is. */
export interface NodeStaleness extends GeneratorInputs {
  /** True when it has no result made from its inputs as they are now (never ran, or changed). */
  stale: boolean
  /** True when it has a result (with or without a hash). */
  hasResult: boolean
}

/** True when the node shows a result of an earlier run (a job that succeeded, or takes). */
function hasResultOf(node: VideoGraphNode): boolean {
  if (node.type === 'video') return readNodeData('video', node.data).videoTakes.length > 0
  return typeof node.data[RESULT_INPUT_HASH_KEY] === 'string' || node.data.jobStatus === 'succeeded'
}

/**
 * Every generator of `graph` with its input hash, what it reads, and whether it is stale: its
 * stored result hash differs from the hash now, or it has none (it never produced a result, or
 * only before results carried their hash).
 * @see issue 42 item 4
 */
export function graphStaleness(
  graph: VideoGraph,
  timelineOf: TimelineOf = noTimeline,
): Map<string, NodeStaleness> {
  const l = lookup(graph, timelineOf)
  const result = new Map<string, NodeStaleness>()
  for (const node of graph.nodes) {
    const inputs = inputsOf(l, node.id)
    if (!inputs) continue
    const stored = storedResultHash(node, inputs.hash)
    result.set(node.id, {
      ...inputs,
      stale: stored !== inputs.hash,
      hasResult: hasResultOf(node),
    })
  }
  return result
}

/**
 * Generator `nodeId`'s staleness in `graph` (see {@link graphStaleness}), or null when it is no
 * generator of it: what one node's "Stale" label reads.
 */
export function nodeStaleness(
  graph: VideoGraph,
  nodeId: string,
  timelineOf: TimelineOf = noTimeline,
): NodeStaleness | null {
  const node = graph.nodes.find((n) => n.id === nodeId)
  const inputs = node ? inputsOf(lookup(graph, timelineOf), nodeId) : null
  if (!node || !inputs) return null
  return {
    ...inputs,
    stale: storedResultHash(node, inputs.hash) !== inputs.hash,
    hasResult: hasResultOf(node),
  }
}

/**
 * True when the node's label says "Stale": it has a result, made from inputs that changed since
 * (a node that never ran has nothing to be stale; its run button says what it does).
 */
export function showsStale(staleness: Pick<NodeStaleness, 'stale' | 'hasResult'>): boolean {
  return staleness.stale && staleness.hasResult
}

/** Which nodes a run takes (issue 42 item 4). */
export const RUN_SCOPES = ['stale', 'all'] as const
export type RunScope = (typeof RUN_SCOPES)[number]

/** One node of a planned run, in dependency order. */
export interface PlannedRunNode {
  nodeId: string
  type: GeneratorNodeType
  /** The nodes of the same run whose results it reads: it starts once they succeeded. */
  waitsFor: string[]
}

/** A node a run leaves out, and why (in words). */
export interface SkippedRunNode {
  nodeId: string
  type: GeneratorNodeType
  reason: string
}

/** What {@link planRun} plans. */
export interface RunPlan {
  nodes: PlannedRunNode[]
  skipped: SkippedRunNode[]
}

/** What a run is asked to take. */
export interface RunRequest {
  scope: RunScope
  /** Only these nodes and what depends on them (absent: every node of the scope). */
  nodeIds?: readonly string[] | undefined
  /** Nodes with a job still open: never started twice. */
  busy?: ReadonlySet<string> | undefined
  /** Nodes known not to run now, with why (the server's refusal of their request). */
  refused?: ReadonlyMap<string, string> | undefined
}

/** A node in words: "Image Generator image-generator-1-ab". */
export function nodeInWords(node: { id: string; type: string }): string {
  return isNodeType(node.type) ? `${NODE_TITLES[node.type]} ${node.id}` : node.id
}

/**
 * Plans a run (issue 42 item 4): the generators of `scope` (stale ones, or all), limited to
 * `nodeIds` when given, and every generator that reads the result of one in the run
 * (transitively); without nodes that cannot run now (no topic, no prompt...) or whose job is
 * still open, and the nodes that would read theirs. Ordered so each node comes after the nodes
 * it waits for; `waitsFor` lists them. Cycles (a graph wired in a ring) leave their nodes out.
 */
export function planRun(
  graph: VideoGraph,
  request: RunRequest,
  timelineOf: TimelineOf = noTimeline,
): RunPlan {
  const staleness = graphStaleness(graph, timelineOf)
  const l = lookup(graph, timelineOf)
  const busy = request.busy ?? new Set<string>()
  const limit = request.nodeIds ? new Set(request.nodeIds) : null
  const skipped = new Map<string, string>()
  const inRun = new Set<string>()
  const skip = (s: NodeStaleness, reason: string) => {
    if (!skipped.has(s.nodeId)) skipped.set(s.nodeId, reason)
  }
  const refused = request.refused ?? new Map<string, string>()
  const admit = (s: NodeStaleness) => {
    if (busy.has(s.nodeId)) skip(s, 'its last run has not finished yet')
    else if (s.problem) skip(s, s.problem)
    else if (refused.has(s.nodeId)) skip(s, refused.get(s.nodeId)!)
    else inRun.add(s.nodeId)
  }
  for (const s of staleness.values()) {
    if (limit && !limit.has(s.nodeId)) continue
    if (request.scope === 'all' || s.stale) admit(s)
  }
  // Readers of a node in the run, transitively (a reader that cannot run is skipped).
  for (let changed = true; changed;) {
    changed = false
    for (const s of staleness.values()) {
      if (inRun.has(s.nodeId) || skipped.has(s.nodeId)) continue
      if (s.reads.some((id) => inRun.has(id))) {
        admit(s)
        changed = true
      }
    }
  }
  // A Video node renders only when each scene has a picture, or one is being made in the run.
  for (const id of [...inRun]) {
    const s = staleness.get(id)!
    if (s.type !== 'video') continue
    const inputs = collectVideoInputs(graph, id)!
    const unmade = inputs.missing.filter(
      (scene) => !(l.out.get(scene.nodeId) ?? []).some((g) => inRun.has(g)),
    )
    if (unmade.length > 0) {
      inRun.delete(id)
      skip(s, `scenes without an image: ${unmade.map((scene) => scene.sceneNumber).join(', ')}`)
    }
  }
  // Dependency order (Kahn's algorithm, ties by id so every reader plans alike).
  const nodes: PlannedRunNode[] = []
  const placed = new Set<string>()
  const pending = [...inRun].sort()
  for (let progress = true; progress && pending.length > 0;) {
    progress = false
    for (let i = 0; i < pending.length; i++) {
      const s = staleness.get(pending[i]!)!
      const waitsFor = s.reads.filter((r) => inRun.has(r))
      if (waitsFor.every((r) => placed.has(r))) {
        nodes.push({ nodeId: s.nodeId, type: s.type, waitsFor })
        placed.add(s.nodeId)
        pending.splice(i, 1)
        i -= 1
        progress = true
      }
    }
  }
  for (const id of pending) skip(staleness.get(id)!, 'its inputs are wired in a ring')
  return {
    nodes,
    skipped: [...skipped].map(([nodeId, reason]) => ({
      nodeId,
      type: staleness.get(nodeId)!.type,
      reason,
    })),
  }
}

/** At most this many node ids in one run's `nodeIds`. */
export const RUN_NODE_IDS_MAX = 500

/**
 * `POST /api/projects/:id/run` (issue 42 item 4): run the generators of `scope` (`stale`: those
 * whose result is not current; `all`), only `nodeIds` and what depends on them when given; with
 * `dryRun`, the quote only.
 */
export const runProjectInput = z
  .object({
    scope: z.enum(RUN_SCOPES, { error: 'The scope must be "stale" or "all".' }),
    nodeIds: z
      .array(z.string().min(1).max(64))
      .min(1, 'List at least one node, or leave nodeIds out.')
      .max(RUN_NODE_IDS_MAX, `At most ${RUN_NODE_IDS_MAX} node ids.`)
      .optional(),
    dryRun: z.boolean().optional(),
  })
  .meta({ id: 'RunProjectInput' })
export type RunProjectInput = z.infer<typeof runProjectInput>

/** `GET /api/projects/:id/run-quote?scope=stale`: the run's quote, nothing started. */
export const runQuoteQuery = z
  .object({
    scope: z.enum(RUN_SCOPES, { error: 'The scope must be "stale" or "all".' }).default('stale'),
  })
  .meta({ id: 'RunQuoteQuery' })
export type RunQuoteQuery = z.infer<typeof runQuoteQuery>

/** One node of a run's answer. */
export const runNodeOutput = z
  .object({
    nodeId: z.string(),
    type: z.enum(GENERATOR_NODE_TYPES),
    /** Its job (follow it with `GET /api/jobs/:id`); null in a quote. */
    jobId: z.string().nullable(),
    /** Credits it is charged. */
    credits: z.number().int().nonnegative(),
    /** The nodes of this run it waits for. */
    waitsFor: z.array(z.string()),
  })
  .meta({ id: 'RunNode' })
export type RunNodeOutput = z.infer<typeof runNodeOutput>

/**
 * The answer of a run or its quote: the nodes it runs in dependency order with their jobs and
 * credits, the total, and the nodes it leaves out with why. Empty and 0 when nothing is stale.
 */
export const projectRunOutput = z
  .object({
    nodes: z.array(runNodeOutput),
    /** The total charged (or, in a quote, to be charged), in credits. */
    credits: z.number().int().nonnegative(),
    skipped: z.array(
      z.object({ nodeId: z.string(), type: z.enum(GENERATOR_NODE_TYPES), reason: z.string() }),
    ),
  })
  .meta({ id: 'ProjectRun' })
export type ProjectRunOutput = z.infer<typeof projectRunOutput>

/** The message of a job a run cancels because one of its inputs failed (issue 42 item 4). */
export function inputFailedMessage(inputName: string, status: 'failed' | 'cancelled'): string {
  return `Not run: its input ${inputName} ${status === 'failed' ? 'failed' : 'was cancelled'}.`
}
