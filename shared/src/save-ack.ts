import * as Y from 'yjs'

/**
 * How a client learns which of its changes reached Postgres (spec §4 Save status,
 * ARCHITECTURE decision 6, issue 14 item 1): the one acknowledgement mechanism of sync.
 *
 * After each store the sync server sends a `saved` message carrying a Yjs snapshot of the
 * document as stored: its state vector (every item up to each client's clock) plus its
 * delete set (every item deleted). A client keeps, per Yjs client id, a
 * {@link PendingChange}: the clock of its latest insertion and the items it deleted since
 * the last acknowledgement. The change is stored once the snapshot reaches the clock and
 * holds every one of those deletions. A deletion adds no item and does not move the clock,
 * which is why a state vector alone is not enough.
 */

/** A Yjs delete set: client id -> sorted `{clock, len}` ranges of deleted items. */
export type DeleteSet = Y.Snapshot['ds']

/**
 * What one Yjs client changed that is not yet known to be stored: `clock` is its state
 * (the clock after its latest insertion; 0 for none), `deletes` the items it deleted, or
 * null when it deleted nothing since the last acknowledgement.
 */
export interface PendingChange {
  clock: number
  deletes: DeleteSet | null
}

/** The base64 snapshot of `doc` as it is now, for a `saved` message. */
export function encodeSavedSnapshot(doc: Y.Doc): string {
  return toBase64(Y.encodeSnapshot(Y.snapshot(doc)))
}

/** The snapshot of a `saved` message, or null when it is not one (malformed base64 or bytes). */
export function decodeSavedSnapshot(base64: string): Y.Snapshot | null {
  try {
    return Y.decodeSnapshot(fromBase64(base64))
  } catch {
    return null
  }
}

/** Whether `snapshot` holds `change`: the client's clock reached, and every deletion in it. */
export function snapshotCovers(
  snapshot: Y.Snapshot,
  client: number,
  change: PendingChange,
): boolean {
  if ((snapshot.sv.get(client) ?? 0) < change.clock) return false
  if (!change.deletes) return true
  const merged = Y.mergeDeleteSets([snapshot.ds, change.deletes])
  return Y.equalDeleteSets(snapshot.ds, merged)
}

/** `change` with a transaction's deletions added (`deletes` may be empty). */
export function withDeletes(change: PendingChange, deletes: DeleteSet): PendingChange {
  if (deletes.clients.size === 0) return change
  return {
    clock: change.clock,
    deletes: change.deletes ? Y.mergeDeleteSets([change.deletes, deletes]) : deletes,
  }
}

/**
 * A pending change of `client` as the device keeps it (IndexedDB takes bytes): the bytes of
 * a Yjs snapshot whose state vector is `{client: clock}` and whose delete set is `deletes`.
 */
export function storePendingChange(client: number, change: PendingChange): ArrayBuffer {
  const ds = change.deletes ?? Y.createDeleteSet()
  const bytes = Y.encodeSnapshot(Y.createSnapshot(ds, new Map([[client, change.clock]])))
  return bytes.slice().buffer
}

/**
 * A stored pending change of `client` back, or null when `value` is not one. A bare number
 * is the form kept before deletions were tracked (a clock only).
 */
export function readStoredPendingChange(client: number, value: unknown): PendingChange | null {
  if (typeof value === 'number') {
    return Number.isInteger(value) ? { clock: value, deletes: null } : null
  }
  if (!(value instanceof ArrayBuffer) && !(value instanceof Uint8Array)) return null
  try {
    const snapshot = Y.decodeSnapshot(new Uint8Array(value))
    const clock = snapshot.sv.get(client)
    if (clock === undefined) return null
    return { clock, deletes: snapshot.ds.clients.size > 0 ? snapshot.ds : null }
  } catch {
    return null
  }
}

function toBase64(bytes: Uint8Array): string {
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  }
  return btoa(binary)
}

function fromBase64(base64: string): Uint8Array {
  const binary = atob(base64)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}
