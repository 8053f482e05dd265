import type { ProjectSummary } from '@reelgraph/shared'
import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { parseCreatedProject, projectQueryKey, removeFromList, renameInList } from './projects-api'
import { QUERY_KEYS } from './query-keys'

function summary(id: number, name: string, updatedAt: string): ProjectSummary {
  return {
    id,
    name,
    description: '',
    nodeCount: 0,
    preview: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt,
    role: 'owner',
    ownerName: 'Ada',
  }
}

const list = [
  summary(3, 'Three', '2026-03-03T00:00:00.000Z'),
  summary(2, 'Two', '2026-02-02T00:00:00.000Z'),
  summary(1, 'One', '2026-01-01T00:00:00.000Z'),
]

describe('parseCreatedProject', () => {
  it('accepts an answer with a numeric id', () => {
    expect(parseCreatedProject({ id: 7, name: 'My Project' })).toEqual({
      id: 7,
      name: 'My Project',
    })
  })

  it.each([null, {}, { name: 'x' }, { id: '7', name: 'x' }, { id: 1.5, name: 'x' }, 'ok'])(
    'throws a message fit for a toast for %j',
    (answer) => {
      expect(() => parseCreatedProject(answer)).toThrow(/valid project id/)
    },
  )
})

describe('renameInList', () => {
  it('renames the project and moves it to the front (most recently updated first)', () => {
    const renamed = { name: 'Uno', updatedAt: '2026-04-04T00:00:00.000Z' }
    expect(renameInList(list, 1, renamed)?.map((p) => [p.id, p.name, p.updatedAt])).toEqual([
      [1, 'Uno', '2026-04-04T00:00:00.000Z'],
      [3, 'Three', '2026-03-03T00:00:00.000Z'],
      [2, 'Two', '2026-02-02T00:00:00.000Z'],
    ])
  })

  it('leaves the list alone when the project is not in it, and the input untouched', () => {
    const before = structuredClone(list)
    expect(renameInList(list, 99, { name: 'x', updatedAt: 'y' })).toEqual(list)
    renameInList(list, 1, { name: 'x', updatedAt: 'y' })
    expect(list).toEqual(before)
  })

  it('keeps an empty cache empty', () => {
    expect(renameInList(undefined, 1, { name: 'x', updatedAt: 'y' })).toBeUndefined()
  })
})

describe('removeFromList', () => {
  it('drops the project', () => {
    expect(removeFromList(list, 2)?.map((p) => p.id)).toEqual([3, 1])
    expect(removeFromList(list, 99)).toEqual(list)
    expect(removeFromList(undefined, 2)).toBeUndefined()
  })
})

describe('projectQueryKey', () => {
  it("starts with the list's key (its contract path) so invalidating the list reaches each project", async () => {
    expect(projectQueryKey(5)).toEqual(['/projects', 5])
    const client = new QueryClient()
    client.setQueryData(projectQueryKey(5), { id: 5 })
    await client.invalidateQueries({ queryKey: QUERY_KEYS.projects })
    expect(client.getQueryState(projectQueryKey(5))?.isInvalidated).toBe(true)
  })
})
