import type {
  connectedPayload,
  Extension,
  onConnectPayload,
  onDisconnectPayload,
} from '@hocuspocus/server'
import { refuseBusy, type SocketContext } from '../load/busy.ts'
import type { LoadGate } from '../load/load-gate.ts'
import type { MemoryBudget } from '../load/memory-budget.ts'
import type { SyncLogger } from '../logger.ts'
import type { SyncMetrics } from '../metrics.ts'

export interface AdmissionOptions {
  budget: MemoryBudget
  gate: LoadGate
  metrics: SyncMetrics
  logger: SyncLogger
}

/**
 * Admission control (issue 23 item 2, decision 012): a connection to a document that is not
 * open here is refused as busy, before anything else runs for it (no session lookup, no
 * load), when opening the document would pass the memory budget ({@link MemoryBudget}) or
 * when as many documents already wait to load as the {@link LoadGate} queues. A connection
 * to a document already open (or loading) costs no memory and is always let through.
 *
 * The load itself reserves its room and waits its turn in the persistence extension, which
 * refuses the same way when the room went to another document meanwhile.
 */
export class AdmissionExtension implements Extension {
  readonly extensionName = 'reelgraph-admission'
  /** Before authentication: a busy server refuses without a database query. */
  readonly priority = 1100
  private readonly options: AdmissionOptions

  constructor(options: AdmissionOptions) {
    this.options = options
  }

  async onConnect({ documentName, instance, context }: onConnectPayload): Promise<void> {
    if (instance.documents.has(documentName) || instance.loadingDocuments.has(documentName)) return
    const { budget, gate } = this.options
    const reason = budget.refusal() ?? (gate.isFull() ? 'load-queue' : null)
    if (reason) {
      refuseBusy({ ...this.options, context: context as SocketContext, reason, documentName })
    }
  }

  async connected({ context }: connectedPayload): Promise<void> {
    const socket = (context as SocketContext).socket
    if (socket) socket.established += 1
  }

  async onDisconnect({ context }: onDisconnectPayload): Promise<void> {
    const socket = (context as SocketContext).socket
    if (socket) socket.established = Math.max(0, socket.established - 1)
  }
}
