import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { type Graph, graphSchema } from '@reelgraph/shared'
import { ROOT } from './app-process.ts'

/** The shared graph generator (`node make-graph.mjs NODES [SEED]` prints `{nodes, connections}`). */
export const MAKE_GRAPH = join(ROOT, '..', 'shared', 'fixtures', 'make-graph.mjs')

/**
 * A realistic project graph of `nodes` nodes from the shared fixture generator, validated
 * by `graphSchema` (so it is what the api would accept).
 * @throws Error when the generator is missing or prints something that is not a graph.
 */
export function makeGraph(nodes: number, seed = 1): Graph {
  if (!existsSync(MAKE_GRAPH)) throw new Error(`The graph generator is missing: ${MAKE_GRAPH}`)
  const json = execFileSync(process.execPath, [MAKE_GRAPH, String(nodes), String(seed)], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  return graphSchema.parse(JSON.parse(json))
}

/** The `q`-quantile (0..1) of `values` by nearest rank. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))
  return sorted[rank] ?? Number.NaN
}

/** Rounds to `digits` decimals, for printing. */
export function round(value: number, digits = 2): number {
  const f = 10 ** digits
  return Math.round(value * f) / f
}

/** Mean and p99 of `times` (ms), to three decimals, as the micro-benchmarks print them. */
export function meanAndP99(times: number[]): { meanMs: number; p99Ms: number } {
  const mean = times.reduce((a, b) => a + b, 0) / times.length
  return { meanMs: round(mean, 3), p99Ms: round(quantile(times, 0.99), 3) }
}
