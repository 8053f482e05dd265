import {
  type ChangeSite,
  DOC_CONNECTIONS_KEY,
  DOC_NODES_KEY,
  DOC_TIMELINES_KEY,
  type DocCounts,
  type DocReader,
  type DocRefusal,
  entriesRefusal,
  type MapOf,
  type StoredMap,
  touchedEntries,
  UPDATE_REFUSAL_REASONS,
} from '@reelgraph/shared'
import * as Y from 'yjs'
import {
  MalformedUpdate,
  NamedRoot,
  NewType,
  type Parent,
  UpdateReplay,
  type YType,
} from './update-replay.ts'

/**
 * Checks one client update against shared's rules before it is applied, by reading its
 * structs ({@link UpdateReplay}) instead of applying it to a copy of the document (issue 23
 * item 1, decision 011, which supersedes 003). The rules, their order and the reasons are
 * shared's `touchedEntries` and `entriesRefusal`, the same that `validateDocChange` runs on a
 * document an update was applied to:
 *
 * - where the update lands: the entries a `Y.Transaction` applying it would record as
 *   changed (a change inside a type that is new in the update, or that the update deletes,
 *   is recorded where that type hangs, as Yjs does);
 * - each touched node and connection as the document holds it afterwards: the key's value
 *   once Yjs has resolved concurrent entries, the update's deletions applied.
 *
 * The document is read, never written. The size limit (MAX_PROJECT_BYTES) is the caller's.
 * @param doc the live document
 * @param update a Yjs update (v1) from a client: a sync step 2 or an update message
 * @returns why the update may not be applied, or null when it keeps every rule
 */
export function inspectUpdate(doc: Y.Doc, update: Uint8Array): DocRefusal | null {
  let replay: UpdateReplay
  try {
    replay = new UpdateReplay(doc, update)
  } catch (err) {
    const detail =
      err instanceof MalformedUpdate ? `not a Yjs update: it ${err.message}` : 'not a Yjs update'
    return { reason: UPDATE_REFUSAL_REASONS.documentShape, detail }
  }
  if (replay.events.length === 0) return null
  const rootNames = new Map<YType, string>()
  for (const [name, type] of doc.share) rootNames.set(type as YType, name)
  const touched = touchedEntries(changeSites(replay, rootNames))
  if ('reason' in touched) return touched
  const reader = new ReplayReader(doc, replay)
  return entriesRefusal(touched, reader, reader.countsBefore())
}

/**
 * The entries `Y.Transaction.changed` would hold once the update is applied
 * (`addChangedTypeToTransaction`): a change is recorded in the type it lands in when that
 * type is a root or existed before the update and is still there afterwards (Yjs drops a
 * type's entry when the type is deleted in the same transaction).
 */
function* changeSites(
  replay: UpdateReplay,
  rootNames: ReadonlyMap<YType, string>,
): Generator<ChangeSite> {
  const alive = new Map<Parent, boolean>()
  for (const { parent, key } of replay.events) {
    if (parent instanceof NewType) continue
    if (parent instanceof NamedRoot) {
      yield { root: parent.name, nested: false, key, branchKey: key, path: [] }
      continue
    }
    let isAlive = alive.get(parent)
    if (isAlive === undefined) alive.set(parent, (isAlive = replay.isAlive(parent)))
    if (!isAlive) continue
    let root: YType = parent
    const path: (string | null)[] = []
    for (let item = root._item; item; item = root._item) {
      path.unshift(item.parentSub)
      root = item.parent as YType
    }
    const nested = root !== parent
    const branchKey = nested ? (path[0] ?? null) : key
    yield { root: rootNames.get(root) ?? null, nested, key, branchKey, path }
  }
}

/** The document as the update leaves it, read through the replay ({@link DocReader}). */
class ReplayReader implements DocReader {
  private readonly doc: Y.Doc
  private readonly replay: UpdateReplay
  private readonly nodes: Parent
  private readonly connections: Parent
  private readonly timelineRegisters: Parent

  constructor(doc: Y.Doc, replay: UpdateReplay) {
    this.doc = doc
    this.replay = replay
    this.nodes = this.rootOf(DOC_NODES_KEY)
    this.connections = this.rootOf(DOC_CONNECTIONS_KEY)
    this.timelineRegisters = this.rootOf(DOC_TIMELINES_KEY)
  }

  timelines(): StoredMap {
    return new ReplayMap(this.replay, this.timelineRegisters)
  }

  readonly mapOf: MapOf = (value) => this.mapOfValue(value)

  private rootOf(name: string): Parent {
    return this.replay.root(name)
  }

  countsBefore(): DocCounts {
    return {
      nodes: liveSize(this.nodes),
      connections: liveSize(this.connections),
      timelineRegisters: liveSize(this.timelineRegisters),
    }
  }

  counts(): DocCounts {
    return {
      nodes: this.sizeAfter(this.nodes),
      connections: this.sizeAfter(this.connections),
      timelineRegisters: this.sizeAfter(this.timelineRegisters),
    }
  }

  node(id: string): unknown {
    return this.replay.valueOf(this.nodes, id).value
  }

  connection(key: string): unknown {
    return this.replay.valueOf(this.connections, key).value
  }

  /** How many keys a map holds afterwards: before, plus what the update added or removed. */
  private sizeAfter(map: Parent): number {
    let size = liveSize(map)
    const seen = new Set<string>()
    for (const { parent, key } of this.replay.events) {
      if (parent !== map || key === null || seen.has(key)) continue
      seen.add(key)
      const now = this.replay.valueOf(map, key).present
      const was = this.replay.wasPresent(map, key)
      size += Number(now) - Number(was)
    }
    return size
  }

  private mapOfValue(value: unknown): StoredMap | null {
    const fresh = this.replay.newTypeOf(value)
    if (fresh) {
      if (!(fresh.type instanceof Y.Map) || this.replay.listContent.has(fresh)) return null
      return new ReplayMap(this.replay, fresh)
    }
    if (value instanceof Y.Map) {
      const map = value as unknown as YType
      if (map._start !== null || this.replay.listContent.has(map)) return null
      return new ReplayMap(this.replay, map)
    }
    return null
  }
}

/** How many keys a type of the document holds (before the update). */
function liveSize(type: Parent): number {
  if (!(type instanceof Y.AbstractType)) return 0
  let size = 0
  for (const item of type._map.values()) if (!item.deleted) size += 1
  return size
}

/** A map of the document (or of the update) as the update leaves it: a {@link StoredMap}. */
class ReplayMap implements StoredMap {
  private readonly replay: UpdateReplay
  private readonly map: Parent
  private present: string[] | null = null

  constructor(replay: UpdateReplay, map: Parent) {
    this.replay = replay
    this.map = map
  }

  /** Present keys in Y.Map's order: the document's keys first, then those the update adds. */
  keys(): Iterable<string> {
    if (this.present) return this.present
    const keys: string[] = []
    const live = this.map instanceof Y.AbstractType ? this.map._map : null
    if (live)
      for (const key of live.keys()) if (this.replay.valueOf(this.map, key).present) keys.push(key)
    for (const key of this.replay.keysWritten(this.map)) {
      if (live?.has(key)) continue
      if (this.replay.valueOf(this.map, key).present) keys.push(key)
    }
    this.present = keys
    return keys
  }

  get(key: string): unknown {
    const { value } = this.replay.valueOf(this.map, key)
    return value
  }

  get size(): number {
    return [...this.keys()].length
  }
}
