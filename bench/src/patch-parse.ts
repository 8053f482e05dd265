/**
 * What parsing one REST autosave body costs the api (issue 23, decision 020): a
 * `PATCH /api/projects/:id` body of the whole graph (`make-graph.mjs NODES SEED`, default
 * 300 7) with one node moved, read by `JSON.parse`, then by `patchProjectInput` (every node
 * parsed) and by `parsePatchProjectInput` with the graph written before as its known nodes
 * (only the moved node parsed), then checked for text hygiene (the api's `findTextProblems`,
 * all of it or all but the known nodes). Reported: the mean and p99 of each, in ms, over
 * RUNS bodies, with the load average.
 *
 * Run: npm run patch-parse -w bench   (optional: NODES SEED)
 */
import { loadavg } from 'node:os'
import { findTextProblems, parsePatchProjectInput, patchProjectInput } from '@reelgraph/shared'
import { makeGraph, quantile, round } from './graph-fixture.ts'

const NODES = Number(process.argv[2] ?? 300)
const SEED = Number(process.argv[3] ?? 7)
const WARMUP = 200
const RUNS = 1000

const graph = makeGraph(NODES, SEED)
const written = patchProjectInput.parse(graph)
if (written.kind !== 'graph') throw new Error('the fixture is not a graph')
const known = new Map(written.nodes.map((node) => [node.id, node]))

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
  const mean = times.reduce((a, b) => a + b, 0) / times.length
  return { meanMs: round(mean, 3), p99Ms: round(quantile(times, 0.99), 3) }
}

const loadBefore = loadavg().map((l) => round(l, 2))
const texts = Array.from({ length: 64 }, (_, n) => bodyText(n))
const result = {
  benchmark: 'patch-parse',
  nodes: NODES,
  bodyBytes: Buffer.byteLength(texts[0]!),
  jsonParse: measure(() => JSON.parse(texts[Math.floor(Math.random() * texts.length)]!)),
  patchProjectInput: measure((body) => patchProjectInput.safeParse(body)),
  withKnownNodes: measure((body) => parsePatchProjectInput(body, known)),
  textHygieneAll: measure((body) => findTextProblems(body)),
  textHygieneButKnown: measure(
    (body, taken: Set<object>) => findTextProblems(body, 20, taken),
    (body) => {
      const taken = new Set<object>()
      parsePatchProjectInput(body, known, taken)
      return taken
    },
  ),
  loadavg: { before: loadBefore, after: loadavg().map((l) => round(l, 2)) },
}
console.log(JSON.stringify(result, null, 2))
