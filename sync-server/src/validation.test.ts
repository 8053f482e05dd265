import { readFile } from 'node:fs/promises'
import { mergeStoredDocument, readProjectDocument } from '@reelgraph/db'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import {
  addNode,
  createNodeId,
  cutFieldKey,
  defaultCutId,
  docFilm,
  editCut,
  docToGraph,
  getNodesMap,
  getTimelinesMap,
  type GraphNode,
  MAX_NODES,
  MAX_TEXT_FIELD_BYTES,
  MAX_TIMELINE_CUTS,
  moveCut,
  nodeToYMap,
  settingKey,
  SYNC_UPDATE_REFUSED,
  UPDATE_REFUSAL_MESSAGES,
  UPDATE_REFUSAL_REASONS,
  type UpdateRefusalReason,
  type UpdateRefusedMessage,
  updateNodeData,
} from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { useSyncServer } from './testing/sync-fixture.ts'
import {
  childDatabase,
  connectClient,
  createProject,
  createUser,
  sampleGraph,
  spawnSyncServer,
  storedGraphs,
  type TestClient,
  textNode,
  waitFor,
} from './testing/sync-test-kit.ts'

/** A hostile change an editor can make to their copy of the document (issue 11 items 1, 2). */
interface Hostile {
  reason: UpdateRefusalReason
  /** Makes the change in the attacker's doc (synced with the project first). */
  write(doc: Y.Doc): void
  /** Prepares the attacker's doc before it connects (e.g. a root typed as an array). */
  prepare?(doc: Y.Doc): void
}

/** A raw node map, as a client could write it, with `patch` over a valid text node. */
function rawNode(patch: Record<string, unknown>): Y.Map<unknown> {
  const ynode = nodeToYMap(textNode('raw'))
  for (const [key, value] of Object.entries(patch)) ynode.set(key, value)
  return ynode
}

function firstNodeId(doc: Y.Doc): string {
  const id = [...getNodesMap(doc).keys()][0]
  if (!id) throw new Error('the project has no node')
  return id
}

// An unpaired surrogate cannot travel in a Yjs update: lib0 writes strings as UTF-8 and
// replaces it with U+FFFD on the sender's side. REST (JSON) can carry one: see the api tests.
const HOSTILE: Record<string, Hostile> = {
  'a NUL in a node label': {
    reason: UPDATE_REFUSAL_REASONS.invalidText,
    write: (doc) => addNode(doc, { ...textNode('fine'), label: 'Te\u0000xt' }),
  },
  'a NUL in a data value': {
    reason: UPDATE_REFUSAL_REASONS.invalidText,
    write: (doc) => updateNodeData(doc, firstNodeId(doc), { content: 'poison\u0000' }),
  },
  'a text field over 100 KB': {
    reason: UPDATE_REFUSAL_REASONS.textTooLong,
    write: (doc) =>
      updateNodeData(doc, firstNodeId(doc), { content: 'x'.repeat(MAX_TEXT_FIELD_BYTES + 1) }),
  },
  'a node of type evil<script>': {
    reason: UPDATE_REFUSAL_REASONS.invalidNode,
    write: (doc) =>
      getNodesMap(doc).set(createNodeId('scene'), rawNode({ type: 'evil<script>' }) as never),
  },
  'a position {x: "NaN", y: null}': {
    reason: UPDATE_REFUSAL_REASONS.invalidNode,
    write: (doc) =>
      getNodesMap(doc).set(
        createNodeId('scene'),
        rawNode({ position: { x: 'NaN', y: null } }) as never,
      ),
  },
  'a nodes entry that is a number': {
    reason: UPDATE_REFUSAL_REASONS.invalidNode,
    write: (doc) => doc.getMap<unknown>('nodes').set(createNodeId('scene'), 42),
  },
  'a 5,000-character node id': {
    reason: UPDATE_REFUSAL_REASONS.invalidNode,
    write: (doc) => getNodesMap(doc).set('a'.repeat(5000), rawNode({}) as never),
  },
  'an unknown top-level Y.Array': {
    reason: UPDATE_REFUSAL_REASONS.documentShape,
    write: (doc) => doc.getArray('junk').push(['anything']),
  },
  'the nodes map written as a Y.Array': {
    reason: UPDATE_REFUSAL_REASONS.documentShape,
    prepare: (doc) => doc.getArray('nodes'),
    write: (doc) => doc.getArray('nodes').push([{ id: 'x' }]),
  },
  'a connection that is not {source, target}': {
    reason: UPDATE_REFUSAL_REASONS.invalidConnection,
    write: (doc) => doc.getMap<unknown>('connections').set('a->b', { source: 1, evil: true }),
  },
  'a timeline register of an unknown field (issue 24)': {
    reason: UPDATE_REFUSAL_REASONS.invalidTimeline,
    write: (doc) => getTimelinesMap(doc).set(`${firstNodeId(doc)}/cut/scene:x/evil`, 1),
  },
  'a timeline cut with a negative in point': {
    reason: UPDATE_REFUSAL_REASONS.invalidTimeline,
    write: (doc) =>
      getTimelinesMap(doc).set(cutFieldKey(firstNodeId(doc), 'scene:x', 'inMs'), -1_000),
  },
  'timeline music from an address a person typed': {
    reason: UPDATE_REFUSAL_REASONS.invalidTimeline,
    write: (doc) =>
      getTimelinesMap(doc).set(settingKey(firstNodeId(doc), 'music'), 'http://10.0.0.1/a.wav'),
  },
  'a timeline register holding a Y.Map': {
    reason: UPDATE_REFUSAL_REASONS.invalidTimeline,
    write: (doc) =>
      getTimelinesMap(doc).set(settingKey(firstNodeId(doc), 'titleText'), new Y.Map() as never),
  },
  // Issue 40 item 7: values of any shape are refused in words, never a crash and a reset.
  'a timeline value {constructor: null}': {
    reason: UPDATE_REFUSAL_REASONS.invalidTimeline,
    write: (doc) => {
      // Y.Map.set reads `constructor` once to pick the content kind; the update then carries
      // `{"constructor": null}`, as a client writing its own bytes would send it.
      let reads = 0
      const value = {}
      Object.defineProperty(value, 'constructor', {
        enumerable: true,
        get: () => (reads++ === 0 ? Object : null),
      })
      getTimelinesMap(doc).set(settingKey(firstNodeId(doc), 'titleText'), value as never)
    },
  },
  'a timeline value whose __proto__ key is {constructor: null}': {
    reason: UPDATE_REFUSAL_REASONS.invalidTimeline,
    write: (doc) =>
      getTimelinesMap(doc).set(
        cutFieldKey(firstNodeId(doc), 'scene:x', 'holdMs'),
        JSON.parse('{"__proto__": {"constructor": null}}'),
      ),
  },
  'a timeline value that is a list': {
    reason: UPDATE_REFUSAL_REASONS.invalidTimeline,
    write: (doc) =>
      getTimelinesMap(doc).set(settingKey(firstNodeId(doc), 'musicVolume'), [0.5] as never),
  },
  'a timeline value nested 3,000 deep': {
    reason: UPDATE_REFUSAL_REASONS.invalidTimeline,
    write: (doc) => {
      let value: unknown = 'leaf'
      for (let i = 0; i < 3_000; i++) value = i % 2 === 0 ? [value] : { ['__proto__']: value }
      getTimelinesMap(doc).set(settingKey(firstNodeId(doc), 'endText'), value as never)
    },
  },
  'a timeline of more than 300 cuts': {
    reason: UPDATE_REFUSAL_REASONS.tooManyCuts,
    write: (doc) =>
      doc.transact(() => {
        const video = firstNodeId(doc)
        for (let i = 0; i <= MAX_TIMELINE_CUTS; i++) {
          getTimelinesMap(doc).set(cutFieldKey(video, `split-${i}`, 'holdMs'), 1_000)
        }
      }),
  },
  'more than 2,000 nodes': {
    reason: UPDATE_REFUSAL_REASONS.tooManyNodes,
    write: (doc) =>
      doc.transact(() => {
        const nodes = getNodesMap(doc)
        for (let i = nodes.size; i <= MAX_NODES; i++) {
          nodes.set(createNodeId('editable-text'), nodeToYMap(textNode(`n${i}`, i)))
        }
      }),
  },
}

/** The `update-refused` message `client` got, once it got one. */
function refusalOf(client: TestClient): UpdateRefusedMessage | undefined {
  return client.messages.find((m): m is UpdateRefusedMessage => m.type === 'update-refused')
}

/** Whether anything `clientId` wrote is in the Yjs state `state`. */
function holdsClient(state: Uint8Array, clientId: number): boolean {
  return Y.decodeStateVector(Y.encodeStateVectorFromUpdate(state)).has(clientId)
}

describe.each(testDatabaseKinds())('sync update validation on $name (issue 11)', (kind) => {
  const sync = useSyncServer(kind, { storeThrottleMs: 50 })

  it.each(Object.entries(HOSTILE))(
    'refuses %s: never applied, broadcast or stored; the sender is told; later edits persist',
    async (_name, hostile) => {
      const { userId, cookie } = await createUser(sync.db)
      const projectId = await createProject(sync.db, userId, sampleGraph())
      const observer = sync.connect(projectId, cookie)
      const friend = sync.connect(projectId, cookie)
      const attackerDoc = new Y.Doc()
      hostile.prepare?.(attackerDoc)
      const attacker = connectClient({
        port: sync.server.port,
        projectId,
        cookie,
        doc: attackerDoc,
      })
      try {
        await waitFor(
          () => observer.isSynced() && friend.isSynced() && attacker.isSynced(),
          'three clients synced',
        )
        const before = docToGraph(observer.doc)

        hostile.write(attackerDoc)
        const refused = await waitFor(() => refusalOf(attacker), 'the update-refused message')
        expect(refused.reason).toBe(hostile.reason)
        expect(refused.message).toBe(UPDATE_REFUSAL_MESSAGES[hostile.reason])
        // Refused in words, never reset (issue 40 item 7): the document's connection is
        // closed as a refusal, and the socket stays open.
        for (const close of attacker.closes) expect(close.reason).toBe(SYNC_UPDATE_REFUSED.reason)
        expect(attacker.socket.status).toBe('connected')

        // Another member's edit after the refused one goes through and is stored.
        const later = textNode('made after the refused update', 900)
        addNode(friend.doc, later)
        await waitFor(() => getNodesMap(observer.doc).has(later.id), 'the later edit arrives')
        await waitFor(() => friend.isSaved(), 'the later edit saved')

        // Nothing of the attacker's reached the other client or the database.
        expect(holdsClient(Y.encodeStateAsUpdate(observer.doc), attackerDoc.clientID)).toBe(false)
        expect(docToGraph(observer.doc)).toEqual({
          nodes: [...before.nodes, later].sort((a, b) => (a.id < b.id ? -1 : 1)),
          connections: before.connections,
        })
        const row = await readProjectDocument({ db: sync.db, projectId })
        expect(holdsClient(mergeStoredDocument(row!), attackerDoc.clientID)).toBe(false)
        const stored = await storedGraphs(sync.db, projectId)
        expect(stored.state).toEqual(docToGraph(observer.doc))
        expect(stored.json).toEqual(docToGraph(observer.doc))
      } finally {
        attacker.destroy()
      }
    },
  )

  it('takes valid edits, a paste of 100 nodes and a project at exactly 2,000 nodes', async () => {
    const { userId, cookie } = await createUser(sync.db)
    const projectId = await createProject(sync.db, userId, sampleGraph())
    const editor = sync.connect(projectId, cookie)
    const observer = sync.connect(projectId, cookie)
    await waitFor(() => editor.isSynced() && observer.isSynced(), 'both synced')
    const pasted: GraphNode[] = []
    editor.doc.transact(() => {
      for (let i = 0; i < 100; i++) {
        const node = { ...textNode(`pasted ${i} — ünïcödé 🎬`, i * 10), label: `Text ${i}` }
        pasted.push(node)
        addNode(editor.doc, node)
      }
    })
    editor.doc.transact(() => {
      const nodes = getNodesMap(editor.doc)
      for (let i = nodes.size; i < MAX_NODES; i++) {
        nodes.set(createNodeId('editable-text'), nodeToYMap(textNode(`n${i}`, i)))
      }
    })
    await waitFor(() => getNodesMap(observer.doc).size === MAX_NODES, 'all 2,000 nodes arrive')
    await waitFor(() => editor.isSaved(), 'saved')
    expect(refusalOf(editor)).toBeUndefined()
    expect((await storedGraphs(sync.db, projectId)).json.nodes).toHaveLength(MAX_NODES)
  })

  it('takes two members’ timeline edits made at once and stores both (issue 24)', async () => {
    const { userId, cookie } = await createUser(sync.db)
    const projectId = await createProject(sync.db, userId, sampleGraph())
    const a = sync.connect(projectId, cookie)
    const b = sync.connect(projectId, cookie)
    await waitFor(() => a.isSynced() && b.isSynced(), 'both synced')
    const video = firstNodeId(a.doc)
    const scenes = ['scene-1-a', 'scene-2-b', 'scene-3-c'].map((nodeId, i) => ({
      nodeId,
      sceneNumber: String(i + 1),
      narration: '',
      imageUrl: null,
      clip: null,
    }))
    const filmA = docFilm(a.doc, video, scenes).cuts
    moveCut(a.doc, video, filmA, filmA[0]!.id, 2)
    editCut(b.doc, video, docFilm(b.doc, video, scenes).cuts[1]!, { holdMs: 7_000 })
    const expected = ['scene-2-b', 'scene-3-c', 'scene-1-a'].map(defaultCutId)
    for (const client of [a, b]) {
      await waitFor(
        () =>
          docFilm(client.doc, video, scenes)
            .cuts.map((c) => c.id)
            .join() === expected.join(),
        'both edits everywhere',
      )
    }
    await waitFor(() => a.isSaved() && b.isSaved(), 'saved')
    expect(refusalOf(a) ?? refusalOf(b)).toBeUndefined()
    const stored = new Y.Doc()
    Y.applyUpdate(
      stored,
      mergeStoredDocument((await readProjectDocument({ db: sync.db, projectId }))!),
    )
    const film = docFilm(stored, video, scenes).cuts
    expect(film.map((c) => c.id)).toEqual(expected)
    expect(film[0]!.holdMs).toBe(7_000)
  })
})

/** The resident set size of process `pid`, in bytes (Linux). */
async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1]
  if (!kb) throw new Error(`no VmRSS for process ${pid}`)
  return Number(kb) * 1024
}

/**
 * The RSS of `pid` once it stops moving (two readings 500 ms apart within 4 MB, at most 15 s):
 * a process that just migrated its database or loaded WebAssembly (PGlite) settles first.
 */
async function settledRssOf(pid: number): Promise<number> {
  let last = await rssOf(pid)
  const deadline = Date.now() + 15_000
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500))
    const now = await rssOf(pid)
    if (Math.abs(now - last) < 4 * 1024 * 1024) return now
    last = now
  }
  return last
}

describe.each(testDatabaseKinds())('a sync server process on $name (issue 11)', (kind) => {
  it('refuses a 30,000-node update with its RSS within 100 MB of where it was', async () => {
    const database = await childDatabase(kind)
    const db = await database.open()
    const { userId, cookie } = await createUser(db)
    const projectId = await createProject(db, userId, sampleGraph())
    await database.release(db)
    const server = await spawnSyncServer([...database.args, '--store-throttle-ms', '50'])
    const attackerDoc = new Y.Doc()
    const attacker = connectClient({ port: server.port, projectId, cookie, doc: attackerDoc })
    const observer = connectClient({ port: server.port, projectId, cookie })
    try {
      await waitFor(() => attacker.isSynced() && observer.isSynced(), 'both synced')
      const pid = server.child.pid
      if (pid === undefined) throw new Error('the server process has no pid')
      const before = await settledRssOf(pid)

      attackerDoc.transact(() => {
        const nodes = getNodesMap(attackerDoc)
        for (let i = 0; i < 30_000; i++) {
          nodes.set(createNodeId('scene'), nodeToYMap(textNode(`flood ${i}`, i)))
        }
      })
      const refused = await waitFor(() => refusalOf(attacker), 'the refusal', 60_000)
      expect(refused.reason).toBe(UPDATE_REFUSAL_REASONS.projectTooLarge)
      const later = textNode('after the flood')
      addNode(observer.doc, later)
      await waitFor(() => observer.isSaved(), 'a later edit saved')

      const after = await settledRssOf(pid)
      expect(after - before).toBeLessThan(100 * 1024 * 1024)
      expect(getNodesMap(observer.doc).size).toBe(3)
    } catch (err) {
      throw new Error(`${(err as Error).message}\nchild stderr:\n${server.stderr()}`, {
        cause: err,
      })
    } finally {
      attacker.destroy()
      observer.destroy()
      server.child.kill('SIGTERM')
      await server.exited
      await database.dispose()
    }
  })
})
