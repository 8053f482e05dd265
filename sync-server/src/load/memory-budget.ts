import { getHeapStatistics } from 'node:v8'
import {
  DOCUMENT_BASE_COST_BYTES,
  DOCUMENT_RESERVATION_BYTES,
  HEAP_BYTES_PER_DOCUMENT_BYTE,
  HEAP_REFUSE_HEADROOM_BYTES,
  HEAP_REFUSE_SHARE,
  MEMORY_BUDGET_HEAP_SHARE,
  MEMORY_BUDGET_REFUSAL_SHARE,
} from '../config.ts'

/** The V8 heap's size now and its limit, in bytes. */
export interface HeapReading {
  used: number
  limit: number
}

/** This process's V8 heap (`v8.getHeapStatistics`). */
export function readHeap(): HeapReading {
  const stats = getHeapStatistics()
  return { used: stats.used_heap_size, limit: stats.heap_size_limit }
}

/**
 * The heap size, in bytes, past which no document is opened, for a V8 heap limit of `limit`
 * bytes: HEAP_REFUSE_SHARE of it, or HEAP_REFUSE_HEADROOM_BYTES below it when that is lower.
 */
export function heapRefusalThresholdBytes(limit: number): number {
  return Math.min(limit * HEAP_REFUSE_SHARE, limit - HEAP_REFUSE_HEADROOM_BYTES)
}

/**
 * The default memory budget, in bytes: MEMORY_BUDGET_HEAP_SHARE of the V8 heap limit, or on a
 * small heap MEMORY_BUDGET_REFUSAL_SHARE of where the heap refusal starts
 * ({@link heapRefusalThresholdBytes}), when that is lower.
 */
export function defaultMemoryBudgetBytes(heap: HeapReading = readHeap()): number {
  return Math.floor(
    Math.min(
      heap.limit * MEMORY_BUDGET_HEAP_SHARE,
      heapRefusalThresholdBytes(heap.limit) * MEMORY_BUDGET_REFUSAL_SHARE,
    ),
  )
}

/** Why a document cannot be opened now (the `reason` label of the refusal metric). */
export type BudgetRefusal = 'memory' | 'heap'

/**
 * What the open documents of one process cost, against its budget (issue 23 item 2,
 * decision 012). Each open document (and each cached copy the REST path keeps) is counted
 * at an estimate of its heap: {@link costOf} its encoded Yjs size, calibrated on the
 * 300-node fixture. A document about to load holds a reservation (DOCUMENT_RESERVATION_BYTES,
 * or the mean of the open documents when larger) until its real size is known.
 *
 * A new document is refused when the estimates would pass the budget, or when the V8 heap
 * itself is past {@link heapRefusalThresholdBytes} (the estimate's safety net: whatever else
 * the process holds, it does not open more documents while the heap is that full).
 */
export class MemoryBudget {
  /** The budget for documents, in bytes of estimated heap. */
  readonly limitBytes: number
  private readonly heap: () => HeapReading
  private readonly costs = new Map<string, number>()
  private readonly reserved = new Map<string, number>()
  private readonly reclaimers: (() => boolean)[] = []
  private used = 0

  constructor(options: { limitBytes?: number | undefined; heap?: () => HeapReading }) {
    this.heap = options.heap ?? readHeap
    this.limitBytes = options.limitBytes ?? defaultMemoryBudgetBytes(this.heap())
  }

  /** The estimated heap of a document whose Yjs state encodes to `encodedBytes`. */
  static costOf(encodedBytes: number): number {
    return DOCUMENT_BASE_COST_BYTES + encodedBytes * HEAP_BYTES_PER_DOCUMENT_BYTE
  }

  /** Estimated bytes of every counted document and reservation. */
  get usedBytes(): number {
    return this.used
  }

  /** How many documents (and cached copies) are counted. */
  get documents(): number {
    return this.costs.size
  }

  /**
   * What a document about to load is counted at: DOCUMENT_RESERVATION_BYTES, or the mean
   * cost of the documents open now when that is more (projects here are larger), so the
   * estimate stays within the budget once the document's real size is known.
   */
  private reservationBytes(): number {
    const count = this.costs.size
    const open = this.used - this.reservedTotal
    return Math.max(DOCUMENT_RESERVATION_BYTES, count > 0 ? Math.ceil(open / count) : 0)
  }

  /** Bytes held by reservations. */
  private get reservedTotal(): number {
    let total = 0
    for (const bytes of this.reserved.values()) total += bytes
    return total
  }

  /**
   * Registers what can give memory back on demand (the REST path's kept copies): called,
   * until it returns false, whenever one more document would not fit.
   */
  addReclaimer(reclaim: () => boolean): void {
    this.reclaimers.push(reclaim)
  }

  /**
   * Why one more document may not be opened now, or null when there is room for one more
   * reservation (after giving back what the reclaimers can).
   */
  refusal(): BudgetRefusal | null {
    const reservation = this.reservationBytes()
    for (const reclaim of this.reclaimers) {
      let freed = true
      while (freed && this.used + reservation > this.limitBytes) freed = reclaim()
    }
    if (this.used + reservation > this.limitBytes) return 'memory'
    const heap = this.heap()
    if (heap.used > heapRefusalThresholdBytes(heap.limit)) return 'heap'
    return null
  }

  /**
   * Reserves room for the document `key` while it loads.
   * @returns why there is no room, or null once reserved (release it with {@link set} or
   *   {@link delete})
   */
  reserve(key: string): BudgetRefusal | null {
    if (this.costs.has(key) || this.reserved.has(key)) return null
    const refusal = this.refusal()
    if (refusal) return refusal
    const reservation = this.reservationBytes()
    this.reserved.set(key, reservation)
    this.used += reservation
    return null
  }

  /** Counts the document `key` at its current encoded size (replacing its reservation). */
  set(key: string, encodedBytes: number): void {
    this.dropReservation(key)
    const cost = MemoryBudget.costOf(encodedBytes)
    this.used += cost - (this.costs.get(key) ?? 0)
    this.costs.set(key, cost)
  }

  /** Stops counting the document `key` (unloaded, or its load failed). */
  delete(key: string): void {
    this.dropReservation(key)
    const cost = this.costs.get(key)
    if (cost === undefined) return
    this.used -= cost
    this.costs.delete(key)
  }

  private dropReservation(key: string): void {
    const reserved = this.reserved.get(key)
    if (reserved === undefined) return
    this.used -= reserved
    this.reserved.delete(key)
  }
}
