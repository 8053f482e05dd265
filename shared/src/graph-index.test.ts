import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { docCounts, validateDocChange } from './doc-validation.ts'
import { type Graph, type GraphNode, storedKnownNodes } from './graph.ts'
import {
  applyGraphChangeToDoc,
  applyGraphToDoc,
  docToGraph,
  getNodesMap,
  graphAsApplied,
} from './graph-doc.ts'
import {
  decodeGraphIndex,
  GRAPH_INDEX_LINE_CHARS,
  encodeGraphIndex,
  type GraphIndex,
  graphIndexNodes,
  graphIndexOfDoc,
  graphIndexWriteRefusal,
  newClientId,
  writeGraphToIndex,
} from './graph-index.ts'
import { graphArbitraries } from './testing/graph-arbitraries.ts'

const { graph: graphArb } = graphArbitraries({ narrow: true })

/** `count` scenes of about 900 characters of narration each, in a chain. */
function textGraph(count: number): Graph {
  const nodes: GraphNode[] = Array.from({ length: count }, (_, i) => ({
    id: `node-${i}`,
    type: 'scene',
    label: `Scene ${i}`,
    position: { x: i * 10, y: i * 5 },
    data: { narration: `Scene ${i}: ${'what the narrator says over it '.repeat(29)}` },
    connectionPoints: 'both',
  }))
  const connections = nodes.slice(1).map((n, i) => ({ source: nodes[i]!.id, target: n.id }))
  return { nodes, connections }
}

/**
 * A stored document with a history: each graph applied in turn by one of two editors
 * (two clients, so keys have been set, overwritten and deleted by several).
 */
function storedDoc(history: Graph[]): Y.Doc {
  const editors = [new Y.Doc(), new Y.Doc()]
  history.forEach((graph, i) => {
    const editor = editors[i % 2]!
    const other = editors[(i + 1) % 2]!
    Y.applyUpdate(editor, Y.encodeStateAsUpdate(other))
    applyGraphToDoc(editor, graph)
    Y.applyUpdate(other, Y.encodeStateAsUpdate(editor))
  })
  const stored = new Y.Doc()
  Y.applyUpdate(stored, Y.encodeStateAsUpdate(editors[0]!))
  return stored
}

function copyOf(doc: Y.Doc): Y.Doc {
  const copy = new Y.Doc()
  Y.applyUpdate(copy, Y.encodeStateAsUpdate(doc))
  return copy
}

/** The persisted lines of `index` read back: its header, and its node and connection rows. */
function persisted(index: GraphIndex) {
  const [first, ...lines] = encodeGraphIndex(index).split('\n')
  const header = JSON.parse(first!) as { lines: { nodes: number } } & Record<string, unknown>
  const rowsOf = (part: string[]) => part.flatMap((line) => JSON.parse(line) as unknown[])
  return {
    header,
    nodes: rowsOf(lines.slice(0, header.lines.nodes)),
    connections: rowsOf(lines.slice(header.lines.nodes)),
  }
}

/** The index as what matters to a writer: each key's last id, kind and value (by key). */
function shape(index: GraphIndex): unknown {
  const parsed = persisted(index)
  const rows = (list: unknown): unknown =>
    (list as unknown[][])
      .map(([key, client, clock, length, kind, value]) => [
        key,
        client,
        (clock as number) + (length as number) - 1,
        kind,
        kind === 2 ? rows(value) : value,
      ])
      .sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1))
  return { nodes: rows(parsed.nodes), connections: rows(parsed.connections) }
}

/**
 * An update as what it does, whoever wrote it: its deletions, and each item's origin (the
 * writer's own items by their place in the update), parent, key and content.
 */
function effect(update: Uint8Array, writer: number, firstClock: number): unknown {
  const { structs, ds } = Y.decodeUpdate(update)
  const own = (id: Y.ID | null) =>
    id && id.client === writer && id.clock >= firstClock
      ? ['own', id.clock - firstClock]
      : id && [id.client, id.clock]
  const deleted = [...ds.clients].flatMap(([client, ranges]) =>
    ranges.map((r) => ({ client, clock: r.clock, len: r.len })),
  )
  const isDeleted = ({ client, clock }: Y.ID) =>
    deleted.some((r) => r.client === client && r.clock <= clock && clock < r.clock + r.len)
  const items = structs.map((struct) => {
    const item = struct as Y.Item
    const parent = item.parent as unknown
    return [
      own(item.origin),
      typeof parent === 'string' ? parent : own(parent as Y.ID | null),
      item.origin ? null : item.parentSub,
      // Yjs writes an item its own transaction deleted as deleted content.
      isDeleted(item.id)
        ? 'deleted'
        : item.content instanceof Y.ContentType
          ? 'a Yjs type'
          : item.content.getContent(),
    ]
  })
  const ranges = deleted.map((r) => [...own(Y.createID(r.client, r.clock))!, r.len])
  return { items, deleted: ranges.sort() }
}

/** Writes through the index; checks the update against Yjs' own write to a copy. */
function writeAndCompare(options: {
  stored: Y.Doc
  index: GraphIndex
  graph: Graph
  previous?: Graph
  client: number
  clock: number
}) {
  const { stored, index, graph, previous } = options
  const write = writeGraphToIndex({ ...options, previous })
  // Yjs' own write, on a copy of the stored document.
  const expected = copyOf(stored)
  const before = docCounts(expected)
  let changed: Y.Transaction['changed'] = new Map()
  expected.on('afterTransaction', (t: Y.Transaction) => {
    changed = t.changed
  })
  let yjsUpdate: Uint8Array | null = null
  expected.on('update', (u: Uint8Array) => {
    yjsUpdate = u
  })
  if (previous) applyGraphChangeToDoc(expected, previous, graph)
  else applyGraphToDoc(expected, graph)
  // The index's update, on another copy.
  const actual = copyOf(stored)
  if (write.update) Y.applyUpdate(actual, write.update)
  expect(actual.store.pendingStructs).toBeNull()
  expect(actual.store.pendingDs).toBeNull()
  expect(actual.getMap('nodes').toJSON()).toEqual(expected.getMap('nodes').toJSON())
  expect(actual.getMap('connections').toJSON()).toEqual(expected.getMap('connections').toJSON())
  expect(docToGraph(actual)).toEqual(docToGraph(expected))
  // Nothing written exactly when Yjs writes nothing; else the same items and deletions.
  expect(write.update === null).toBe(yjsUpdate === null)
  if (write.update && yjsUpdate) {
    expect(effect(write.update, options.client, options.clock)).toEqual(
      effect(yjsUpdate, expected.clientID, 0),
    )
  }
  // The index is now the document's.
  expect(shape(index)).toEqual(shape(graphIndexOfDoc(actual)))
  // The same rules' verdict as on the applied copy.
  const refusal = graphIndexWriteRefusal(index, write)
  const oracle = changed.size > 0 ? validateDocChange(expected, changed, before) : null
  expect(refusal?.reason ?? null).toEqual(oracle?.reason ?? null)
  return { write, actual }
}

describe('graph index (issue 23, decision 020)', () => {
  it('writes a graph as applyGraphToDoc does, over any history', () => {
    fc.assert(
      fc.property(
        fc.array(graphArb, { minLength: 1, maxLength: 4 }),
        graphArb,
        (history, graph) => {
          const stored = storedDoc(history)
          const index = graphIndexOfDoc(stored)
          const client = newClientId(index.clients)
          writeAndCompare({ stored, index, graph, client, clock: 0 })
        },
      ),
      { numRuns: 400 },
    )
  })

  it('writes only the change, as applyGraphChangeToDoc does, write after write', () => {
    fc.assert(
      fc.property(
        fc.array(graphArb, { minLength: 1, maxLength: 3 }),
        fc.array(graphArb, { minLength: 1, maxLength: 3 }),
        fc.array(fc.boolean(), { maxLength: 8 }),
        (history, writes, picks) => {
          let stored = storedDoc(history)
          // Read back from its persisted form, as a process that has not seen the project does.
          const index = decodeGraphIndex(encodeGraphIndex(graphIndexOfDoc(stored)))!
          expect(index).not.toBeNull()
          const client = newClientId(index.clients)
          let clock = 0
          let previous: Graph | undefined
          for (const next of writes) {
            // An autosave sends the nodes answered before again, some of them, with others.
            const again = previous ? previous.nodes.filter((_, i) => picks[i]) : []
            const body = { nodes: [...again, ...next.nodes], connections: next.connections }
            const graph = graphAsApplied(body, previous)
            const { write, actual } = writeAndCompare({
              stored,
              index,
              graph: previous ? graph : body,
              previous,
              client,
              clock,
            })
            clock = write.nextClock
            stored = actual
            previous = graph
          }
        },
      ),
      { numRuns: 300 },
    )
  })

  it('writes a first save as applyGraphToDoc does, given back the stored nodes it read from a document others wrote into', () => {
    /** What another writer may have left in a node map (read with defaults, or left out). */
    const junkArb = fc.constantFrom(
      (node: Y.Map<unknown>) => node.delete('label'),
      (node: Y.Map<unknown>) => node.set('label', 5),
      (node: Y.Map<unknown>) => node.set('connectionPoints', 'sideways'),
      (node: Y.Map<unknown>) => node.delete('data'),
      (node: Y.Map<unknown>) => (node.get('data') as Y.Map<unknown>)?.set('x', null),
      (node: Y.Map<unknown>) => (node.get('data') as Y.Map<unknown>)?.set('y', Infinity),
      (node: Y.Map<unknown>) => node.set('extra', 1),
      () => undefined,
    )
    let given = 0
    fc.assert(
      fc.property(
        fc.array(graphArb, { minLength: 1, maxLength: 3 }),
        fc.array(junkArb, { maxLength: 6 }),
        graphArb,
        fc.array(fc.constantFrom('again', 'changed', 'dropped', 'twice'), { maxLength: 12 }),
        (history, junk, next, fates) => {
          const stored = storedDoc(history)
          const ynodes = [...getNodesMap(stored).values()]
          junk.forEach((spoil, i) => {
            const ynode = ynodes[i % Math.max(1, ynodes.length)]
            if (ynode instanceof Y.Map) stored.transact(() => spoil(ynode))
          })
          // As a process that has not seen the project reads it (a null data value included,
          // which the persisted index once could not read back), and the nodes it offers as known.
          const index = decodeGraphIndex(encodeGraphIndex(graphIndexOfDoc(stored)))!
          const read = [...storedKnownNodes(graphIndexNodes(index)).values()]
          const nodes: GraphNode[] = []
          read.forEach((node, i) => {
            const fate = fates[i] ?? 'again'
            if (fate === 'again') nodes.push(node)
            if (fate === 'changed') nodes.push({ ...node, label: `${node.label}!` })
            // A repeated id: the changed copy first, the read node after puts it back.
            if (fate === 'twice') nodes.push({ ...node, label: 'other' }, node)
          })
          given += nodes.filter((n) => read.includes(n)).length
          const taken = new Set(nodes.map((n) => n.id))
          const body = {
            nodes: [...nodes, ...next.nodes.filter((n) => !taken.has(n.id))],
            connections: next.connections,
          }
          const client = newClientId(index.clients)
          writeAndCompare({ stored, index, graph: body, client, clock: 0 })
        },
      ),
      { numRuns: 400 },
    )
    // Read nodes were given back, not only new ones.
    expect(given).toBeGreaterThan(200)
  })

  it('checks every data value of a node given twice, the first time new', () => {
    // Found by the first property: the second write of the id must not forget the first's.
    const node = (connectionPoints: GraphNode['connectionPoints']): GraphNode => ({
      id: 'video-generator-1700000000005-a5',
      type: 'image',
      label: '',
      position: { x: 0, y: 0 },
      data: { width: false },
      connectionPoints,
    })
    const stored = storedDoc([{ nodes: [], connections: [] }])
    const index = graphIndexOfDoc(stored)
    const graph = { nodes: [node('input'), node('output')], connections: [] }
    const client = newClientId(index.clients)
    const { write } = writeAndCompare({ stored, index, graph, client, clock: 0 })
    expect(graphIndexWriteRefusal(index, write)?.reason).toBe('invalid-node')
  })

  it('moves one node of a stored project with one small update', () => {
    const nodes = Array.from({ length: 50 }, (_, i) => ({
      id: `editable-text-${1700000000000 + i}-n${i}`,
      type: 'editable-text' as const,
      label: `Text ${i}`,
      position: { x: i, y: 0 },
      data: { content: 'x'.repeat(200) },
      connectionPoints: 'both' as const,
    }))
    const stored = storedDoc([{ nodes, connections: [] }])
    const index = graphIndexOfDoc(stored)
    const previous = graphAsApplied({ nodes, connections: [] })
    const moved = { ...previous.nodes[7]!, position: { x: 70, y: 7 } }
    const graph = graphAsApplied(
      { nodes: previous.nodes.map((n, i) => (i === 7 ? moved : n)), connections: [] },
      previous,
    )
    const { write, actual } = writeAndCompare({
      stored,
      index,
      graph,
      previous,
      client: newClientId(index.clients),
      clock: 0,
    })
    expect(write.touched.nodes).toEqual(new Set([moved.id]))
    expect(write.update!.byteLength).toBeLessThan(40)
    const ynode = getNodesMap(actual).get(moved.id)!
    expect(ynode.get('position')).toEqual({ x: 70, y: 7 })
  })

  it('is read back from its persisted form, and not from text that is not an index', () => {
    const stored = storedDoc([{ nodes: [], connections: [] }])
    const text = encodeGraphIndex(graphIndexOfDoc(stored))
    expect(shape(decodeGraphIndex(text)!)).toEqual(shape(graphIndexOfDoc(stored)))
    // A null value (another writer's) is a value like any other, not a broken row.
    const withNull = storedDoc([{ nodes: [], connections: [] }])
    withNull.getMap('nodes').set('n', new Y.Map([['data', new Y.Map([['x', null]])]]))
    const decoded = decodeGraphIndex(encodeGraphIndex(graphIndexOfDoc(withNull)))
    expect(decoded).not.toBeNull()
    expect(shape(decoded!)).toEqual(shape(graphIndexOfDoc(withNull)))
    expect(
      decodeGraphIndex('{"v":1,"clients":[],"timelineRegisters":0,"nodes":[["x",1]]}'),
    ).toBeNull()
    expect(decodeGraphIndex('not json')).toBeNull()
  })

  it('is persisted in lines short enough for regular heap strings, read whole or line by line', () => {
    // A graph of about 300 KB of index: several lines of node rows.
    const graph = textGraph(300)
    const stored = storedDoc([graph])
    const text = encodeGraphIndex(graphIndexOfDoc(stored))
    const lines = text.split('\n')
    expect(text.length).toBeGreaterThan(4 * GRAPH_INDEX_LINE_CHARS)
    expect(lines.length).toBeGreaterThan(5)
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(GRAPH_INDEX_LINE_CHARS)
    const expected = shape(graphIndexOfDoc(stored))
    expect(shape(decodeGraphIndex(text)!)).toEqual(expected)
    expect(shape(decodeGraphIndex(lines)!)).toEqual(expected)
    // A row longer than a line is a line of its own.
    const long = storedDoc([graph])
    long.getMap('nodes').set('long', new Y.Map([['data', new Y.Map([['x', 'y'.repeat(70_000)]])]]))
    const longLines = encodeGraphIndex(graphIndexOfDoc(long)).split('\n')
    expect(longLines.some((line) => line.length > GRAPH_INDEX_LINE_CHARS)).toBe(true)
    expect(shape(decodeGraphIndex(longLines)!)).toEqual(shape(graphIndexOfDoc(long)))
    // Lines missing, extra or out of order are not an index.
    expect(decodeGraphIndex(lines.slice(0, -1))).toBeNull()
    expect(decodeGraphIndex([...lines, '[]'])).toBeNull()
    expect(decodeGraphIndex([lines[0]!, '{}', ...lines.slice(2)])).toBeNull()
    expect(decodeGraphIndex([])).toBeNull()
  })

  it('still reads the single JSON text of its first version', () => {
    const stored = storedDoc([textGraph(40)])
    const { header, nodes, connections } = persisted(graphIndexOfDoc(stored))
    const { lines: _lines, ...rest } = header
    const v1 = JSON.stringify({ ...rest, v: 1, nodes, connections })
    expect(shape(decodeGraphIndex(v1)!)).toEqual(shape(graphIndexOfDoc(stored)))
    // The first version is one line: more is not an index.
    expect(decodeGraphIndex([v1, '[]'])).toBeNull()
  })

  it('reads a key given twice in its first place with its last item, in maps small and large', () => {
    // Twenty keys: past the count a map scans (the nodes and connections maps).
    const rows = (keys: number) => Array.from({ length: keys }, (_, i) => [`k${i}`, 7, i, 1, 1, i])
    for (const keys of [3, 20]) {
      const list = [...rows(keys), ['k1', 9, 50, 2, 1, 'last'], ['k2', 9, 60, 1, 0]]
      const text = JSON.stringify({
        v: 1,
        clients: [7, 9],
        timelineRegisters: 0,
        nodes: list,
        connections: [],
      })
      const index = decodeGraphIndex(text)!
      expect([...index.nodes.keys()]).toEqual(
        Array.from({ length: keys }, (_, i) => `k${i}`).filter((k) => k !== 'k2'),
      )
      expect(index.nodes.size).toBe(keys - 1)
      expect(index.nodes.get('k1')).toBe('last')
      expect(index.nodes.last('k1')).toEqual({ client: 9, clock: 50, length: 2, value: 'last' })
      expect(index.nodes.last('k2')).toEqual({ client: 9, clock: 60, length: 1, value: undefined })
      expect(index.nodes.last('missing')).toBeUndefined()
    }
  })

  it('reads the nodes docToGraph reads, from the persisted index, over any history', () => {
    fc.assert(
      fc.property(fc.array(graphArb, { minLength: 1, maxLength: 4 }), (history) => {
        const stored = storedDoc(history)
        const index = decodeGraphIndex(encodeGraphIndex(graphIndexOfDoc(stored)))!
        const byId = (a: GraphNode, b: GraphNode) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
        expect(graphIndexNodes(index).sort(byId)).toEqual(docToGraph(stored).nodes)
      }),
      { numRuns: 60 },
    )
  })

  it('offers a stored node as known only when its data reads for its type, frozen', () => {
    const video = (id: string, subtitles: unknown) =>
      ({
        id,
        type: 'video',
        label: 'Video',
        position: { x: 0, y: 0 },
        data: { subtitles },
        connectionPoints: 'both',
      }) as GraphNode
    const readable = video('video-1-a', true)
    // Stored when the node had another type, or by a change the rules did not check again.
    const unreadable = video('video-1-b', 'yes')
    const known = storedKnownNodes([readable, unreadable])
    expect([...known.keys()]).toEqual(['video-1-a'])
    expect(known.get('video-1-a')).toEqual(readable)
    expect(Object.isFrozen(known.get('video-1-a'))).toBe(true)
    expect(Object.isFrozen(known.get('video-1-a')!.data)).toBe(true)
  })

  it('picks a client id the document has not used', () => {
    const used = new Set([1, 2, 3])
    for (let i = 0; i < 50; i++) expect(used.has(newClientId(used))).toBe(false)
  })
})
