import type {
  afterHandleMessagePayload,
  beforeSyncPayload,
  Connection,
  Extension,
} from '@hocuspocus/server'
import {
  type DocRefusal,
  MAX_PROJECT_BYTES,
  SYNC_MESSAGE_TYPES,
  SYNC_UPDATE_REFUSED,
  UPDATE_REFUSAL_MESSAGES,
  UPDATE_REFUSAL_REASONS,
  type UpdateRefusedMessage,
} from '@reelgraph/shared'
import { messageYjsSyncStep2, messageYjsUpdate } from 'y-protocols/sync'
import * as Y from 'yjs'
import type { SyncLogger } from '../logger.ts'
import { inspectUpdate } from '../validation/update-inspector.ts'
import type { SyncContext } from './auth.ts'

/** What the validation knows of a document's encoded size (the persistence extension tracks it). */
export interface DocumentSizes {
  /**
   * An upper bound of a loaded document's encoded Yjs size, in bytes (its loaded size plus
   * every update since); undefined when unknown.
   */
  boundOf(document: Y.Doc): number | undefined
  /** The document's exact encoded size was measured: the bound starts again from it. */
  measured(document: Y.Doc, bytes: number): void
}

export interface ValidationOptions {
  logger: SyncLogger
  sizes: DocumentSizes
}

/**
 * Checks every update a client sends before it is applied, broadcast or stored (issue 11):
 * the document shape, text hygiene and project limits of shared's rules, read off the
 * update's structs against the live document ({@link inspectUpdate}; issue 23 item 1,
 * decision 011, superseding decision 003's copy of the document).
 *
 * A refused update is dropped as a whole: the connection turns read-only at once (so
 * Hocuspocus applies neither it nor anything queued behind it), the sender gets a stateless
 * `update-refused` message with the reason, and its connection to the document is closed
 * with {@link SYNC_UPDATE_REFUSED}. Other clients never see the update; it is never stored;
 * later edits by anyone go on as before.
 *
 * Client updates to one document are checked and applied one at a time: the check of one
 * update and its apply are separated by Hocuspocus' hook chain, and another client's
 * update slipping in between would be applied against a document the check did not see. So
 * a document's turn is taken before the check and handed on once Hocuspocus has applied the
 * message (`afterHandleMessage`, which it always runs).
 *
 * Updates from other sync servers (Redis) and from the api's gateway are not checked here:
 * the first were checked on the server their client sent them to, the second by REST's
 * schemas.
 */
export class ValidationExtension implements Extension {
  readonly extensionName = 'reelgraph-validation'
  private readonly logger: SyncLogger
  private readonly sizes: DocumentSizes
  /** The connection whose update is between its check and its apply, per document. */
  private readonly turns = new WeakMap<Y.Doc, { holder: Connection; waiting: (() => void)[] }>()

  constructor(options: ValidationOptions) {
    this.logger = options.logger
    this.sizes = options.sizes
  }

  async beforeSync({
    connection,
    document,
    type,
    payload,
    context,
  }: beforeSyncPayload<SyncContext>): Promise<void> {
    if (type !== messageYjsSyncStep2 && type !== messageYjsUpdate) return
    // A viewer's updates are dropped by Hocuspocus anyway; so are a refused connection's.
    if (connection.readOnly) return
    await this.takeTurn(document, connection)
    const refusal = this.check(document, payload)
    if (!refusal) return
    connection.readOnly = true
    this.logger.warn(
      {
        projectId: context.projectId,
        userId: context.userId,
        reason: refusal.reason,
        detail: refusal.detail,
        bytes: payload.byteLength,
      },
      'sync update refused',
    )
    const message: UpdateRefusedMessage = {
      type: SYNC_MESSAGE_TYPES.updateRefused,
      reason: refusal.reason,
      message: UPDATE_REFUSAL_MESSAGES[refusal.reason],
      detail: refusal.detail,
    }
    connection.sendStateless(JSON.stringify(message))
    connection.close({ ...SYNC_UPDATE_REFUSED })
  }

  async afterHandleMessage({ connection, document }: afterHandleMessagePayload): Promise<void> {
    const turn = this.turns.get(document)
    if (!turn || turn.holder !== connection) return
    const next = turn.waiting.shift()
    if (next) next()
    else this.turns.delete(document)
  }

  /** Waits until no other client update of `document` is between its check and its apply. */
  private async takeTurn(document: Y.Doc, connection: Connection): Promise<void> {
    const turn = this.turns.get(document)
    if (!turn) {
      this.turns.set(document, { holder: connection, waiting: [] })
      return
    }
    await new Promise<void>((resolve) => turn.waiting.push(resolve))
    turn.holder = connection
  }

  /**
   * The update's refusal, or null. Size (issue 11): an update over MAX_PROJECT_BYTES is
   * refused before it is decoded; the document's encoded size is measured only when its
   * upper bound and the update together pass the limit, and the update is then refused when
   * the document holding it would be over the limit and larger than before.
   */
  private check(document: Y.Doc, update: Uint8Array): DocRefusal | null {
    if (update.byteLength > MAX_PROJECT_BYTES) {
      return {
        reason: UPDATE_REFUSAL_REASONS.projectTooLarge,
        detail: `one update of ${update.byteLength} bytes`,
      }
    }
    let refusal: DocRefusal | null
    try {
      refusal = inspectUpdate(document, update)
    } catch (err) {
      // A value no rule expected (issue 40 item 7): refused, never a crash that resets the
      // connection. Logged as an error: the rules should have named it.
      this.logger.error({ err }, 'sync update check failed; the update is refused')
      return {
        reason: UPDATE_REFUSAL_REASONS.documentShape,
        detail: 'the update holds a value the rules cannot read',
      }
    }
    if (refusal) return refusal
    const bound = this.sizes.boundOf(document)
    if (bound !== undefined && bound + update.byteLength <= MAX_PROJECT_BYTES) return null
    const state = Y.encodeStateAsUpdate(document)
    this.sizes.measured(document, state.byteLength)
    if (state.byteLength + update.byteLength <= MAX_PROJECT_BYTES) return null
    const after = Y.mergeUpdates([state, update]).byteLength
    if (after > MAX_PROJECT_BYTES && after > state.byteLength) {
      return { reason: UPDATE_REFUSAL_REASONS.projectTooLarge, detail: `${after} bytes` }
    }
    return null
  }
}
