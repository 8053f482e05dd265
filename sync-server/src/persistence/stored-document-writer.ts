import type { Hocuspocus, LocalTransactionOrigin } from '@hocuspocus/server'
import {
  appendProjectUpdateRow,
  applyStoredDocument,
  type DB,
  readProjectDocumentChanges,
  readProjectGraphIndex,
  storedGraphIndex,
  type StoredProjectDocument,
} from '@reelgraph/db'
import {
  applyGraphChangeToDoc,
  applyGraphToDoc,
  type ChangedTypes,
  docCounts,
  type DocRefusal,
  docToGraph,
  type Graph,
  graphAsApplied,
  type GraphIndex,
  graphIndexNodes,
  graphIndexWriteRefusal,
  type KnownNodes,
  newClientId,
  projectDocumentName,
  storedKnownNodes,
  SYNC_CLOSE_REASONS,
  validateDocChange,
  writeGraphToIndex,
} from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import * as Y from 'yjs'
import { REST_DOCUMENT_CACHE_IDLE_MS, REST_READ_FRESH_MS } from '../config.ts'
import { STORED_ORIGIN } from '../extensions/persistence.ts'
import type { ReelgraphRedis } from '../extensions/redis.ts'
import type { MemoryBudget } from '../load/memory-budget.ts'
import type { SyncLogger } from '../logger.ts'
import type { SyncMetrics } from '../metrics.ts'

/** A project without a stored document (never opened, or deleted). */
class NotFoundError extends Error {}

/** What the gateway says when a project has no document (as for one it cannot open). */
function notFound(projectId: number): Error {
  return new NotFoundError(
    `The document of project ${projectId} could not be opened (${SYNC_CLOSE_REASONS.notFound}).`,
  )
}

/** The origin of the writer's own transactions on its copies. */
const WRITE_ORIGIN = Symbol('reelgraph-rest-write')

/**
 * The stored document's graph index standing for it (decision 021): what
 * a write needs, without the document decoded. `client` is this copy's own Yjs client and
 * `clock` its next clock.
 */
interface IndexCopy {
  graph: GraphIndex
  client: number
  clock: number
}

/**
 * A project's stored document as this process last read it (a copy, never live): its graph
 * index while nothing but this writer changed the document since the snapshot's compaction,
 * else the document decoded.
 */
interface StoredCopy {
  doc: Y.Doc | null
  index: IndexCopy | null
  /** When the snapshot it holds was written, and the ids of the log rows it holds. */
  snapshotAt: Date
  ids: Set<string>
  /** Its encoded size in bytes, an upper bound (what the budget counts it at). */
  encodedBytes: number
  idle: NodeJS.Timeout | null
  /**
   * The graph answered last (`graphAsApplied`'s frozen answer; parsed by shared's schemas, so
   * valid whatever changed the copy since): its nodes are what the next PATCH of this project
   * need not parse again (`parsePatchProjectInput` answers such a node with the very object),
   * and the objects the next answer keeps.
   */
  answered: { graph: Graph; nodes: KnownNodes } | null
  /**
   * Whether the copy holds exactly `answered` (nothing else changed it since): then a node of
   * it given again needs no comparison with the doc (an autosave moves one node).
   */
  holdsAnswered: boolean
  /** The stored document's own nodes as known nodes (`storedKnownNodes`), once asked for. */
  storedNodes: KnownNodes | null
  /**
   * Until when (ms since the epoch) the next write may take the copy as the stored document
   * without asking the log (`readKnownNodes` read it anew just before): 0 when it must ask.
   */
  freshUntil: number
}

export interface StoredDocumentWriterOptions {
  db: Kysely<DB>
  hocuspocus: Hocuspocus
  budget: MemoryBudget
  logger: SyncLogger
  /** Counts how each stored document was read (`reelgraph_rest_document_reads_total`). */
  metrics?: SyncMetrics | undefined
  /** Reads (or seeds) a project's stored document; null when there is no project. */
  readStored: (projectId: number) => Promise<StoredProjectDocument | null>
  /** Counts a row appended to a project's log, for the background compaction. */
  noteAppended: (projectId: number, bytes: number) => void
  /** Relays changes to the other sync servers (absent without Redis). */
  redis?: ReelgraphRedis | undefined
  /** How long an unused copy is kept, in ms (default REST_DOCUMENT_CACHE_IDLE_MS). */
  idleMs?: number | undefined
}

/**
 * Writes a REST graph replacement into a project's document without opening it in
 * Hocuspocus (issue 23 item 3): the PATCH becomes one Yjs update against the document as
 * stored, checked by shared's rules like a sync update, and appended to the project's log.
 *
 * The stored document is read once into a copy kept while the project is PATCHed (an
 * autosave every second keeps it); each later PATCH first reads only what changed in the
 * database since (`readProjectDocumentChanges`: the log rows it does not hold, the snapshot
 * if a compaction replaced it), so the copy is the stored document whatever other processes
 * appended, and nothing here breaks with several processes. A compacted project's copy is
 * its snapshot's graph index, written through without decoding the document, until anyone
 * else changes the document (decision 021). Copies count against the memory budget, are
 * dropped after REST_DOCUMENT_CACHE_IDLE_MS unused, and are the first thing given up when an
 * open document needs the room.
 *
 * Editors see the change: a document loaded in this process (or loading, which may have
 * read the log before the append) gets the update at once; with Redis it is published to
 * every other sync server, and a server that loads the document after reading the log
 * catches up once subscribed (the persistence extension's `afterLoadDocument`).
 *
 * Changes live editors made but that are not yet stored (at most PERSIST_THROTTLE_MS old)
 * are not in the copy; the PATCH does not remove them, and both survive (a CRDT merge), where
 * before a PATCH overwrote them.
 */
export class StoredDocumentWriter {
  private readonly options: StoredDocumentWriterOptions
  private readonly copies = new Map<number, StoredCopy>()
  /** One write at a time per project: each starts from the copy the last one left. */
  private readonly chains = new Map<number, Promise<unknown>>()
  private readonly idleMs: number

  constructor(options: StoredDocumentWriterOptions) {
    this.options = options
    this.idleMs = options.idleMs ?? REST_DOCUMENT_CACHE_IDLE_MS
    options.budget.addReclaimer(() => this.dropOldest())
  }

  /**
   * Makes the project's stored document hold exactly `graph` (only what differs is written)
   * and resolves with the document's graph once the change is appended.
   * @throws Error when the project does not exist, the change breaks shared's rules (REST
   *   validates the same rules first, so this is a defect), or the database fails.
   */
  applyGraph(projectId: number, graph: Graph): Promise<Graph> {
    return this.inTurn(projectId, () => this.write(projectId, graph))
  }

  /**
   * The nodes a PATCH body of the project need not parse, reading the stored document when
   * no copy is kept (a project's first save here; the copy is kept for the write that
   * follows, which then need not ask the log again if it comes within REST_READ_FRESH_MS):
   * {@link knownNodes} when there are any, else the stored document's own nodes
   * (`storedKnownNodes`). Call it for an editor of the project only: it reads the document.
   * @returns undefined when the project has no stored document
   * @throws Error when the database fails
   */
  readKnownNodes(projectId: number): Promise<KnownNodes | undefined> {
    return this.inTurn(projectId, async () => {
      let copy = this.copies.get(projectId)
      if (!copy) {
        try {
          copy = await this.readAnew(projectId)
        } catch (err) {
          if (err instanceof NotFoundError) return undefined
          throw err
        }
        copy.freshUntil = Date.now() + REST_READ_FRESH_MS
      }
      if (copy.answered) return copy.answered.nodes
      copy.storedNodes ??= storedKnownNodes(
        copy.index ? graphIndexNodes(copy.index.graph) : docToGraph(copy.doc!).nodes,
      )
      return copy.storedNodes
    })
  }

  /** Drops every copy (shutdown). */
  clear(): void {
    for (const projectId of [...this.copies.keys()]) this.drop(projectId)
  }

  /**
   * The nodes of the project's graph as last written here, all valid: a PATCH body's node
   * equal to one of them need not be parsed again (`parsePatchProjectInput`). Undefined when
   * no copy is kept.
   */
  knownNodes(projectId: number): KnownNodes | undefined {
    return this.copies.get(projectId)?.answered?.nodes
  }

  /** How many copies are kept. */
  get size(): number {
    return this.copies.size
  }

  /** Runs `task` after every earlier read and write of the project here has settled. */
  private inTurn<T>(projectId: number, task: () => Promise<T>): Promise<T> {
    const previous = this.chains.get(projectId) ?? Promise.resolve()
    const next = previous.then(task, task)
    this.chains.set(projectId, next)
    const clear = () => {
      if (this.chains.get(projectId) === next) this.chains.delete(projectId)
    }
    next.then(clear, clear)
    return next
  }

  private async write(projectId: number, graph: Graph): Promise<Graph> {
    const copy = await this.current(projectId)
    copy.freshUntil = 0
    const previous = copy.answered?.graph
    const applied = graphAsApplied(graph, previous)
    // Nothing else changed the copy since the last answer: write only what the body changed.
    const change = previous && copy.holdsAnswered ? previous : undefined
    copy.holdsAnswered = false
    const { update, refusal } = copy.index
      ? writeToIndex(copy.index, graph, applied, change)
      : writeToDoc(copy.doc!, graph, applied, change)
    if (!update) return this.answer(projectId, copy, applied)
    // The same rules as every sync update (the copy is this writer's own: a refused change
    // is dropped with it).
    if (refusal) {
      this.drop(projectId)
      throw new Error(`The graph of project ${projectId} breaks a document rule: ${refusal.detail}`)
    }
    let id: string | null
    try {
      id = await appendProjectUpdateRow({ db: this.options.db, projectId, update })
    } catch (err) {
      // The copy holds a change the log does not: read it again next time.
      this.drop(projectId)
      throw err
    }
    if (id === null) {
      this.drop(projectId)
      throw notFound(projectId)
    }
    copy.ids.add(id)
    this.grew(projectId, copy, update.byteLength)
    this.options.noteAppended(projectId, update.byteLength)
    await this.deliver(projectId, update)
    return this.answer(projectId, copy, applied)
  }

  /**
   * The copy holds exactly `applied` now (`graphAsApplied`'s answer: its graph as `docToGraph`
   * would read it back): kept as what the next PATCH compares with, and answered.
   */
  private answer(projectId: number, copy: StoredCopy, applied: Graph): Graph {
    copy.answered = { graph: applied, nodes: new Map(applied.nodes.map((node) => [node.id, node])) }
    copy.holdsAnswered = true
    this.touch(projectId, copy)
    return applied
  }

  /** The project's stored document: the kept copy brought up to date, or read anew. */
  private async current(projectId: number): Promise<StoredCopy> {
    const { db } = this.options
    const kept = this.copies.get(projectId)
    // Read anew a moment ago, for this write (`readKnownNodes`).
    if (kept && kept.freshUntil > Date.now()) return kept
    if (kept) {
      const changes = await readProjectDocumentChanges({
        db,
        projectId,
        snapshotAt: kept.snapshotAt,
        knownIds: kept.ids,
      })
      if (!changes) {
        this.drop(projectId)
        throw notFound(projectId)
      }
      const changedElsewhere = changes.snapshot !== null || changes.updates.length > 0
      if (kept.index && !changedElsewhere) {
        kept.ids = new Set(changes.ids)
        return kept
      }
      if (kept.index) return this.readAnew(projectId)
      const doc = kept.doc!
      let added = 0
      // Changed by someone else: compare every node with the doc again.
      if (changedElsewhere) kept.holdsAnswered = false
      doc.transact(() => {
        if (changes.snapshot) {
          Y.applyUpdate(doc, changes.snapshot)
          added += changes.snapshot.byteLength
        }
        for (const { update } of changes.updates) {
          Y.applyUpdate(doc, update)
          added += update.byteLength
        }
      })
      kept.snapshotAt = changes.snapshotAt
      kept.ids = new Set(changes.ids)
      this.grew(projectId, kept, added)
      return kept
    }
    return this.readAnew(projectId)
  }

  /**
   * Reads the project's stored document: its graph index when that stands for it (a
   * compacted snapshot, as a project not edited for LOG_COMPACT_IDLE_MS has), else the
   * document decoded. Kept while there is room.
   */
  private async readAnew(projectId: number): Promise<StoredCopy> {
    this.drop(projectId)
    const { db, budget, metrics } = this.options
    let copy: StoredCopy
    const indexed = await readProjectGraphIndex({ db, projectId })
    if (indexed) copy = newCopy(indexed.index, indexed.snapshotAt, [], indexed.snapshotBytes)
    else {
      const stored = await this.options.readStored(projectId)
      if (!stored) throw notFound(projectId)
      // A document seeded just now comes with its index.
      const index = storedGraphIndex(stored)
      const snapshotAt = stored.snapshotAt ?? stored.savedAt
      const bytes = stored.snapshot.byteLength + stored.logBytes
      if (index) copy = newCopy(index, snapshotAt, stored.ids, bytes)
      else {
        const doc = new Y.Doc()
        applyStoredDocument(doc, stored)
        copy = { ...newCopy(null, snapshotAt, stored.ids, bytes), doc }
      }
    }
    metrics?.restReads.inc({ via: copy.index ? 'graph-index' : 'document' })
    // Kept only while there is room: an open document comes first.
    if (budget.reserve(cacheKey(projectId)) === null) {
      this.copies.set(projectId, copy)
      budget.set(cacheKey(projectId), copy.encodedBytes)
    }
    return copy
  }

  /** Applies an appended update to the live document, here and on the other sync servers. */
  private async deliver(projectId: number, update: Uint8Array): Promise<void> {
    const { hocuspocus, redis, logger } = this.options
    const name = projectDocumentName(projectId)
    const loading = hocuspocus.loadingDocuments.get(name)
    const document = hocuspocus.documents.get(name) ?? (await loading?.catch(() => undefined))
    // Open here after all: its Redis extension relays the change like any other.
    if (document) {
      Y.applyUpdate(document, update, STORED_ORIGIN satisfies LocalTransactionOrigin)
      return
    }
    if (redis) {
      await redis.publishUpdate(name, update).catch((err: unknown) => {
        logger.warn(
          { err, projectId },
          'a REST change was not relayed; editors elsewhere get it on reload',
        )
      })
    }
  }

  private grew(projectId: number, copy: StoredCopy, bytes: number): void {
    if (bytes === 0) return
    copy.encodedBytes += bytes
    if (this.copies.get(projectId) === copy) {
      this.options.budget.set(cacheKey(projectId), copy.encodedBytes)
    }
  }

  private touch(projectId: number, copy: StoredCopy): void {
    // A copy kept for no one (no room, or dropped meanwhile) is left to the collector.
    if (this.copies.get(projectId) !== copy) return
    // Most recently used last (the order `dropOldest` reads).
    this.copies.delete(projectId)
    this.copies.set(projectId, copy)
    if (copy.idle) clearTimeout(copy.idle)
    copy.idle = setTimeout(() => this.drop(projectId), this.idleMs)
    copy.idle.unref()
  }

  private drop(projectId: number): void {
    const copy = this.copies.get(projectId)
    if (!copy) return
    this.copies.delete(projectId)
    if (copy.idle) clearTimeout(copy.idle)
    this.options.budget.delete(cacheKey(projectId))
  }

  /** Gives up the least recently used copy; false when there is none. */
  private dropOldest(): boolean {
    const oldest = this.copies.keys().next()
    if (oldest.done) return false
    this.drop(oldest.value)
    return true
  }
}

/** A new copy of a stored document: its graph index, or none (then `doc` is set after). */
function newCopy(
  index: GraphIndex | null,
  snapshotAt: Date,
  ids: string[],
  encodedBytes: number,
): StoredCopy {
  return {
    doc: null,
    index: index && { graph: index, client: newClientId(index.clients), clock: 0 },
    snapshotAt,
    ids: new Set(ids),
    encodedBytes,
    idle: null,
    answered: null,
    holdsAnswered: false,
    storedNodes: null,
    freshUntil: 0,
  }
}

/** One write into a copy: the update (null: the document already held the graph) and the rules' verdict. */
interface Written {
  update: Uint8Array | null
  refusal: DocRefusal | null
}

/**
 * Writes `graph` into the decoded copy: `applied` over `previous` (the copy holding exactly
 * that answer) as only the change, else the whole graph compared.
 */
function writeToDoc(doc: Y.Doc, graph: Graph, applied: Graph, previous?: Graph): Written {
  const before = docCounts(doc)
  const updates: Uint8Array[] = []
  let changed: ChangedTypes | null = null
  const onUpdate = (u: Uint8Array) => updates.push(u)
  const onTransaction = (t: Y.Transaction) => {
    if (t.origin === WRITE_ORIGIN) changed = t.changed
  }
  doc.on('update', onUpdate)
  doc.on('afterTransaction', onTransaction)
  try {
    if (previous) applyGraphChangeToDoc(doc, previous, applied, WRITE_ORIGIN)
    else applyGraphToDoc(doc, graph, WRITE_ORIGIN)
  } finally {
    doc.off('update', onUpdate)
    doc.off('afterTransaction', onTransaction)
  }
  if (updates.length === 0 || !changed) return { update: null, refusal: null }
  const update = updates.length === 1 ? updates[0]! : Y.mergeUpdates(updates)
  return { update, refusal: validateDocChange(doc, changed, before) }
}

/** {@link writeToDoc} through the graph index: the same update, without the document. */
function writeToIndex(index: IndexCopy, graph: Graph, applied: Graph, previous?: Graph): Written {
  const write = writeGraphToIndex({
    index: index.graph,
    graph: previous ? applied : graph,
    previous,
    client: index.client,
    clock: index.clock,
  })
  index.clock = write.nextClock
  if (!write.update) return { update: null, refusal: null }
  return { update: write.update, refusal: graphIndexWriteRefusal(index.graph, write) }
}

/** The budget's key of a project's kept copy. */
function cacheKey(projectId: number): string {
  return `rest-copy:${projectId}`
}
