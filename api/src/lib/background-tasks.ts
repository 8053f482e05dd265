import type { Logger } from 'pino'

/**
 * Work a request starts but does not wait for (emails after a reset request, so known and
 * unknown addresses answer alike). Failures are logged, never dropped silently;
 * `drain()` waits for everything started so far (tests, graceful shutdown).
 */
export class BackgroundTasks {
  readonly #pending = new Set<Promise<void>>()
  readonly #logger: Logger

  constructor(logger: Logger) {
    this.#logger = logger
  }

  /** Runs `task` without blocking the caller; `name` labels it in the log. */
  run(name: string, task: () => Promise<void>): void {
    const promise = task()
      .catch((err: unknown) => this.#logger.error({ err, task: name }, 'background task failed'))
      .finally(() => this.#pending.delete(promise))
    this.#pending.add(promise)
  }

  /** Resolves when every task started before the call has settled. */
  async drain(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending])
  }
}
