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

/** The origin of the copy's trial applies, so their transaction can be told apart. */
const TRIAL_ORIGIN = Symbol('reelgraph-update-trial')

/**
 * Checks updates to one loaded project document before they reach it (issue 11).
 *
 * Yjs cannot take an update back once applied, so each update is first applied to a copy
 * of the document (the "trial" doc), where the rules of shared's `validateDocChange` read
 * what the update touched. The copy follows the live document: every update the live
 * document takes (from clients, other sync servers through Redis, the api's gateway) is
 * applied to it too, which costs nothing for updates it already tried. A refused update
 * leaves the live document untouched, and the copy is rebuilt from the live document.
 *
 * Size: an update over MAX_PROJECT_BYTES is refused before it is decoded. The document's
 * encoded size is tracked as an upper bound (its size at start plus every update since);
 * only when that bound passes MAX_PROJECT_BYTES is the exact size measured, so the check
 * costs nothing until a project is near its limit.
 *
 * Memory: the copy holds the same state as the document, so a loaded document costs about
 * twice its Yjs state.
 */
export class DocumentValidator {
  private readonly live: Y.Doc
  private trial: Y.Doc
  /** An upper bound of `Y.encodeStateAsUpdate(live).byteLength`, in bytes. */
  private estimatedBytes = 0
  private readonly follow = (update: Uint8Array) => {
    Y.applyUpdate(this.trial, update)
    this.estimatedBytes += update.byteLength
  }

  constructor(live: Y.Doc) {
    this.live = live
    this.trial = this.copyOfLive()
    live.on('update', this.follow)
  }

  /**
   * Tries `update` on the copy.
   * @param update a Yjs update (v1), as a client sends in sync step 2 or an update message
   * @returns null when the live document may take it (the copy already holds it), or why not
   *   (the copy is then rebuilt from the live document)
   */
  check(update: Uint8Array): DocRefusal | null {
    if (update.byteLength > MAX_PROJECT_BYTES) {
      return {
        reason: UPDATE_REFUSAL_REASONS.projectTooLarge,
        detail: `one update of ${update.byteLength} bytes`,
      }
    }
    const refusal = this.tryOnCopy(update)
    if (refusal) this.trial = this.copyOfLive(this.trial)
    return refusal
  }

  /** Stops following the live document and frees the copy. */
  destroy(): void {
    this.live.off('update', this.follow)
    this.trial.destroy()
  }

  private tryOnCopy(update: Uint8Array): DocRefusal | null {
    const before = docCounts(this.trial)
    const bytesBefore = this.estimatedBytes
    let changed: ChangedTypes | null = null
    const capture = (transaction: Y.Transaction) => {
      if (transaction.origin === TRIAL_ORIGIN) changed = transaction.changed
    }
    this.trial.on('afterTransaction', capture)
    try {
      Y.applyUpdate(this.trial, update, TRIAL_ORIGIN)
    } catch {
      return { reason: UPDATE_REFUSAL_REASONS.documentShape, detail: 'not a Yjs update' }
    } finally {
      this.trial.off('afterTransaction', capture)
    }
    if (!changed) return null
    const refusal = validateDocChange(this.trial, changed, before)
    if (refusal) return refusal
    if (bytesBefore + update.byteLength > MAX_PROJECT_BYTES) {
      const bytes = Y.encodeStateAsUpdate(this.trial).byteLength
      if (bytes > MAX_PROJECT_BYTES && bytes > bytesBefore) {
        return { reason: UPDATE_REFUSAL_REASONS.projectTooLarge, detail: `${bytes} bytes` }
      }
      // The bound was loose: start again from the exact size, less this update (the live
      // document takes it next, and `follow` adds it).
      this.estimatedBytes = Math.max(0, bytes - update.byteLength)
    }
    return null
  }

  private copyOfLive(previous?: Y.Doc): Y.Doc {
    previous?.destroy()
    const state = Y.encodeStateAsUpdate(this.live)
    const copy = new Y.Doc()
    // Typed as maps before anything is applied, so content sent as another type under
    // these names shows up as what it is (list content) instead of failing the cast.
    copy.getMap(DOC_NODES_KEY)
    copy.getMap(DOC_CONNECTIONS_KEY)
    Y.applyUpdate(copy, state)
    this.estimatedBytes = state.byteLength
    return copy
  }
}
