import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/**
 * The api's imports go one way (issue 21 item 1): no file reaches itself through its imports,
 * and no feature imports a feature that imports it back. Type-only imports count: they tie
 * the files together just the same for a reader. Tests and test kits are left out (a test
 * may import whatever it checks).
 */

const SRC = dirname(fileURLToPath(import.meta.url))

/** Every source file under `dir`, tests and testing folders left out. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'testing' ? [] : sourceFiles(path)
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : []
  })
}

/** The relative modules a file imports or re-exports (static and `import()`), resolved. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const specifiers = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s+['"]([^'"]+)['"]/g),
    ...text.matchAll(/(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g),
    ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]!)
  return specifiers.filter((s) => s.startsWith('.')).map((s) => resolve(dirname(file), s))
}

/** The strongly connected components of more than one node (or a node importing itself). */
function circles(graph: Map<string, Set<string>>): string[][] {
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (node: string) => {
    index.set(node, counter)
    low.set(node, counter)
    counter += 1
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node)!, low.get(next)!))
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!))
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== node)
      if (component.length > 1 || graph.get(node)?.has(node)) found.push(component.sort())
    }
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return found
}

const files = sourceFiles(SRC)
const fileGraph = new Map(
  files.map((file) => [
    relative(SRC, file),
    new Set(importsOf(file).map((target) => relative(SRC, target))),
  ]),
)

/** `features/<name>/...` -> `<name>`; anything else is not a feature. */
const featureOf = (path: string) => /^features\/([^/]+)\//.exec(path)?.[1]

describe('the api imports one way (issue 21)', () => {
  it('reads the imports of every source file', () => {
    // The walk must see the files and their imports, or the checks below prove nothing.
    expect(files.length).toBeGreaterThan(50)
    expect(fileGraph.get('runtime.ts')).toContain('job-kinds.ts')
    expect(fileGraph.get('features/jobs/job-runner.ts')).toContain('features/jobs/job-kind.ts')
  })

  it('has no circle of files', () => {
    expect(circles(fileGraph)).toEqual([])
  })

  it('has no feature importing a feature that imports it back', () => {
    const featureGraph = new Map<string, Set<string>>()
    for (const [from, targets] of fileGraph) {
      const source = featureOf(from)
      if (!source) continue
      const arrows = featureGraph.get(source) ?? new Set<string>()
      featureGraph.set(source, arrows)
      for (const target of targets) {
        const feature = featureOf(target)
        if (feature && feature !== source) arrows.add(feature)
      }
    }
    expect(circles(featureGraph)).toEqual([])
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
