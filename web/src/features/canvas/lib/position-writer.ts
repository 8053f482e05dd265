import { DRAG_WRITE_INTERVAL_MS } from '@reelgraph/shared'

type Position = { x: number; y: number }

/** The clock and timers {@link PositionWriter} uses (injectable for tests). */
export interface WriterClock {
  now: () => number
  setTimeout: (fn: () => void, ms: number) => unknown
  clearTimeout: (handle: unknown) => void
}

const realClock: WriterClock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

/**
 * Collects drag positions and writes them at most once per `intervalMs` (20 times a
 * second, issue 3), the latest position of each node winning; `flush()` writes what is
 * left at once (drag end).
 */
export class PositionWriter {
  private readonly write: (positions: ReadonlyMap<string, Position>) => void
  private readonly intervalMs: number
  private readonly clock: WriterClock
  private pending = new Map<string, Position>()
  private lastWrite = -Infinity
  private timer: unknown = null

  constructor(
    write: (positions: ReadonlyMap<string, Position>) => void,
    intervalMs = DRAG_WRITE_INTERVAL_MS,
    clock: WriterClock = realClock,
  ) {
    this.write = write
    this.intervalMs = intervalMs
    this.clock = clock
  }

  /** Queues a node's position; writes now if the last write is old enough. */
  queue(id: string, position: Position): void {
    this.pending.set(id, { x: position.x, y: position.y })
    if (this.timer !== null) return
    const wait = this.lastWrite + this.intervalMs - this.clock.now()
    if (wait <= 0) this.flush()
    else
      this.timer = this.clock.setTimeout(() => {
        this.timer = null
        this.flush()
      }, wait)
  }

  /** Writes every queued position now. */
  flush(): void {
    if (this.timer !== null) {
      this.clock.clearTimeout(this.timer)
      this.timer = null
    }
    if (this.pending.size === 0) return
    const batch = this.pending
    this.pending = new Map()
    this.lastWrite = this.clock.now()
    this.write(batch)
  }

  /** Drops the timer; queued positions are written first. */
  dispose(): void {
    this.flush()
  }
}
