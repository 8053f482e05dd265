import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import type { RetryPolicy } from '../provider-http.ts'

/** Quick polls keep the provider suites fast; production polls every 2 s (CLIP_POLL_INTERVAL_MS). */
export const TEST_POLL_MS = 10
/** Quick retries for the provider suites: three attempts, 10 ms apart at first. */
export const TEST_RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 10, maxDelayMs: 2_000 }

/** A test file's work folder: made before its tests, removed after them. */
export interface ClipFolder {
  /** The folder's absolute path (set once the file's first `beforeAll` ran). */
  readonly dir: string
  /** A fresh clip path in it: `clip-1.mp4`, `clip-2.mp4`, ... */
  outPath(): string
}

/**
 * Registers the `beforeAll`/`afterAll` of a work folder named `<prefix>-…` under the system's
 * temporary folder; call it at a test file's top level, before hooks that use the folder.
 */
export function clipFolder(prefix: string): ClipFolder {
  let dir = ''
  let n = 0
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), `${prefix}-`))
  })
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true })
  })
  return {
    get dir() {
      return dir
    },
    outPath: () => join(dir, `clip-${++n}.mp4`),
  }
}
