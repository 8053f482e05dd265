import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/**
 * The imports of a workspace's source as a graph, and its circles: what the one-way-imports
 * tests check (issue 21 item 1). Relative imports and re-exports, static and `import()`, type
 * imports included (they tie files together for a reader all the same); the web's `@/` alias
 * read as its `src/`. Tests and `testing/` folders are left out.
 */

/** Every source file under `dir`, tests and testing folders left out. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) {
      return name === 'testing' || name === 'node_modules' ? [] : sourceFiles(path)
    }
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : []
  })
}

/** The modules a file imports or re-exports, resolved to paths without extension rules. */
function importsOf(file: string, aliasRoot?: string): string[] {
  const text = readFileSync(file, 'utf8')
  const specifiers = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s+['"]([^'"]+)['"]/g),
    ...text.matchAll(/(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g),
    ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]!)
  return specifiers.flatMap((s) => {
    if (s.startsWith('.')) return [resolve(dirname(file), s)]
    if (aliasRoot && s.startsWith('@/')) return [join(aliasRoot, s.slice(2))]
    return []
  })
}

/** A file path as its graph node: relative to `root`, without `.ts`/`.tsx` (imports omit it). */
function nodeName(root: string, path: string): string {
  return relative(root, path).replace(/\.tsx?$/, '')
}

/**
 * The import graph of `root`: each source file (relative to `root`) and the files it
 * imports. `aliasRoot`: where `@/` points (the web's `src`).
 */
export function importGraph(root: string, aliasRoot?: string): Map<string, Set<string>> {
  return new Map(
    sourceFiles(root).map((file) => [
      nodeName(root, file),
      new Set(importsOf(file, aliasRoot).map((target) => nodeName(root, target))),
    ]),
  )
}

/** The strongly connected components of more than one node, or a node importing itself. */
export function circles(graph: Map<string, Set<string>>): string[][] {
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

/** `features/<name>/...` -> `<name>`; anything else is not a feature. */
export const featureOf = (path: string): string | undefined =>
  /^features\/([^/]+)\//.exec(path)?.[1]

/** The arrows between features of a file graph: each feature and the features it imports. */
export function featureGraph(files: Map<string, Set<string>>): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>()
  for (const [from, targets] of files) {
    const source = featureOf(from)
    if (!source) continue
    const arrows = graph.get(source) ?? new Set<string>()
    graph.set(source, arrows)
    for (const target of targets) {
      const feature = featureOf(target)
      if (feature && feature !== source) arrows.add(feature)
    }
  }
  return graph
}

// `node scripts/import-graph.ts api/src`: the features' arrows and every circle, as text, so
// anyone can draw the structure of a checkout (any commit's) with the project's own tools.
if (import.meta.main) {
  const root = resolve(process.argv[2] ?? 'api/src')
  const files = importGraph(root, root.endsWith(join('web', 'src')) ? root : undefined)
  const features = featureGraph(files)
  console.log(`${files.size} source files under ${relative(process.cwd(), root) || '.'}`)
  for (const [feature, arrows] of [...features].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`  ${feature} -> ${[...arrows].sort().join(', ') || '(none)'}`)
  }
  const back = circles(features)
  console.log(
    `feature circles: ${back.length ? back.map((c) => c.join(' <-> ')).join('; ') : 'none'}`,
  )
  const loops = circles(files)
  console.log(`file circles: ${loops.length}`)
  for (const loop of loops) console.log(`  ${loop.join(' -> ')}`)
}
