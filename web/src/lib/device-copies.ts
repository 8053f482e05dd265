/**
 * The copies of project documents kept on this device by y-indexeddb: one IndexedDB
 * database per project, named {@link deviceCopyName}. Deleting a project clears its copy;
 * signing out clears them all (issue 3). Both resolve even where IndexedDB is unavailable
 * (private windows, old browsers, Node) or the deletion is blocked: a leftover copy is
 * only wasted space.
 */

/** The prefix of every device copy's IndexedDB database name. */
export const DEVICE_COPY_PREFIX = 'reelgraph-project-'

/** The IndexedDB database name of a project's device copy: `reelgraph-project-<id>`. */
export function deviceCopyName(projectId: number): string {
  return `${DEVICE_COPY_PREFIX}${String(projectId)}`
}

/** The IndexedDB factory, or null when this environment has none. */
function idb(): IDBFactory | null {
  return typeof indexedDB === 'undefined' ? null : indexedDB
}

/** Deletes one database; resolves on success, error or block (never rejects). */
function deleteDatabase(factory: IDBFactory, name: string): Promise<void> {
  return new Promise((resolve) => {
    try {
      const request = factory.deleteDatabase(name)
      request.onsuccess = () => resolve()
      request.onerror = () => {
        console.error('Could not delete the device copy', name, request.error)
        resolve()
      }
      // Another tab still has it open; the deletion completes once it closes.
      request.onblocked = () => resolve()
    } catch (error) {
      console.error('Could not delete the device copy', name, error)
      resolve()
    }
  })
}

/** Deletes the device copy of one project. Resolves even without IndexedDB. */
export async function clearDeviceCopy(projectId: number): Promise<void> {
  const factory = idb()
  if (!factory) return
  await deleteDatabase(factory, deviceCopyName(projectId))
}

/**
 * Deletes every project's device copy (every database whose name starts with
 * {@link DEVICE_COPY_PREFIX}). Resolves even without IndexedDB or `indexedDB.databases()`.
 */
export async function clearAllDeviceCopies(): Promise<void> {
  const factory = idb()
  if (!factory || typeof factory.databases !== 'function') return
  let names: string[]
  try {
    const databases = await factory.databases()
    names = databases
      .map((db) => db.name)
      .filter((name): name is string => !!name && name.startsWith(DEVICE_COPY_PREFIX))
  } catch (error) {
    console.error('Could not list the device copies', error)
    return
  }
  await Promise.all(names.map((name) => deleteDatabase(factory, name)))
}
