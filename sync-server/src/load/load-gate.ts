/**
 * Loads documents a few at a time (issue 23 item 2: a storm of connections is admitted at
 * the rate the server can load documents). At most `concurrency` loads run at once; up to
 * `maxQueued` more wait their turn in order; beyond that {@link isFull} says so and the
 * connection is refused as busy, to retry later, instead of every load starting at once
 * and none finishing in time.
 */
export class LoadGate {
  private readonly concurrency: number
  private readonly maxQueued: number
  private running = 0
  private readonly waiting: (() => void)[] = []

  constructor(options: { concurrency: number; maxQueued: number }) {
    this.concurrency = options.concurrency
    this.maxQueued = options.maxQueued
  }

  /** Loads running now. */
  get inFlight(): number {
    return this.running
  }

  /** Loads waiting for a turn. */
  get queued(): number {
    return this.waiting.length
  }

  /** Whether one more load would have to wait past the queue's length. */
  isFull(): boolean {
    return this.running >= this.concurrency && this.waiting.length >= this.maxQueued
  }

  /**
   * Runs `load` in its turn and resolves with its result.
   * @param options.wait queue even when the queue is full (a server-side load, which has no
   *   one to retry it later)
   * @throws LoadGateFull at once when the queue is full; whatever `load` throws
   */
  async run<T>(load: () => Promise<T>, options: { wait?: boolean } = {}): Promise<T> {
    if (this.running >= this.concurrency) {
      if (!options.wait && this.waiting.length >= this.maxQueued) throw new LoadGateFull()
      await new Promise<void>((resolve) => this.waiting.push(resolve))
    } else {
      this.running += 1
    }
    try {
      return await load()
    } finally {
      const next = this.waiting.shift()
      // The turn passes on: `running` stays the same when someone was waiting.
      if (next) next()
      else this.running -= 1
    }
  }
}

/** Thrown by {@link LoadGate.run} when as many loads wait as the queue holds. */
export class LoadGateFull extends Error {
  constructor() {
    super('too many documents wait to load')
    this.name = 'LoadGateFull'
  }
}
