import { type PendingChange, readStoredPendingChange, storePendingChange } from '@reelgraph/shared'
import type { IndexeddbPersistence } from 'y-indexeddb'
import type { PendingStore } from './save-tracker'

/**
 * Pending entries of the save tracker (client id -> its change not yet known to be stored:
 * shared `PendingChange`, in its stored form), kept in the `custom` store of the project's
 * y-indexeddb database under `pending:<clientId>`, so they are cleared with the device copy. One key per client,
 * so tabs of the same project never overwrite each other's entries.
 */

const PREFIX = 'pending:'
const CUSTOM_STORE = 'custom'

/** A {@link PendingStore} over the project's device copy; failures are only logged. */
export function pendingStoreOf(persistence: IndexeddbPersistence): PendingStore {
  const log = (error: unknown) => console.error('Could not update the device copy', error)
  return {
    put: (client, change) => {
      if (persistence._destroyed) return
      persistence.set(`${PREFIX}${client}`, storePendingChange(client, change)).catch(log)
    },
    remove: (client) => {
      if (!persistence._destroyed) persistence.del(`${PREFIX}${client}`).catch(log)
    },
  }
}

/** The pending entries kept on the device; empty when they cannot be read. */
export async function readPendingChanges(
  persistence: IndexeddbPersistence,
): Promise<[number, PendingChange][]> {
  const db = await persistence._db
  return new Promise((resolve) => {
    try {
      const tx = db.transaction([CUSTOM_STORE], 'readonly')
      const store = tx.objectStore(CUSTOM_STORE)
      const range = IDBKeyRange.bound(PREFIX, `${PREFIX}\uffff`)
      const keys = store.getAllKeys(range)
      const values = store.getAll(range)
      tx.oncomplete = () => {
        const entries: [number, PendingChange][] = []
        keys.result.forEach((key, i) => {
          const client = Number(String(key).slice(PREFIX.length))
          const change = readStoredPendingChange(client, values.result[i])
          if (Number.isInteger(client) && change) entries.push([client, change])
        })
        resolve(entries)
      }
      tx.onerror = () => resolve([])
      tx.onabort = () => resolve([])
    } catch {
      resolve([])
    }
  })
}
