/**
 * What one REST autosave body costs the api in memory work (issue 23, decision 020): a
 * `PATCH /api/projects/:id` body of the whole graph (`make-graph.mjs NODES SEED`, default
 * 300 7) with one node moved, read by `JSON.parse`, then by `patchProjectInput` (every node
 * parsed) and by `parsePatchProjectInput` with the graph written before as its known nodes
 * (only the moved node parsed), and, as a project's first save does, with the nodes of its
 * stored document as known, read from its graph index (`graphIndexNodes`, `storedKnownNodes`,
 * then the parse; issue 23), then checked for text hygiene (the api's `findTextProblems`,
 * all of it or all but the known nodes). Then the writer's steps, autosave after autosave on
 * one doc: the graph written into the doc whole (`applyGraphToDoc`, every node compared) or as
 * the change from the last answer (`applyGraphChangeToDoc`, with `graphAsApplied`), and the
 * answer's UTF-8 bytes from `JSON.stringify` of a new `graphAsApplied`, or from
 * `encodeGraphJson` of the answer that keeps the last one's nodes. Last, the body as the api
 * receives it (UTF-8 bytes) with the last answer's nodes as known: decoded into one string and
 * `JSON.parse`d, or read against the known nodes' JSON (`readGraphJson`), each then parsed by
 * `parsePatchProjectInput`. Reported: the mean and p99 of each, in ms, over RUNS bodies, with the load
 * average.
 *
 * Run: npm run patch-parse -w bench   (optional: NODES SEED)
 */
import { loadavg } from 'node:os'
import {
  applyGraphChangeToDoc,
  applyGraphToDoc,
  encodeGraphJson,
  findTextProblems,
  type Graph,
  graphAsApplied,
  graphIndexNodes,
  graphIndexOfDoc,
  parsePatchProjectInput,
  patchProjectInput,
  readGraphJson,
  storedKnownNodes,
} from '@reelgraph/shared'
import * as Y from 'yjs'
import { makeGraph, meanAndP99, round } from './graph-fixture.ts'

const NODES = Number(process.argv[2] ?? 300)
const SEED = Number(process.argv[3] ?? 7)
const WARMUP = 200
const RUNS = 1000

const graph = makeGraph(NODES, SEED)
const written = patchProjectInput.parse(graph)
if (written.kind !== 'graph') throw new Error('the fixture is not a graph')
const known = new Map(written.nodes.map((node) => [node.id, node]))
const writtenGraph: Graph = { nodes: written.nodes, connections: written.connections }
/** The graph index of the stored document (as a first save reads it). */
const storedIndex = (() => {
  const doc = new Y.Doc()
  applyGraphToDoc(doc, writtenGraph)
  return graphIndexOfDoc(doc)
})()

/** The body of autosave `n`: the graph with node n mod NODES moved, as JSON text. */
function bodyText(n: number): string {
  const moved = n % graph.nodes.length
  const nodes = graph.nodes.map((node, i) =>
    i === moved ? { ...node, position: { x: n, y: -n } } : node,
  )
  return JSON.stringify({ nodes, connections: graph.connections })
}

/**
 * Runs `step` on RUNS bodies (after WARMUP), each after `prepare` (untimed), timing `step`
 * alone: mean and p99 in ms.
 */
function measure<C>(step: (body: unknown, context: C) => unknown, prepare?: (body: unknown) => C) {
  const times: number[] = []
  for (let n = 0; n < WARMUP + RUNS; n++) {
    const body = JSON.parse(bodyText(n)) as unknown
    const context = prepare?.(body) as C
    const started = performance.now()
    step(body, context)
    if (n >= WARMUP) times.push(performance.now() - started)
  }
  return meanAndP99(times)
}

/**
 * The writer's steps autosave after autosave on one doc, each body parsed with the last
 * answer's nodes as known: `step` given the graph parsed and the last answer, timed alone.
 */
function measureWrites(step: (doc: Y.Doc, graph: Graph, previous: Graph) => Graph) {
  const doc = new Y.Doc()
  applyGraphToDoc(doc, writtenGraph)
  let previous = graphAsApplied(writtenGraph)
  return measure(
    (_body, graph: Graph) => {
      previous = step(doc, graph, previous)
    },
    (body) => {
      const parsed = parsePatchProjectInput(body, new Map(previous.nodes.map((n) => [n.id, n])))
      if (!parsed.success || parsed.data.kind !== 'graph') throw new Error('the body is refused')
      return { nodes: parsed.data.nodes, connections: parsed.data.connections }
    },
  )
}

const loadBefore = loadavg().map((l) => round(l, 2))
const texts = Array.from({ length: 64 }, (_, n) => bodyText(n))
// As the api reads them: Node Buffers (decision 023).
const bodies = texts.map((text) => Buffer.from(text))
const someBody = () => bodies[Math.floor(Math.random() * bodies.length)]!
const decoder = new TextDecoder()
/** The last answer's nodes (frozen, as the writer keeps them), their JSON encoded once. */
const answered = graphAsApplied(writtenGraph)
const answeredNodes = new Map(answered.nodes.map((node) => [node.id, node]))
encodeGraphJson(answered)
const result = {
  benchmark: 'patch-parse',
  nodes: NODES,
  bodyBytes: Buffer.byteLength(texts[0]!),
  jsonParse: measure(() => JSON.parse(texts[Math.floor(Math.random() * texts.length)]!)),
  patchProjectInput: measure((body) => patchProjectInput.safeParse(body)),
  withKnownNodes: measure((body) => parsePatchProjectInput(body, known)),
  withStoredNodes: measure((body) =>
    parsePatchProjectInput(body, storedKnownNodes(graphIndexNodes(storedIndex))),
  ),
  textHygieneAll: measure((body) => findTextProblems(body)),
  textHygieneButKnown: measure(
    (body, taken: Set<object>) => findTextProblems(body, 20, taken),
    (body) => {
      const taken = new Set<object>()
      parsePatchProjectInput(body, known, taken)
      return taken
    },
  ),
  applyWholeGraph: measureWrites((doc, graph) => {
    applyGraphToDoc(doc, graph)
    return graphAsApplied(graph)
  }),
  applyChange: measureWrites((doc, graph, previous) => {
    const applied = graphAsApplied(graph, previous)
    applyGraphChangeToDoc(doc, previous, applied)
    return applied
  }),
  // The answer as UTF-8 bytes (the socket writes bytes): built anew, or from kept node JSON.
  answerStringify: measureWrites((_doc, graph) => {
    const applied = graphAsApplied(graph)
    Buffer.from(JSON.stringify(applied))
    return applied
  }),
  answerEncoded: measureWrites((_doc, graph, previous) => {
    const applied = graphAsApplied(graph, previous)
    encodeGraphJson(applied)
    return applied
  }),
  bytesDecodedAndParsed: measure(() =>
    parsePatchProjectInput(JSON.parse(decoder.decode(someBody())), answeredNodes),
  ),
  bytesReadAgainstKnown: measure(() =>
    parsePatchProjectInput(readGraphJson(someBody(), answeredNodes), answeredNodes),
  ),
  loadavg: { before: loadBefore, after: loadavg().map((l) => round(l, 2)) },
}
console.log(JSON.stringify(result, null, 2))
