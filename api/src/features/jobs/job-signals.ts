import { EventEmitter } from 'node:events'

/**
 * In-process news about jobs (issue 12): a job finished (its waiting request answers at once)
 * or was cancelled (its running provider call stops at once). Across processes the same news
 * travels through the job row, which waiters and workers poll (`JOB_POLL_MS`).
 */
export class JobSignals {
  readonly #events = new EventEmitter().setMaxListeners(0)

  /** Tells this process's waiters that job `jobId` finished. */
  finished(jobId: string): void {
    this.#events.emit(`finished:${jobId}`)
  }

  /** Tells this process's worker running job `jobId` that it was cancelled. */
  cancelled(jobId: string): void {
    this.#events.emit(`cancelled:${jobId}`)
  }

  /** Calls `listener` when job `jobId` finishes here; returns the unsubscribe. */
  onFinished(jobId: string, listener: () => void): () => void {
    return this.#on(`finished:${jobId}`, listener)
  }

  /** Calls `listener` when job `jobId` is cancelled here; returns the unsubscribe. */
  onCancelled(jobId: string, listener: () => void): () => void {
    return this.#on(`cancelled:${jobId}`, listener)
  }

  #on(event: string, listener: () => void): () => void {
    this.#events.on(event, listener)
    return () => this.#events.off(event, listener)
  }
}
