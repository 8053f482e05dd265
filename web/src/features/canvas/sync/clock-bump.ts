import * as Y from 'yjs'

/**
 * A top-level map of the project doc that only the canvas writes and nothing reads: see
 * {@link keepClockMoving}. REST and the sync server read `nodes` and `connections` only.
 */
export const DOC_EDITOR_KEY = 'editor'

/**
 * Makes every local change advance this client's Yjs clock. Deleting (a node, a
 * connection, or undoing an add) only marks items deleted and leaves the clock where it
 * was, so a state vector cannot tell whether the deletion was stored; after such a
 * transaction this writes one small value to {@link DOC_EDITOR_KEY}, in a transaction of
 * its own that undo ignores. The `saved` message's state vector then covers the deletion.
 * @returns a function that stops it.
 */
export function keepClockMoving(doc: Y.Doc): () => void {
  const origin = { source: 'clock-bump' }
  const handler = (tr: Y.Transaction) => {
    if (!tr.local || tr.origin === origin || tr.deleteSet.clients.size === 0) return
    const before = tr.beforeState.get(doc.clientID) ?? 0
    const after = tr.afterState.get(doc.clientID) ?? Y.getState(doc.store, doc.clientID)
    if (after > before) return
    doc.transact(() => doc.getMap(DOC_EDITOR_KEY).set('deletedBy', doc.clientID), origin)
  }
  doc.on('afterTransaction', handler)
  return () => doc.off('afterTransaction', handler)
}
