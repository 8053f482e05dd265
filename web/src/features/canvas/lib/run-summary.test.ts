import { describe, expect, it } from 'vitest'
import { runLines, runProgress, runSummary } from './run-summary'

const run = {
  credits: 7,
  nodes: [
    { nodeId: 'a', type: 'image-generator' as const, jobId: 'j1', credits: 2, waitsFor: [] },
    { nodeId: 'b', type: 'video-generator' as const, jobId: 'j2', credits: 2, waitsFor: ['a'] },
    { nodeId: 'c', type: 'video' as const, jobId: 'j3', credits: 3, waitsFor: ['a', 'b'] },
  ],
}

describe('run stale words', () => {
  it('sums up a run and each of its nodes', () => {
    expect(runSummary(run)).toBe('3 nodes · 7 credits')
    expect(runSummary({ nodes: [run.nodes[0]!], credits: 1 })).toBe('1 node · 1 credit')
    expect(runSummary({ nodes: [], credits: 0 })).toBe('0 nodes · 0 credits')
    expect(runLines(run)).toEqual([
      'Image Generator · 2 credits',
      'Video Generator · 2 credits, after 1 input',
      'Video · 3 credits, after 2 inputs',
    ])
  })

  it('counts the run’s jobs that ended, by the job each node shows', () => {
    const data: Record<string, Record<string, unknown>> = {
      a: { jobId: 'j1', jobStatus: 'failed' },
      b: { jobId: 'j2', jobStatus: 'cancelled' },
      c: { jobId: 'older', jobStatus: 'succeeded' },
    }
    expect(runProgress(run, (id) => data[id])).toEqual({ total: 3, done: 2, failed: 2 })
    data.c = { jobId: 'j3', jobStatus: 'queued' }
    expect(runProgress(run, (id) => data[id])).toEqual({ total: 3, done: 2, failed: 2 })
    data.c = { jobId: 'j3', jobStatus: 'succeeded' }
    expect(runProgress(run, (id) => data[id])).toEqual({ total: 3, done: 3, failed: 2 })
  })
})
