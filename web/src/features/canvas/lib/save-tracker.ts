import { SAVE_ACK_TIMEOUT_MS, syncMessageSchema } from '@reelgraph/shared'
import * as Y from 'yjs'
import type { SaveStatus } from '@/stores/save-status'

/**
 * Whether this device's changes to a project have reached Postgres (ARCHITECTURE
 * decision 6, spec §4 Save status).
 *
 * A change is this device's when its Yjs client made it. The tracker keeps, per client id,
 * the clock of the latest change not yet known to be stored ("pending"). The sync server
 * sends `{type: 'saved', stateVector}` after each store; a pending entry is settled once
 * that state vector reaches its clock. Pending entries are also kept on the device (the
 * `store`), so edits made offline still read Unsaved after a reload.
 *
 * - saved: nothing pending;
 * - saving: something pending and the connection is up, so it is on its way or stored
 *   soon (the server stores 1 s after the last change, at least every 10 s);
 * - unsaved: something pending and no connection (offline, refused), or the last store
 *   failed (until the next `saved`).
 */

/** Where pending entries are kept between page loads (the project's IndexedDB copy). */
export interface PendingStore {
  put: (clientId: number, clock: number) => void
  remove: (clientId: number) => void
}

/** The status the pill shows for these facts. */
export function deriveSaveStatus(facts: {
  pending: number
  linkUp: boolean
  saveFailed: boolean
}): SaveStatus {
  if (facts.pending === 0) return 'saved'
  if (facts.saveFailed || !facts.linkUp) return 'unsaved'
  return 'saving'
}

/** Decodes the base64 `Y.encodeStateVector` of a `saved` message: client id -> clock. */
export function decodeStateVector(base64: string): Map<number, number> {
  const binary = atob(base64)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return Y.decodeStateVector(bytes)
}

/** Pending entries that `saved` (a decoded state vector) does not reach yet. */
export function unsettled(
  pending: ReadonlyMap<number, number>,
  saved: ReadonlyMap<number, number>,
): Map<number, number> {
  const left = new Map<number, number>()
  for (const [client, clock] of pending)
    if ((saved.get(client) ?? 0) < clock) left.set(client, clock)
  return left
}

/** Options of {@link SaveTracker}. */
export interface SaveTrackerOptions {
  doc: Y.Doc
  /** Keeps pending entries on the device; omit to keep them in memory only. */
  store?: PendingStore | undefined
  /** Called whenever the status changes. */
  onStatus: (status: SaveStatus) => void
  /** Called with the server's message when a store failed (it is retried). */
  onSaveFailed?: ((message: string) => void) | undefined
  /** See `SAVE_ACK_TIMEOUT_MS`. */
  ackTimeoutMs?: number | undefined
}

/** Tracks the save status of one project's doc; see the module comment. */
export class SaveTracker {
  private readonly doc: Y.Doc
  private readonly options: SaveTrackerOptions
  private readonly pending = new Map<number, number>()
  private ownClock: number
  private linkUp = false
  private unsyncedChanges = 0
  private saveFailed = false
  private current: SaveStatus = 'saved'
  private ackTimer: ReturnType<typeof setTimeout> | null = null

  constructor(options: SaveTrackerOptions) {
    this.options = options
    this.doc = options.doc
    this.ownClock = Y.getState(this.doc.store, this.doc.clientID)
    this.doc.on('afterTransaction', this.afterTransaction)
  }

  /** The current status. */
  get status(): SaveStatus {
    return this.current
  }

  /** Client ids with changes not yet known to be stored (for tests and diagnostics). */
  get pendingClients(): number[] {
    return [...this.pending.keys()]
  }

  /** Adds entries kept on the device by an earlier page load. */
  restore(entries: Iterable<readonly [number, number]>): void {
    for (const [client, clock] of entries) {
      if (clock > (this.pending.get(client) ?? 0)) this.pending.set(client, clock)
    }
    this.update()
  }

  /** The connection is up (open and authenticated) or not. */
  setLinkUp(up: boolean): void {
    this.linkUp = up
    this.update()
  }

  /** The provider's count of updates the server has not acknowledged yet. */
  setUnsyncedChanges(count: number): void {
    this.unsyncedChanges = count
    this.update()
  }

  /** A stateless message from the sync server (JSON); anything unknown is ignored. */
  receive(payload: string): void {
    let message
    try {
      const parsed = syncMessageSchema.safeParse(JSON.parse(payload))
      if (!parsed.success) return
      message = parsed.data
    } catch {
      return
    }
    this.clearAckTimer()
    if (message.type === 'saved') {
      let saved: Map<number, number>
      try {
        saved = decodeStateVector(message.stateVector)
      } catch {
        return
      }
      const left = unsettled(this.pending, saved)
      for (const client of this.pending.keys()) {
        if (!left.has(client)) {
          this.pending.delete(client)
          this.options.store?.remove(client)
        }
      }
      this.saveFailed = false
    } else {
      this.saveFailed = true
      this.options.onSaveFailed?.(message.message)
    }
    this.update()
  }

  /** Stops listening to the doc. */
  destroy(): void {
    this.clearAckTimer()
    this.doc.off('afterTransaction', this.afterTransaction)
  }

  private readonly afterTransaction = (tr: Y.Transaction): void => {
    if (!tr.local) return
    const clock = Y.getState(this.doc.store, this.doc.clientID)
    if (clock <= this.ownClock) return
    this.ownClock = clock
    this.pending.set(this.doc.clientID, clock)
    this.options.store?.put(this.doc.clientID, clock)
    this.update()
  }

  private update(): void {
    this.scheduleAckTimeout()
    const next = deriveSaveStatus({
      pending: this.pending.size,
      linkUp: this.linkUp,
      saveFailed: this.saveFailed,
    })
    if (next === this.current) return
    this.current = next
    this.options.onStatus(next)
  }

  // Entries from an earlier page load that the server already stored bring no new store,
  // so no `saved` message: once the server holds everything and none comes in time, they
  // were stored before (see SAVE_ACK_TIMEOUT_MS).
  private scheduleAckTimeout(): void {
    const waiting =
      this.linkUp &&
      this.unsyncedChanges === 0 &&
      !this.saveFailed &&
      [...this.pending.keys()].some((client) => client !== this.doc.clientID)
    if (!waiting) {
      this.clearAckTimer()
      return
    }
    if (this.ackTimer) return
    this.ackTimer = setTimeout(() => {
      this.ackTimer = null
      for (const client of [...this.pending.keys()]) {
        if (client === this.doc.clientID) continue
        this.pending.delete(client)
        this.options.store?.remove(client)
      }
      this.update()
    }, this.options.ackTimeoutMs ?? SAVE_ACK_TIMEOUT_MS)
  }

  private clearAckTimer(): void {
    if (this.ackTimer) clearTimeout(this.ackTimer)
    this.ackTimer = null
  }
}
