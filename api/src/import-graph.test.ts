import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { circles, featureGraph, featureOf, importGraph } from '../../scripts/import-graph.ts'

/**
 * Imports go one way (issue 21 item 1): no file reaches itself through its imports, in the api
 * or any other workspace, and no api feature imports a feature that imports it back.
 */

const SRC = dirname(fileURLToPath(import.meta.url))
const ROOT = join(SRC, '..', '..')
const fileGraph = importGraph(SRC)

describe('the api imports one way (issue 21)', () => {
  it('reads the imports of every source file', () => {
    // The walk must see the files and their imports, or the checks below prove nothing.
    expect(fileGraph.size).toBeGreaterThan(50)
    expect(fileGraph.get('runtime')).toContain('job-kinds')
    expect(fileGraph.get('features/jobs/job-runner')).toContain('features/jobs/job-kind')
  })

  it('has no circle of files', () => {
    expect(circles(fileGraph)).toEqual([])
  })

  it('has no feature importing a feature that imports it back', () => {
    expect(circles(featureGraph(fileGraph))).toEqual([])
  })

  it('keeps the jobs feature free of any kind: it imports no feature that defines one', () => {
    const kindFeatures = new Set(['generation', 'video'])
    const reached = [...fileGraph]
      .filter(([from]) => featureOf(from) === 'jobs')
      .flatMap(([from, targets]) =>
        [...targets]
          .filter((t) => kindFeatures.has(featureOf(t) ?? ''))
          .map((t) => `${from} -> ${t}`),
      )
    expect(reached).toEqual([])
  })
})

describe('every workspace imports one way', () => {
  // shared is loaded by Node and the browser alike: a circle there is an initialisation order
  // bug ("Cannot access X before initialization"), not only a reading one.
  for (const workspace of ['shared', 'db', 'media', 'sync-server', 'worker', 'web']) {
    it(`${workspace} has no circle of files`, () => {
      const src = join(ROOT, workspace, 'src')
      const graph = importGraph(src, workspace === 'web' ? src : undefined)
      expect(graph.size).toBeGreaterThan(0)
      expect(circles(graph)).toEqual([])
    })
  }
})
