import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { pruneRenderCache, touchCacheEntry } from './cache-prune.ts'

describe('pruneRenderCache (issue 13 item 3)', () => {
  let dir: string
  const HOUR = 60 * 60 * 1000
  const now = Date.UTC(2026, 10, 25, 12)
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'reelgraph-cache-'))
    await mkdir(join(dir, 'segments'))
    await mkdir(join(dir, 'stills'))
  })
  afterEach(() => rm(dir, { recursive: true, force: true }))

  /** A cache entry of `bytes`, last used `hoursAgo` before `now`. */
  async function entry(name: string, bytes: number, hoursAgo: number) {
    const path = join(dir, name)
    await writeFile(path, Buffer.alloc(bytes))
    const at = new Date(now - hoursAgo * HOUR)
    await utimes(path, at, at)
    return path
  }

  it('removes the least recently used entries until the cache fits, never a recent one or a .tmp', async () => {
    await entry('segments/a.mp4', 400, 10)
    await entry('stills/b.jpg', 300, 9)
    await entry('segments/c.mp4', 200, 8)
    await entry('segments/d.mp4', 500, 0.5) // in use by a render
    await entry('segments/e.mp4.123.tmp', 900, 20) // being written
    const result = await pruneRenderCache(dir, 800, { now })
    expect(result).toEqual({ bytesBefore: 1400, bytesAfter: 700, removed: 2 })
    expect((await readdir(join(dir, 'segments'))).sort()).toEqual([
      'c.mp4',
      'd.mp4',
      'e.mp4.123.tmp',
    ])
    expect(await readdir(join(dir, 'stills'))).toEqual([])
  })

  it('keeps entries used within the minimum age even past the limit', async () => {
    await entry('segments/a.mp4', 400, 0.2)
    await entry('segments/b.mp4', 400, 0.1)
    expect(await pruneRenderCache(dir, 100, { now })).toMatchObject({ removed: 0, bytesAfter: 800 })
  })

  it('a touched entry is removed last', async () => {
    const a = await entry('segments/a.mp4', 400, 10)
    await entry('segments/b.mp4', 400, 9)
    await touchCacheEntry(a)
    await pruneRenderCache(dir, 400, { now: Date.now() + 2 * HOUR })
    expect(await readdir(join(dir, 'segments'))).toEqual(['a.mp4'])
  })

  it('reads a missing cache as empty', async () => {
    expect(await pruneRenderCache(join(dir, 'nope'), 0)).toEqual({
      bytesBefore: 0,
      bytesAfter: 0,
      removed: 0,
    })
  })
})
