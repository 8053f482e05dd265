import type { DB } from '@reelgraph/db'
import type { Kysely } from 'kysely'
import { sql } from 'kysely'
import { Counter, Gauge, Histogram, type Registry } from 'prom-client'
import type { LoadGate } from './load/load-gate.ts'
import type { MemoryBudget } from './load/memory-budget.ts'

/** Why a connection was refused as busy: the `reason` label of `reelgraph_sync_refused_connections_total`. */
export type BusyReason = 'memory' | 'heap' | 'load-queue'

/**
 * How the REST autosave read a project's stored document it kept no copy of: the `via` label
 * of `reelgraph_rest_document_reads_total` (decision 021).
 */
export type RestReadVia = 'graph-index' | 'document'

/**
 * The sync server's metrics (issue 23 item 4), registered in the process's prom-client
 * registry and served as Prometheus text at `/metrics` (the api's in `npm start`, the
 * standalone server's own): open documents, their estimated bytes against the budget,
 * loads waiting, refused connections by reason, store latency, and the project log rows
 * awaiting compaction. Each is documented in the README.
 */
export class SyncMetrics {
  readonly refused: Counter<'reason'>
  readonly storeSeconds: Histogram
  readonly restReads: Counter<'via'>

  constructor(options: {
    registry: Registry
    /** How many documents are open in this process. */
    openDocuments: () => number
    /** How many connections are open in this process. */
    connections: () => number
    budget: MemoryBudget
    gate: LoadGate
    db: Kysely<DB>
  }) {
    const { registry, openDocuments, connections, budget, gate, db } = options
    const registers = [registry]
    new Gauge({
      name: 'reelgraph_sync_open_documents',
      help: 'Project documents loaded in this process.',
      registers,
      collect() {
        this.set(openDocuments())
      },
    })
    new Gauge({
      name: 'reelgraph_sync_connections',
      help: 'Open sync connections (sockets and direct connections) in this process.',
      registers,
      collect() {
        this.set(connections())
      },
    })
    new Gauge({
      name: 'reelgraph_sync_document_bytes_estimated',
      help: 'Estimated heap bytes of the open documents, cached copies and loads under way.',
      registers,
      collect() {
        this.set(budget.usedBytes)
      },
    })
    new Gauge({
      name: 'reelgraph_sync_memory_budget_bytes',
      help: 'The memory budget for open documents (SYNC_MEMORY_BUDGET_MB, or its default share of the V8 heap limit).',
      registers,
      collect() {
        this.set(budget.limitBytes)
      },
    })
    new Gauge({
      name: 'reelgraph_sync_document_loads',
      help: 'Document loads running (state="running") and waiting for a turn (state="queued").',
      labelNames: ['state'],
      registers,
      collect() {
        this.set({ state: 'running' }, gate.inFlight)
        this.set({ state: 'queued' }, gate.queued)
      },
    })
    this.refused = new Counter({
      name: 'reelgraph_sync_refused_connections_total',
      help: 'Connections refused as busy, by reason: memory (budget), heap (V8 heap past 85% of its limit), load-queue (too many documents waiting to load).',
      labelNames: ['reason'],
      registers,
    })
    for (const reason of ['memory', 'heap', 'load-queue'] satisfies BusyReason[]) {
      this.refused.inc({ reason }, 0)
    }
    this.storeSeconds = new Histogram({
      name: 'reelgraph_document_store_seconds',
      help: 'Time to append a document change to its project log (a store), in seconds.',
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    })
    this.restReads = new Counter({
      name: 'reelgraph_rest_document_reads_total',
      help: "Stored documents the REST autosave read, by how: graph-index (the snapshot's index, nothing decoded) or document (decoded: log rows not yet compacted, or no index).",
      labelNames: ['via'],
      registers,
    })
    for (const via of ['graph-index', 'document'] satisfies RestReadVia[]) {
      this.restReads.inc({ via }, 0)
    }
    new Gauge({
      name: 'reelgraph_document_log_rows',
      help: 'Rows in the project document logs awaiting compaction (all projects, all processes).',
      registers,
      async collect() {
        const { rows } = await sql<{ n: string }>`
          select count(*)::text as n from project_document_updates`.execute(db)
        this.set(Number(rows[0]?.n ?? 0))
      },
    })
  }
}
