import {
  decodeSavedSnapshot,
  type PendingChange,
  SAVE_ACK_TIMEOUT_MS,
  snapshotCovers,
  SYNC_MESSAGE_TYPES,
  type SyncMessage,
  syncMessageSchema,
  withDeletes,
} from '@reelgraph/shared'
import * as Y from 'yjs'
import type { SaveStatus } from '@/stores/save-status'

/**
 * Whether this device's changes to a project have reached Postgres (ARCHITECTURE
 * decision 6, spec §4 Save status, decision 009).
 *
 * A change is this device's when its Yjs client made it. The tracker keeps, per client id,
 * a `PendingChange` (shared `save-ack.ts`): the clock of its latest insertion and the items
 * it deleted, not yet known to be stored. The sync server sends `{type: 'saved', snapshot}`
 * after each store; a pending entry is settled once that snapshot covers it, deletions
 * included. Pending entries are also kept on the device (the `store`), so edits made
 * offline still read Unsaved after a reload.
 *
 * - saved: nothing pending;
 * - saving: something pending and the connection is up, so it is on its way or stored
 *   soon (the server stores at most `PERSIST_THROTTLE_MS`, 500 ms, after the first
 *   unsaved change: decision 008);
 * - unsaved: something pending and no connection yet, or the last store failed (until the
 *   next `saved`);
 * - unreachable: something pending and the connection has been down for
 *   `UNREACHABLE_GRACE_MS`, or down for a reason that will not pass by itself (offline,
 *   refused): "Not saved: can't reach the server" (issue 11: never a silent Unsaved).
 *   `onUnreachable` is called once per outage, the first time it reads so.
 * - busy: something pending and the server said it is busy (issue 23): the changes stay on
 *   this device and are saved once it admits the connection; not an outage.
 */

/**
 * How long the connection may be down before the pill says the server cannot be reached:
 * a normal reconnect (a server restart, a network blip) takes a second or two, and should
 * not flash a warning.
 */
export const UNREACHABLE_GRACE_MS = 5_000

/** The sync server's stateless message in `payload`, or null when it is none we know. */
export function parseSyncMessage(payload: string): SyncMessage | null {
  try {
    const parsed = syncMessageSchema.safeParse(JSON.parse(payload))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** Where pending entries are kept between page loads (the project's IndexedDB copy). */
export interface PendingStore {
  put: (clientId: number, change: PendingChange) => void
  remove: (clientId: number) => void
}

/** The status the pill shows for these facts. */
export function deriveSaveStatus(facts: {
  pending: number
  linkUp: boolean
  saveFailed: boolean
  /** The connection is down past the grace period, or for good reason (offline, refused). */
  outage: boolean
  /** The server refused the connection as busy and is retried (issue 23). */
  busy?: boolean
}): SaveStatus {
  if (facts.pending === 0) return 'saved'
  if (!facts.linkUp && facts.busy) return 'busy'
  if (!facts.linkUp && facts.outage) return 'unreachable'
  if (facts.saveFailed || !facts.linkUp) return 'unsaved'
  return 'saving'
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
  /** Called once per outage, when the status first reads `unreachable` in it. */
  onUnreachable?: (() => void) | undefined
  /** See `SAVE_ACK_TIMEOUT_MS`. */
  ackTimeoutMs?: number | undefined
  /** See {@link UNREACHABLE_GRACE_MS}. */
  graceMs?: number | undefined
}

/** Tracks the save status of one project's doc; see the module comment. */
export class SaveTracker {
  private readonly doc: Y.Doc
  private readonly options: SaveTrackerOptions
  private readonly pending = new Map<number, PendingChange>()
  private ownClock: number
  private linkUp = false
  private unsyncedChanges = 0
  private saveFailed = false
  private current: SaveStatus = 'saved'
  private ackTimer: ReturnType<typeof setTimeout> | null = null
  /** The link is down past the grace period, or for good reason; cleared when it is up. */
  private outage = false
  /** `onUnreachable` was called in this outage. */
  private outageReported = false
  /** The server refused the connection as busy; cleared when it is up. */
  private busy = false
  private graceTimer: ReturnType<typeof setTimeout> | null = null

  constructor(options: SaveTrackerOptions) {
    this.options = options
    this.doc = options.doc
    this.ownClock = Y.getState(this.doc.store, this.doc.clientID)
    this.doc.on('afterTransaction', this.afterTransaction)
    // Not connected yet: a server that cannot be reached from the start counts too.
    this.startGrace()
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
  restore(entries: Iterable<readonly [number, PendingChange]>): void {
    for (const [client, change] of entries) {
      const known = this.pending.get(client)
      if (!known) {
        this.pending.set(client, change)
        continue
      }
      const clock = Math.max(known.clock, change.clock)
      const merged = change.deletes ? withDeletes(known, change.deletes) : known
      this.pending.set(client, { clock, deletes: merged.deletes })
    }
    this.update()
  }

  /**
   * The connection is up (open and authenticated) or not. Down for longer than the grace
   * period, it is an outage; up again ends it.
   */
  setLinkUp(up: boolean): void {
    if (up) {
      this.clearGrace()
      this.outage = false
      this.outageReported = false
      this.busy = false
    } else if (this.linkUp) {
      // Only the fall starts the clock: a reconnect attempt failing again does not.
      this.startGrace()
    }
    this.linkUp = up
    this.update()
  }

  /**
   * The connection is down for a reason that will not pass within the grace period (the
   * browser is offline, or the server refused the connection): an outage at once. Ignored
   * while the link is up.
   */
  markUnreachable(): void {
    if (this.linkUp) return
    this.clearGrace()
    this.busy = false
    this.outage = true
    this.update()
  }

  /**
   * The server refused the connection as busy (issue 23): not an outage, the changes wait
   * on the device until a retry is admitted. Ignored while the link is up.
   */
  markBusy(): void {
    if (this.linkUp) return
    this.clearGrace()
    this.outage = false
    this.busy = true
    this.update()
  }

  /** The provider's count of updates the server has not acknowledged yet. */
  setUnsyncedChanges(count: number): void {
    this.unsyncedChanges = count
    this.update()
  }

  /** A stateless message from the sync server (JSON); anything unknown is ignored. */
  receive(payload: string): void {
    const message = parseSyncMessage(payload)
    if (message) this.handle(message)
  }

  /**
   * A parsed message from the sync server: `saved` and `save-failed`. An `update-refused`
   * is the session's business (it drops this doc), not a save status.
   */
  handle(message: SyncMessage): void {
    if (message.type === SYNC_MESSAGE_TYPES.updateRefused) return
    this.clearAckTimer()
    if (message.type === SYNC_MESSAGE_TYPES.saved) {
      const snapshot = decodeSavedSnapshot(message.snapshot)
      if (!snapshot) return
      for (const [client, change] of [...this.pending]) {
        if (!snapshotCovers(snapshot, client, change)) continue
        this.pending.delete(client)
        this.options.store?.remove(client)
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
    this.clearGrace()
    this.doc.off('afterTransaction', this.afterTransaction)
  }

  // A local transaction that inserted something moves this client's clock; one that only
  // deleted (a node, a connection, an undone add) leaves it, so its deletions are kept too.
  private readonly afterTransaction = (tr: Y.Transaction): void => {
    if (!tr.local) return
    const client = this.doc.clientID
    const clock = Y.getState(this.doc.store, client)
    if (clock <= this.ownClock && tr.deleteSet.clients.size === 0) return
    this.ownClock = Math.max(clock, this.ownClock)
    const before = this.pending.get(client) ?? { clock: 0, deletes: null }
    const change = withDeletes({ clock: this.ownClock, deletes: before.deletes }, tr.deleteSet)
    this.pending.set(client, change)
    this.options.store?.put(client, change)
    this.update()
  }

  private update(): void {
    this.scheduleAckTimeout()
    const next = deriveSaveStatus({
      pending: this.pending.size,
      linkUp: this.linkUp,
      saveFailed: this.saveFailed,
      outage: this.outage,
      busy: this.busy,
    })
    if (next === this.current) return
    this.current = next
    this.options.onStatus(next)
    if (next === 'unreachable' && !this.outageReported) {
      this.outageReported = true
      this.options.onUnreachable?.()
    }
  }

  private startGrace(): void {
    this.clearGrace()
    this.graceTimer = setTimeout(() => {
      this.graceTimer = null
      if (this.linkUp || this.busy) return
      this.outage = true
      this.update()
    }, this.options.graceMs ?? UNREACHABLE_GRACE_MS)
  }

  private clearGrace(): void {
    if (this.graceTimer) clearTimeout(this.graceTimer)
    this.graceTimer = null
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
