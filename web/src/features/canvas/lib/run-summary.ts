import { NODE_TITLES, type ProjectRunOutput } from '@reelgraph/shared'

/**
 * Words and progress of "Run stale" (issue 42 item 4): pure functions over the run's answer
 * and the canvas's node data, apart from the button.
 */

/** "3 nodes · 7 credits", "1 node · 1 credit". */
export function runSummary(run: Pick<ProjectRunOutput, 'nodes' | 'credits'>): string {
  const n = run.nodes.length
  const c = run.credits
  return `${n} ${n === 1 ? 'node' : 'nodes'} · ${c} ${c === 1 ? 'credit' : 'credits'}`
}

/** One line per node of a quote, in its order: "Image Generator (waits for 1)". */
export function runLines(run: Pick<ProjectRunOutput, 'nodes'>): string[] {
  return run.nodes.map((n) => {
    const waits =
      n.waitsFor.length > 0
        ? `, after ${n.waitsFor.length} ${n.waitsFor.length === 1 ? 'input' : 'inputs'}`
        : ''
    return `${NODE_TITLES[n.type]} · ${n.credits} ${n.credits === 1 ? 'credit' : 'credits'}${waits}`
  })
}

/** How far a started run is, read from its nodes' job fields on the canvas. */
export interface RunProgress {
  total: number
  /** Jobs that ended (succeeded, failed or cancelled). */
  done: number
  failed: number
}

/**
 * The progress of the run's jobs: each node's `jobId` and `jobStatus` as the canvas shows
 * them (a node showing another job counts as not done).
 */
export function runProgress(
  run: Pick<ProjectRunOutput, 'nodes'>,
  dataOf: (nodeId: string) => Readonly<Record<string, unknown>> | undefined,
): RunProgress {
  let done = 0
  let failed = 0
  for (const n of run.nodes) {
    const data = dataOf(n.nodeId)
    if (!data || data.jobId !== n.jobId) continue
    if (data.jobStatus === 'succeeded') done += 1
    else if (data.jobStatus === 'failed' || data.jobStatus === 'cancelled') {
      done += 1
      failed += 1
    }
  }
  return { total: run.nodes.length, done, failed }
}
