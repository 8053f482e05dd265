import {
  addConnection,
  addNode,
  docToGraph,
  encodeGraphIndex,
  type GraphIndex,
  graphIndexOfDoc,
  type GraphNode,
  moveNodes,
  removeNodes,
  updateNodeData,
} from '@reelgraph/shared'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { insertProjectWithOwner } from './project-access.ts'
import {
  appendProjectUpdate,
  compactProjectDocument,
  mergeStoredDocument,
  projectDocumentIsStale,
  readProjectDocument,
  readProjectDocumentChanges,
  type StoredProjectDocument,
} from './project-document-log.ts'
import { readProjectGraphIndex, snapshotOfDoc } from './project-snapshot.ts'
import type { DB } from './schema.ts'
import { type TestDatabase, testDatabaseKinds } from './testing.ts'
import type { Kysely } from 'kysely'

/** One editing step on a project's document, as a canvas or another server makes it. */
type Op =
  | { kind: 'add'; id: number; x: number }
  | { kind: 'move'; id: number; x: number; y: number }
  | { kind: 'text'; id: number; text: string }
  | { kind: 'remove'; id: number }
  | { kind: 'connect'; source: number; target: number }

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), id: fc.nat(7), x: fc.integer() }),
  fc.record({
    kind: fc.constant('move' as const),
    id: fc.nat(7),
    x: fc.integer({ min: -5000, max: 5000 }),
    y: fc.integer({ min: -5000, max: 5000 }),
  }),
  fc.record({ kind: fc.constant('text' as const), id: fc.nat(7), text: fc.string() }),
  fc.record({ kind: fc.constant('remove' as const), id: fc.nat(7) }),
  fc.record({ kind: fc.constant('connect' as const), source: fc.nat(7), target: fc.nat(7) }),
)

const nodeId = (n: number) => `editable-text-1-node${n}`

function textNode(n: number, x: number): GraphNode {
  return {
    id: nodeId(n),
    type: 'editable-text',
    label: 'Text',
    position: { x, y: 0 },
    data: { content: `node ${n}` },
    connectionPoints: 'both',
  }
}

/** Applies `ops` on two docs (two editors), each op on one of them, and syncs them now and then. */
function edit(ops: { op: Op; editor: 0 | 1; sync: boolean }[]): {
  updates: Uint8Array[]
  final: Y.Doc
} {
  const docs = [new Y.Doc(), new Y.Doc()] as const
  const updates: Uint8Array[] = []
  // What a server sees: every update of both editors, in the order it arrives.
  docs[0].on('update', (u: Uint8Array, origin: unknown) => {
    if (origin !== 'sync') updates.push(u)
  })
  docs[1].on('update', (u: Uint8Array, origin: unknown) => {
    if (origin !== 'sync') updates.push(u)
  })
  for (const { op, editor, sync } of ops) {
    const doc = docs[editor]
    const has = (n: number) => docToGraph(doc).nodes.some((node) => node.id === nodeId(n))
    if (op.kind === 'add' && !has(op.id)) addNode(doc, textNode(op.id, op.x))
    if (op.kind === 'move' && has(op.id)) {
      moveNodes(doc, new Map([[nodeId(op.id), { x: op.x, y: op.y }]]))
    }
    if (op.kind === 'text' && has(op.id)) updateNodeData(doc, nodeId(op.id), { content: op.text })
    if (op.kind === 'remove') removeNodes(doc, [nodeId(op.id)])
    if (op.kind === 'connect' && op.source !== op.target && has(op.source) && has(op.target)) {
      addConnection(doc, { source: nodeId(op.source), target: nodeId(op.target) })
    }
    if (sync) {
      Y.applyUpdate(docs[0], Y.encodeStateAsUpdate(docs[1]), 'sync')
      Y.applyUpdate(docs[1], Y.encodeStateAsUpdate(docs[0]), 'sync')
    }
  }
  const final = new Y.Doc()
  for (const u of updates) Y.applyUpdate(final, u)
  docs[0].destroy()
  docs[1].destroy()
  return { updates, final }
}

const editsArb = fc.array(
  fc.record({
    op: opArb,
    editor: fc.constantFrom(0 as const, 1 as const),
    sync: fc.boolean(),
  }),
  { minLength: 1, maxLength: 40 },
)

/** Cuts `items` into consecutive groups at the given (sorted, deduplicated) cut points. */
function cut<T>(items: T[], cuts: number[]): T[][] {
  const points = [...new Set(cuts.map((c) => c % (items.length + 1)))].sort((a, b) => a - b)
  const groups: T[][] = []
  let start = 0
  for (const p of [...points, items.length]) {
    if (p > start) groups.push(items.slice(start, p))
    start = Math.max(start, p)
  }
  return groups
}

function loadGraph(stored: StoredProjectDocument) {
  const doc = new Y.Doc()
  Y.applyUpdate(doc, mergeStoredDocument(stored))
  const graph = docToGraph(doc)
  doc.destroy()
  return graph
}

describe('the stored document: snapshot merged with its update log (issue 15 item 1)', () => {
  it('loads to the same document for any snapshot point, any split of the log, repeats and order', () => {
    fc.assert(
      fc.property(
        editsArb,
        fc.nat(),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.boolean(),
        (ops, snapshotAt, cuts, repeats, reverse) => {
          const { updates, final } = edit(ops)
          const k = snapshotAt % (updates.length + 1)
          const snapshotDoc = new Y.Doc()
          for (const u of updates.slice(0, k)) Y.applyUpdate(snapshotDoc, u)
          let log = cut(updates.slice(k), cuts).map((group) => Y.mergeUpdates(group))
          // Another server appended some of the same updates again; rows in any order.
          for (const r of repeats) if (log.length > 0) log.push(log[r % log.length]!)
          if (reverse) log = log.reverse()
          const stored: StoredProjectDocument = {
            snapshot: Y.encodeStateAsUpdate(snapshotDoc),
            updates: log,
            ids: log.map((_, i) => String(i + 1)),
            savedAt: new Date(),
            logBytes: 0,
          }
          const loaded = new Y.Doc()
          Y.applyUpdate(loaded, mergeStoredDocument(stored))
          expect(docToGraph(loaded)).toEqual(docToGraph(final))
          expect(Y.encodeStateVector(loaded)).toEqual(Y.encodeStateVector(final))
          expect(Y.equalSnapshots(Y.snapshot(loaded), Y.snapshot(final))).toBe(true)
          snapshotDoc.destroy()
          loaded.destroy()
          final.destroy()
        },
      ),
      { numRuns: 200 },
    )
  })
})

describe.each(testDatabaseKinds())('the project document log on $name (issue 15)', (kind) => {
  let database: TestDatabase
  let db: Kysely<DB>
  let userId: number
  beforeAll(async () => {
    database = await kind.create()
    db = database.db
    const user = await db
      .insertInto('users')
      .values({ name: 'Log', email: `log-${kind.name}@example.com`, password_hash: 'x' })
      .returning('id')
      .executeTakeFirstOrThrow()
    userId = user.id
  })
  afterAll(() => database.dispose())

  /** A project whose snapshot is `snapshot` and whose JSON mirrors it (as a seed leaves it). */
  async function newProject(snapshot: Uint8Array): Promise<number> {
    const doc = new Y.Doc()
    Y.applyUpdate(doc, snapshot)
    const graph = docToGraph(doc)
    doc.destroy()
    const projectId = await insertProjectWithOwner(db, {
      user_id: userId,
      name: 'log',
      description: '',
      nodes: JSON.stringify(graph.nodes),
      connections: JSON.stringify(graph.connections),
      created_at: new Date(),
      updated_at: new Date(),
    })
    await db
      .insertInto('project_documents')
      .values({ project_id: projectId, state: snapshot })
      .execute()
    return projectId
  }

  it('compaction never changes the loaded document, and materializes the REST JSON', async () => {
    await fc.assert(
      fc.asyncProperty(
        editsArb,
        fc.nat(),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.nat(),
        async (ops, snapshotAt, cuts, compactAfter) => {
          const { updates, final } = edit(ops)
          const k = snapshotAt % (updates.length + 1)
          const snapshotDoc = new Y.Doc()
          for (const u of updates.slice(0, k)) Y.applyUpdate(snapshotDoc, u)
          const projectId = await newProject(Y.encodeStateAsUpdate(snapshotDoc))
          snapshotDoc.destroy()
          const rows = cut(updates.slice(k), cuts).map((group) => Y.mergeUpdates(group))
          // Compaction in the middle of the appends, then again at the end.
          const middle = compactAfter % (rows.length + 1)
          for (const [i, update] of rows.entries()) {
            if (i === middle) await compactProjectDocument({ db, projectId })
            expect(await appendProjectUpdate({ db, projectId, update })).toBe(true)
          }
          const before = loadGraph((await readProjectDocument({ db, projectId }))!)
          expect(before).toEqual(docToGraph(final))
          const result = await compactProjectDocument({ db, projectId })
          const after = await readProjectDocument({ db, projectId })
          expect(after?.updates).toEqual([])
          expect(loadGraph(after!)).toEqual(before)
          // The rows appended after the middle compaction (all of them when there was none).
          expect(result?.merged).toBe(middle < rows.length ? rows.length - middle : rows.length)
          expect(await projectDocumentIsStale({ db, projectId })).toBe(false)
          const project = await db
            .selectFrom('projects')
            .select(['nodes', 'connections'])
            .where('id', '=', projectId)
            .executeTakeFirstOrThrow()
          expect({ nodes: project.nodes, connections: project.connections }).toEqual(before)
          final.destroy()
        },
      ),
      { numRuns: 25 },
    )
  })

  it('two compactions of one project at once merge each row once and lose no append', async () => {
    const base = new Y.Doc()
    addNode(base, textNode(0, 0))
    const projectId = await newProject(Y.encodeStateAsUpdate(base))
    const editor = new Y.Doc()
    Y.applyUpdate(editor, Y.encodeStateAsUpdate(base))
    const appends: Promise<boolean>[] = []
    editor.on('update', (update: Uint8Array) => {
      appends.push(appendProjectUpdate({ db, projectId, update }))
    })
    const compactions: Promise<unknown>[] = []
    for (let i = 1; i <= 30; i++) {
      addNode(editor, textNode(i, i * 10))
      if (i % 5 === 0) {
        compactions.push(compactProjectDocument({ db, projectId }))
        compactions.push(compactProjectDocument({ db, projectId }))
      }
    }
    expect(await Promise.all(appends)).toEqual(appends.map(() => true))
    await Promise.all(compactions)
    expect(loadGraph((await readProjectDocument({ db, projectId }))!)).toEqual(docToGraph(editor))
    await compactProjectDocument({ db, projectId })
    const stored = (await readProjectDocument({ db, projectId }))!
    expect(stored.updates).toEqual([])
    expect(loadGraph(stored)).toEqual(docToGraph(editor))
    expect(docToGraph(editor).nodes).toHaveLength(31)
  })

  it('answers a reader only what it does not hold, and the whole log once a compaction replaced the snapshot (issue 23)', async () => {
    const base = new Y.Doc()
    addNode(base, textNode(0, 0))
    const projectId = await newProject(Y.encodeStateAsUpdate(base))
    // A snapshot written a while ago, as a seed or a compaction leaves it.
    await db
      .updateTable('project_documents')
      .set({ updated_at: new Date(Date.now() - 60_000) })
      .where('project_id', '=', projectId)
      .execute()
    const editor = new Y.Doc()
    Y.applyUpdate(editor, Y.encodeStateAsUpdate(base))
    const rowIds = async () =>
      (
        await db
          .selectFrom('project_document_updates')
          .select((eb) => eb.cast<string>('id', 'text').as('id'))
          .where('project_id', '=', projectId)
          .execute()
      )
        .map((row) => row.id)
        .sort()
    /** Appends the editor's next `count` nodes, one row each. */
    const append = async (from: number, count: number) => {
      for (let i = from; i < from + count; i++) {
        const before = Y.encodeStateVector(editor)
        addNode(editor, textNode(i, i * 10))
        const update = Y.encodeStateAsUpdate(editor, before)
        expect(await appendProjectUpdate({ db, projectId, update })).toBe(true)
      }
    }
    // The reader: a copy, the snapshot it holds and the rows it holds.
    const reader = new Y.Doc()
    let held = { snapshotAt: new Date(0), ids: new Set<string>() }
    const read = async () => {
      const changes = (await readProjectDocumentChanges({
        db,
        projectId,
        snapshotAt: held.snapshotAt,
        knownIds: held.ids,
      }))!
      if (changes.snapshot) Y.applyUpdate(reader, changes.snapshot)
      for (const { update } of changes.updates) Y.applyUpdate(reader, update)
      held = { snapshotAt: changes.snapshotAt, ids: new Set(changes.ids) }
      expect([...held.ids].sort()).toEqual(await rowIds())
      expect(docToGraph(reader)).toEqual(docToGraph(editor))
      return changes
    }

    await append(1, 5)
    const first = await read()
    expect(first.snapshot).not.toBeNull()
    expect(first.updates).toHaveLength(5)
    // The snapshot held: only the two new rows come back.
    await append(6, 2)
    const second = await read()
    expect(second.snapshot).toBeNull()
    expect(second.updates.map((u) => u.id).filter((id) => first.ids.includes(id))).toEqual([])
    expect(second.updates).toHaveLength(2)
    expect(await read()).toMatchObject({ snapshot: null, updates: [] })
    // A compaction merged the rows (and so replaced the snapshot); one row came after it.
    await compactProjectDocument({ db, projectId })
    await append(8, 1)
    const third = await read()
    expect(third.snapshot).not.toBeNull()
    expect(third.ids).toHaveLength(1)
    expect(docToGraph(reader).nodes).toHaveLength(9)
  })

  it('writes the graph index with the compacted snapshot, read only for that snapshot', async () => {
    /** An index as persisted, without the id each written text has. */
    const plain = (index: GraphIndex) =>
      encodeGraphIndex(index)
        .split('\n')
        .map((line, i) => (i === 0 ? { ...JSON.parse(line), written: 0 } : JSON.parse(line)))
    const projectId = await newProject(Y.encodeStateAsUpdate(new Y.Doc()))
    const indexOf = async () => (await readProjectGraphIndex({ db, projectId }))?.index ?? null
    // The snapshot written before graph indexes: none to read.
    expect(await indexOf()).toBeNull()
    const { updates, final } = edit(
      [1, 2, 3].map((n) => ({ op: { kind: 'add', id: n, x: n }, editor: 0, sync: true }) as const),
    )
    for (const update of updates) await appendProjectUpdate({ db, projectId, update })
    await compactProjectDocument({ db, projectId })
    expect(plain((await indexOf())!)).toEqual(plain(graphIndexOfDoc(final)))
    // Rows not yet compacted: the index does not stand for the document.
    await appendProjectUpdate({ db, projectId, update: updates[0]! })
    expect(await indexOf()).toBeNull()
    // A snapshot written by anything that did not write its index: the database clears it.
    await compactProjectDocument({ db, projectId })
    expect(await indexOf()).not.toBeNull()
    const doc = new Y.Doc()
    Y.applyUpdate(doc, mergeStoredDocument((await readProjectDocument({ db, projectId }))!))
    addNode(doc, textNode(4, 4))
    await db
      .updateTable('project_documents')
      .set({ state: Y.encodeStateAsUpdate(doc) })
      .where('project_id', '=', projectId)
      .execute()
    expect(await indexOf()).toBeNull()
  })

  it('reads a graph index of many lines back in their order', async () => {
    const doc = new Y.Doc()
    // About 2,000 characters of index per node: eight lines or more of node rows.
    for (let n = 1; n <= 300; n++) {
      addNode(doc, { ...textNode(n, n), data: { content: `node ${n} ${'words '.repeat(300)}` } })
    }
    const projectId = await newProject(Y.encodeStateAsUpdate(new Y.Doc()))
    const { state, graph_index } = snapshotOfDoc(doc)
    expect(graph_index.split('\n').length).toBeGreaterThan(8)
    await db
      .updateTable('project_documents')
      .set({ state, graph_index })
      .where('project_id', '=', projectId)
      .execute()
    const read = await readProjectGraphIndex({ db, projectId })
    expect(read).not.toBeNull()
    const ids = (index: GraphIndex) => [...index.nodes.keys()]
    expect(ids(read!.index)).toEqual(ids(graphIndexOfDoc(doc)))
    expect(encodeGraphIndex(read!.index).split('\n').slice(1)).toEqual(
      graph_index.split('\n').slice(1),
    )
    expect(read!.snapshotBytes).toBe(state.byteLength)
  })

  it('appends nothing to a deleted project, and reports it', async () => {
    const projectId = await newProject(Y.encodeStateAsUpdate(new Y.Doc()))
    await db.deleteFrom('projects').where('id', '=', projectId).execute()
    const doc = new Y.Doc()
    addNode(doc, textNode(1, 0))
    expect(await appendProjectUpdate({ db, projectId, update: Y.encodeStateAsUpdate(doc) })).toBe(
      false,
    )
    expect(await compactProjectDocument({ db, projectId })).toBeNull()
    expect(await readProjectDocument({ db, projectId })).toBeNull()
  })
})
