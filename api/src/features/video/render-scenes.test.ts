import { mkdir, mkdtemp, readdir, rm, utimes } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { removeAbandonedWork } from './render-scenes.ts'

describe('removeAbandonedWork (a render process that died leaves nothing for good)', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'reelgraph-work-'))
  })
  afterEach(() => rm(dir, { recursive: true, force: true }))

  it('removes job folders older than the longest render, keeps live ones and anything else', async () => {
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000)
    for (const name of ['job-dead', 'job-live', 'keep-me']) await mkdir(join(dir, name))
    await utimes(join(dir, 'job-dead'), old, old)
    await utimes(join(dir, 'keep-me'), old, old)
    await removeAbandonedWork(dir, 60 * 60 * 1000)
    expect((await readdir(dir)).sort()).toEqual(['job-live', 'keep-me'])
  })

  it('does nothing for a folder that does not exist', async () => {
    await expect(removeAbandonedWork(join(dir, 'missing'), 1000)).resolves.toBeUndefined()
  })
})
