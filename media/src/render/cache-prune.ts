import { readdir, rm, stat, utimes } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * Keeps the render cache (`cacheDir/segments`, `cacheDir/stills`, issue 13 item 3) within a
 * size: the renderer marks what it uses (`touchCacheEntry`), and `pruneRenderCache` removes
 * the least recently used entries past the limit. Files a render may still be using (newer
 * than `minAgeMs`) are never removed, so two renders sharing one cache do not pull segments
 * from under each other.
 */

/** Cache entries used within this long are kept whatever the size: 1 h, longer than a render. */
export const RENDER_CACHE_MIN_AGE_MS = 60 * 60 * 1000

/** The cache's sub-folders that hold entries. */
const CACHE_FOLDERS = ['segments', 'stills'] as const

/**
 * Marks a cache entry as used now (its modification time), so pruning removes it last.
 * Never throws: an entry that vanished is rendered again next time.
 */
export async function touchCacheEntry(path: string): Promise<void> {
  const now = new Date()
  await utimes(path, now, now).catch(() => {})
}

/** What {@link pruneRenderCache} did. */
export interface PruneResult {
  /** Bytes in the cache before and after, counted over its entries. */
  bytesBefore: number
  bytesAfter: number
  /** Entries removed. */
  removed: number
}

/**
 * Removes the least recently used entries of the render cache under `cacheDir` until it holds
 * at most `maxBytes`, never an entry used within `minAgeMs` (default
 * {@link RENDER_CACHE_MIN_AGE_MS}); `now` is for tests. A missing folder is an empty cache.
 * Temporary files of a render in progress (`*.tmp`) are never counted or removed.
 * @throws Error only when a folder cannot be read for another reason than not existing.
 * @see issue 13 item 3 (incremental renders, cached segments); docs/decisions/005
 */
export async function pruneRenderCache(
  cacheDir: string,
  maxBytes: number,
  options: { minAgeMs?: number; now?: number } = {},
): Promise<PruneResult> {
  const minAgeMs = options.minAgeMs ?? RENDER_CACHE_MIN_AGE_MS
  const now = options.now ?? Date.now()
  const entries: { path: string; bytes: number; usedAt: number }[] = []
  for (const folder of CACHE_FOLDERS) {
    const dir = join(cacheDir, folder)
    let names: string[]
    try {
      names = await readdir(dir)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue
      throw err
    }
    for (const name of names) {
      if (name.endsWith('.tmp')) continue
      const path = join(dir, name)
      const info = await stat(path).catch(() => null)
      if (info?.isFile()) entries.push({ path, bytes: info.size, usedAt: info.mtimeMs })
    }
  }
  const bytesBefore = entries.reduce((sum, e) => sum + e.bytes, 0)
  let bytes = bytesBefore
  let removed = 0
  entries.sort((a, b) => a.usedAt - b.usedAt)
  for (const entry of entries) {
    if (bytes <= maxBytes) break
    if (now - entry.usedAt < minAgeMs) break // the rest are newer still
    await rm(entry.path, { force: true })
    bytes -= entry.bytes
    removed++
  }
  return { bytesBefore, bytesAfter: bytes, removed }
}
