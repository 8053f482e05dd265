import type { Hocuspocus, LocalTransactionOrigin } from '@hocuspocus/server'
import {
  applyGraphToDoc,
  docToGraph,
  type DocumentGateway,
  projectDocumentName,
} from '@reelgraph/shared'
import type * as Y from 'yjs'
import { applyAccessChangeLocally } from './access-channel/close-connections.ts'
import type { AccessChannelMessage } from './access-channel/messages.ts'
import { GATEWAY_STORE_TIMEOUT_MS, GATEWAY_UNLOAD_TIMEOUT_MS } from './config.ts'
import type { SyncServer } from './create-sync-server.ts'
import { SyncRefusal } from './refusal.ts'

/** The transaction origin of a REST change (a local, server-side write). */
const REST_ORIGIN: LocalTransactionOrigin = { source: 'local', context: { source: 'rest' } }
/** The transaction origin of a job's write (a local, server-side write; issue 12). */
const JOB_ORIGIN: LocalTransactionOrigin = { source: 'local', context: { source: 'job' } }

/**
 * What {@link createDocumentGateway} works on: the handles of a sync server made by
 * `createSyncServer` (pass the {@link SyncServer} itself), and its timeouts.
 */
export interface DocumentGatewayOptions {
  readonly hocuspocus: Hocuspocus
  readonly persistence: SyncServer['persistence']
  readonly accessChannel: SyncServer['accessChannel']
  /** Writes REST graph replacements into documents not open here (issue 23 item 3). */
  readonly writer?: SyncServer['writer'] | undefined
  /** Longest wait for a change to be stored, in ms (default GATEWAY_STORE_TIMEOUT_MS). */
  readonly storeTimeoutMs?: number | undefined
  /** Longest wait for a deleted project's document to unload, in ms (default GATEWAY_UNLOAD_TIMEOUT_MS). */
  readonly unloadTimeoutMs?: number | undefined
}

/**
 * Applies `change` here at once and tells every other sync server sharing this one's Redis
 * (through `server.accessChannel`, when there is one); what the gateway's closing calls do.
 * Never rejects because of Redis (see `AccessChannel.publish`).
 */
async function changeAccess(
  server: Pick<DocumentGatewayOptions, 'hocuspocus' | 'persistence' | 'accessChannel'>,
  change: AccessChannelMessage,
  unloadTimeoutMs?: number,
): Promise<void> {
  await Promise.all([
    applyAccessChangeLocally(server, change, unloadTimeoutMs),
    server.accessChannel?.publish(change),
  ])
}

/**
 * The {@link DocumentGateway} over a sync server made by `createSyncServer`: changes go through
 * a Hocuspocus direct connection (no network), so they reach connected providers like any
 * other edit and are persisted by the same extension. A REST graph replacement of a
 * document nobody has open here is written as stored instead, without opening it
 * (`StoredDocumentWriter`, issue 23 item 3): one Yjs update appended to the project's log and
 * relayed to the other sync servers.
 * @see issue 3 item 3 (a REST PATCH is applied to the live document)
 */
export function createDocumentGateway(options: DocumentGatewayOptions): DocumentGateway {
  const { hocuspocus, persistence } = options
  const storeTimeoutMs = options.storeTimeoutMs ?? GATEWAY_STORE_TIMEOUT_MS
  const unloadTimeoutMs = options.unloadTimeoutMs ?? GATEWAY_UNLOAD_TIMEOUT_MS

  /** Opens the document, runs `change` on it, and resolves with its result once stored. */
  async function change<T>(projectId: number, run: (doc: Y.Doc) => T): Promise<T> {
    let connection
    try {
      connection = await hocuspocus.openDirectConnection(projectDocumentName(projectId))
    } catch (err) {
      const reason = err instanceof SyncRefusal ? err.reason : String(err)
      throw new Error(`The document of project ${projectId} could not be opened (${reason}).`, {
        cause: err,
      })
    }
    let stored: Promise<void>
    let result: T
    try {
      const document = connection.document
      if (!document) throw new Error(`The document of project ${projectId} is not loaded.`)
      result = run(document)
      stored = persistence.whenStored(document, storeTimeoutMs)
    } catch (err) {
      await connection.disconnect()
      throw err
    }
    // Stores at once (no debounce), and unloads the document when no one else has it open.
    await Promise.all([stored, connection.disconnect()])
    return result
  }

  /** Whether the project's document is open (or opening) in this process's Hocuspocus. */
  const isOpenHere = (projectId: number) => {
    const name = projectDocumentName(projectId)
    return hocuspocus.documents.has(name) || hocuspocus.loadingDocuments.has(name)
  }

  return {
    // A document open (or opening) here takes the change live; any other is written as
    // stored, without opening it (issue 23 item 3).
    applyGraph: (projectId, graph) => {
      if (!isOpenHere(projectId) && options.writer) {
        return options.writer.applyGraph(projectId, graph)
      }
      return change(projectId, (document) => {
        applyGraphToDoc(document, graph, REST_ORIGIN)
        return docToGraph(document)
      })
    },

    knownNodes: (projectId) => options.writer?.knownNodes(projectId),

    // A document open here is written live, as a whole: it has no stored nodes to offer.
    readKnownNodes: async (projectId) =>
      isOpenHere(projectId) ? undefined : options.writer?.readKnownNodes(projectId),

    transact: (projectId, run) => change(projectId, (document) => run(document, JOB_ORIGIN)),

    closeDocument: (projectId) => changeAccess(options, { projectId }, unloadTimeoutMs),

    closeUserConnections: (projectId, userId) => changeAccess(options, { projectId, userId }),

    async closeSessionConnections(sessionIds) {
      if (sessionIds.length > 0) await changeAccess(options, { sessionIds: [...sessionIds] })
    },
  }
}
