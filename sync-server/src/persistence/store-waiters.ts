/**
 * Promises waiting for one document's stores to catch up with a change (what
 * `PersistenceExtension.whenStored` hands out; issue 3 item 3: the api's REST PATCH resolves
 * once its change is stored).
 */

interface StoreWaiter {
  target: number
  resolve(): void
  reject(error: Error): void
}

/**
 * The waiters of one loaded document. Changes are counted by the persistence (an update
 * counter, not a state vector: it also counts deletions); a waiter resolves once a store
 * has written its `target` count.
 */
export class StoreWaiters {
  private readonly waiters = new Set<StoreWaiter>()

  /**
   * Resolves once {@link settle} is called with a stored count of at least `target`.
   * @throws Error (rejects) when `timeoutMs` passes first, or with the error given to
   *   {@link rejectAll} (the project was deleted, the store gave up, the server stops).
   */
  wait(target: number, timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiter: StoreWaiter = {
        target,
        resolve: () => {
          clearTimeout(timer)
          resolve()
        },
        reject: (error) => {
          clearTimeout(timer)
          reject(error)
        },
      }
      const timer = setTimeout(() => {
        this.waiters.delete(waiter)
        reject(new Error(`The project document was not stored within ${timeoutMs} ms.`))
      }, timeoutMs)
      this.waiters.add(waiter)
    })
  }

  /** Resolves every waiter whose target `storedChanges` (the count a store wrote) reaches. */
  settle(storedChanges: number): void {
    for (const waiter of this.waiters) {
      if (storedChanges >= waiter.target) {
        this.waiters.delete(waiter)
        waiter.resolve()
      }
    }
  }

  /** Rejects every waiter with `error`: the store they wait for will not happen. */
  rejectAll(error: Error): void {
    for (const waiter of this.waiters) waiter.reject(error)
    this.waiters.clear()
  }
}
