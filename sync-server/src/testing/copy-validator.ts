import {
  type ChangedTypes,
  DOC_CONNECTIONS_KEY,
  DOC_NODES_KEY,
  type DocRefusal,
  docCounts,
  MAX_PROJECT_BYTES,
  UPDATE_REFUSAL_REASONS,
  validateDocChange,
} from '@reelgraph/shared'
import * as Y from 'yjs'

/** The origin of the copy's trial apply, so its transaction can be told apart. */
const TRIAL_ORIGIN = Symbol('reelgraph-update-trial')

/**
 * Decision 003's check of a client update, kept for the tests only: the oracle of the
 * structural check (`inspectUpdate`, decision 011). The update is applied to a fresh copy of
 * `live` (its state, and what it holds pending), and shared's `validateDocChange` reads what
 * that transaction changed; the size rule measures the copy. `live` is not touched.
 * @returns the update's refusal, or null when `live` may take it
 */
export function checkOnCopy(live: Y.Doc, update: Uint8Array): DocRefusal | null {
  if (update.byteLength > MAX_PROJECT_BYTES) {
    return {
      reason: UPDATE_REFUSAL_REASONS.projectTooLarge,
      detail: `one update of ${update.byteLength} bytes`,
    }
  }
  const copy = new Y.Doc()
  try {
    // Typed as maps before anything is applied, so content sent as another type under
    // these names shows up as what it is (list content) instead of failing the cast.
    copy.getMap(DOC_NODES_KEY)
    copy.getMap(DOC_CONNECTIONS_KEY)
    const state = Y.encodeStateAsUpdate(live)
    Y.applyUpdate(copy, state)
    const { pendingStructs, pendingDs } = live.store
    if (pendingStructs) Y.applyUpdateV2(copy, pendingStructs.update)
    if (pendingDs) Y.applyUpdateV2(copy, pendingDs)
    const before = docCounts(copy)
    let changed: ChangedTypes | null = null
    const capture = (transaction: Y.Transaction) => {
      if (transaction.origin === TRIAL_ORIGIN) changed = transaction.changed
    }
    copy.on('afterTransaction', capture)
    try {
      Y.applyUpdate(copy, update, TRIAL_ORIGIN)
    } catch {
      return { reason: UPDATE_REFUSAL_REASONS.documentShape, detail: 'not a Yjs update' }
    } finally {
      copy.off('afterTransaction', capture)
    }
    if (!changed) return null
    const refusal = validateDocChange(copy, changed, before)
    if (refusal) return refusal
    if (state.byteLength + update.byteLength > MAX_PROJECT_BYTES) {
      const bytes = Y.encodeStateAsUpdate(copy).byteLength
      if (bytes > MAX_PROJECT_BYTES && bytes > state.byteLength) {
        return { reason: UPDATE_REFUSAL_REASONS.projectTooLarge, detail: `${bytes} bytes` }
      }
    }
    return null
  } finally {
    copy.destroy()
  }
}
