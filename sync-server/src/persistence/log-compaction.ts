/**
 * Background compaction of the projects' update logs (issue 15, decision 008): never on the
 * save path.
 */
import { compactProjectDocument, type DB } from '@reelgraph/db'
import type { Kysely } from 'kysely'
import { LOG_COMPACT_BYTES, LOG_COMPACT_IDLE_MS, LOG_COMPACT_UPDATES } from '../config.ts'
import type { SyncLogger } from '../logger.ts'

/** Where {@link LogCompaction} compacts, and when (tests lower the thresholds). */
export interface LogCompactionOptions {
  db: Kysely<DB>
  logger: SyncLogger
  /** Log rows since the last compaction that start one (default LOG_COMPACT_UPDATES). */
  compactUpdates?: number | undefined
  /** Log bytes since the last compaction that start one (default LOG_COMPACT_BYTES). */
  compactBytes?: number | undefined
  /** Ms after a project's last append here before it is compacted (default LOG_COMPACT_IDLE_MS). */
  compactIdleMs?: number | undefined
}

/** This process's view of a project's log since its last compaction here (an estimate). */
interface LogState {
  /** Rows appended (or found at load) since the last compaction by this process. */
  updates: number
  bytes: number
  idle: NodeJS.Timeout | null
  running: boolean
}

/**
 * Compacts each project's log in the background: once the rows this process appended (or
 * loaded) since its last compaction of the project pass `compactUpdates` or `compactBytes`,
 * or `compactIdleMs` after its last append here, `compactProjectDocument` merges the log
 * into the snapshot and materializes `projects.nodes/connections`. Errors are logged, never
 * thrown: the log stays as it was and loads the same document.
 */
export class LogCompaction {
  private readonly db: Kysely<DB>
  private readonly logger: SyncLogger
  private readonly compactUpdates: number
  private readonly compactBytes: number
  private readonly compactIdleMs: number
  /** Per project with appends since its last compaction here; removed once compacted. */
  private readonly logs = new Map<number, LogState>()
  private readonly compactions = new Set<Promise<void>>()
  private stopping = false

  constructor(options: LogCompactionOptions) {
    this.db = options.db
    this.logger = options.logger
    this.compactUpdates = options.compactUpdates ?? LOG_COMPACT_UPDATES
    this.compactBytes = options.compactBytes ?? LOG_COMPACT_BYTES
    this.compactIdleMs = options.compactIdleMs ?? LOG_COMPACT_IDLE_MS
  }

  /**
   * Counts `updates` rows of `bytes` in the project's log (appended, or found at load) and
   * starts or schedules its compaction.
   */
  note(projectId: number, updates: number, bytes: number): void {
    if (this.stopping) return
    const log = this.logs.get(projectId) ?? { updates: 0, bytes: 0, idle: null, running: false }
    this.logs.set(projectId, log)
    log.updates += updates
    log.bytes += bytes
    if (log.running) return
    if (log.updates >= this.compactUpdates || log.bytes >= this.compactBytes) {
      void this.compactNow(projectId)
      return
    }
    if (log.updates === 0) return
    if (log.idle) clearTimeout(log.idle)
    log.idle = setTimeout(() => void this.compactNow(projectId), this.compactIdleMs)
    log.idle.unref()
  }

  /**
   * Compacts the project's log now (merges it into the snapshot, materializes the REST
   * JSON), unless this process is compacting it already. Errors are logged, not thrown: the
   * log stays as it was and loads the same document.
   */
  compactNow(projectId: number): Promise<void> {
    const log = this.logs.get(projectId) ?? { updates: 0, bytes: 0, idle: null, running: false }
    this.logs.set(projectId, log)
    if (log.idle) clearTimeout(log.idle)
    log.idle = null
    if (log.running) return Promise.resolve()
    log.running = true
    const counted = { updates: log.updates, bytes: log.bytes }
    const started = performance.now()
    let failed = false
    const run = compactProjectDocument({ db: this.db, projectId })
      .then((result) => {
        log.updates = Math.max(0, log.updates - counted.updates)
        log.bytes = Math.max(0, log.bytes - counted.bytes)
        this.logger.debug(
          { projectId, ...result, ms: Math.round(performance.now() - started) },
          'project document compacted',
        )
      })
      .catch((err: unknown) => {
        failed = true
        this.logger.error({ err, projectId }, 'compacting a project document failed')
      })
      .finally(() => {
        log.running = false
        this.compactions.delete(run)
        if (this.stopping) return
        if (failed) {
          // Tried again after the idle delay (or the next append past the threshold), not
          // at once: a database that refuses it would make a hot loop.
          log.idle = setTimeout(() => void this.compactNow(projectId), this.compactIdleMs)
          log.idle.unref()
        } else if (log.updates === 0 && !log.idle) this.logs.delete(projectId)
        else this.note(projectId, 0, 0)
      })
    this.compactions.add(run)
    return run
  }

  /** Drops what is known of the project's log (it was deleted), with its idle compaction. */
  forget(projectId: number): void {
    const log = this.logs.get(projectId)
    if (log?.idle) clearTimeout(log.idle)
    this.logs.delete(projectId)
  }

  /** Shutting down: no compaction is started or scheduled any more. */
  stop(): void {
    this.stopping = true
    this.stopIdleCompactions()
  }

  /** Cancels the idle compactions and resolves once those under way are done (never rejects). */
  async drain(): Promise<void> {
    this.stopIdleCompactions()
    await Promise.allSettled([...this.compactions])
  }

  private stopIdleCompactions(): void {
    for (const log of this.logs.values()) {
      if (log.idle) clearTimeout(log.idle)
      log.idle = null
    }
  }
}
