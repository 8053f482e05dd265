import type { beforeSyncPayload, beforeUnloadDocumentPayload, Extension } from '@hocuspocus/server'
import {
  SYNC_MESSAGE_TYPES,
  SYNC_UPDATE_REFUSED,
  UPDATE_REFUSAL_MESSAGES,
  type UpdateRefusedMessage,
} from '@reelgraph/shared'
import { messageYjsSyncStep2, messageYjsUpdate } from 'y-protocols/sync'
import type * as Y from 'yjs'
import type { SyncLogger } from '../logger.ts'
import { DocumentValidator } from '../validation/document-validator.ts'
import type { SyncContext } from './auth.ts'

export interface ValidationOptions {
  logger: SyncLogger
}

/**
 * Checks every update a client sends before it is applied, broadcast or stored (issue 11):
 * the document shape, text hygiene and project limits of shared's `validateDocChange`,
 * tried on a copy of the document ({@link DocumentValidator}).
 *
 * A refused update is dropped as a whole: the connection turns read-only at once (so
 * Hocuspocus applies neither it nor anything queued behind it), the sender gets a stateless
 * `update-refused` message with the reason, and its connection to the document is closed
 * with {@link SYNC_UPDATE_REFUSED}. Other clients never see the update; it is never stored;
 * later edits by anyone go on as before.
 *
 * Updates from other sync servers (Redis) and from the api's gateway are not checked here:
 * the first were checked on the server their client sent them to, the second by REST's
 * schemas.
 */
export class ValidationExtension implements Extension {
  readonly extensionName = 'reelgraph-validation'
  private readonly logger: SyncLogger
  private readonly validators = new WeakMap<Y.Doc, DocumentValidator>()

  constructor(options: ValidationOptions) {
    this.logger = options.logger
  }

  async beforeUnloadDocument({ document }: beforeUnloadDocumentPayload): Promise<void> {
    this.validators.get(document)?.destroy()
    this.validators.delete(document)
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
    const refusal = this.validatorOf(document).check(payload)
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

  /**
   * The document's validator, made at its first client update (issue 15 item 5): a document
   * only the api's gateway or other processes write (a REST PATCH, a job result) never pays
   * for the copy (its encode and apply, and as much memory as the document).
   */
  private validatorOf(document: Y.Doc): DocumentValidator {
    let validator = this.validators.get(document)
    if (!validator) {
      validator = new DocumentValidator(document)
      this.validators.set(document, validator)
    }
    return validator
  }
}
