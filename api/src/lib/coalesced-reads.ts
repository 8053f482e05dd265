/**
 * Identical reads asked for in the same turn of the event loop share one query (coalescing,
 * as DataLoader batches the loads of one tick). The first caller's read waits for the loop's
 * next turn; callers asking for the same key meanwhile join it; then it goes to the database,
 * and later callers start a read of their own. So every caller's answer comes from a query sent
 * after the caller asked, and sees every change committed before it asked (an agent's
 * `update_node` then `get_project`, a token revoked then used); nothing is kept once the read
 * is sent, and two processes each coalesce their own callers without a shared state.
 *
 * Decision 030: 20 agents calling `get_project` at once authenticate the same token and read
 * the same project, and were 20 copies of the same two queries.
 *
 * Callers receive the same answer object: treat it as read-only, or copy it before changing it.
 */
export class CoalescedReads<V> {
  readonly #gathering = new WeakMap<object, Map<string, Promise<V>>>()

  /**
   * `read()`'s answer, shared with the callers that ask for `key` in `scope` (a database
   * handle: reads of two databases never mix) before the read is sent, at the loop's next turn.
   * @throws what `read` throws, to every caller that shared it
   */
  run(scope: object, key: string, read: () => Promise<V>): Promise<V> {
    let gathering = this.#gathering.get(scope)
    if (!gathering) {
      gathering = new Map()
      this.#gathering.set(scope, gathering)
    }
    const joined = gathering.get(key)
    if (joined) return joined
    const reads = gathering
    const started = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      reads.delete(key)
      return read()
    })
    reads.set(key, started)
    return started
  }
}
