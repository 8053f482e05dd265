import { afterEach, describe, expect, it, vi } from 'vitest'
import { clearAllDeviceCopies, clearDeviceCopy, deviceCopyName } from './device-copies'

/** A fake IDBFactory whose deletions succeed (or fail, or block) on the next tick. */
function fakeFactory(names: string[], outcome: 'success' | 'error' | 'blocked' = 'success') {
  const deleted: string[] = []
  const factory = {
    databases: () => Promise.resolve(names.map((name) => ({ name, version: 1 }))),
    deleteDatabase: (name: string) => {
      const request: Record<string, unknown> = { error: null }
      setTimeout(() => {
        deleted.push(name)
        const handler = request[`on${outcome}`]
        if (typeof handler === 'function') (handler as () => void)()
      })
      return request
    },
  }
  return { factory, deleted }
}

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('device copies', () => {
  it('names a copy reelgraph-project-<id>', () => {
    expect(deviceCopyName(42)).toBe('reelgraph-project-42')
  })

  it('resolves without IndexedDB (Node has none)', async () => {
    expect(typeof indexedDB).toBe('undefined')
    await expect(clearDeviceCopy(1)).resolves.toBeUndefined()
    await expect(clearAllDeviceCopies()).resolves.toBeUndefined()
  })

  it('deletes the one project database', async () => {
    const { factory, deleted } = fakeFactory([])
    vi.stubGlobal('indexedDB', factory)
    await clearDeviceCopy(7)
    expect(deleted).toEqual(['reelgraph-project-7'])
  })

  it('deletes every project database and nothing else', async () => {
    const { factory, deleted } = fakeFactory([
      'reelgraph-project-1',
      'other-app',
      'reelgraph-project-22',
      'reelgraph-projects',
    ])
    vi.stubGlobal('indexedDB', factory)
    await clearAllDeviceCopies()
    expect(deleted.sort()).toEqual(['reelgraph-project-1', 'reelgraph-project-22'])
  })

  it('resolves when a deletion fails or is blocked', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    vi.stubGlobal('indexedDB', fakeFactory([], 'error').factory)
    await expect(clearDeviceCopy(1)).resolves.toBeUndefined()
    vi.stubGlobal('indexedDB', fakeFactory([], 'blocked').factory)
    await expect(clearDeviceCopy(1)).resolves.toBeUndefined()
  })

  it('resolves when indexedDB.databases() is missing or throws', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    vi.stubGlobal('indexedDB', { deleteDatabase: () => ({}) })
    await expect(clearAllDeviceCopies()).resolves.toBeUndefined()
    vi.stubGlobal('indexedDB', { databases: () => Promise.reject(new Error('no')) })
    await expect(clearAllDeviceCopies()).resolves.toBeUndefined()
  })
})
