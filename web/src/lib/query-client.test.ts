import { QUERY_GC_TIME_MS, QUERY_RETRY_COUNT, QUERY_STALE_TIME_MS } from '@reelgraph/shared'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createApiClient } from './api-client'
import { createQueryClient } from './query-client'
import { QUERY_KEYS } from './query-keys'

// Node's Request needs an absolute URL; in the browser the app's client uses `/api` itself.
const api = createApiClient('http://localhost/api')

afterEach(() => {
  vi.unstubAllGlobals()
})

function answer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  })
}

describe('createQueryClient', () => {
  it('uses the data-fetching constants of spec §9', () => {
    const { queries, mutations } = createQueryClient().getDefaultOptions()
    expect(queries?.staleTime).toBe(QUERY_STALE_TIME_MS)
    expect(queries?.retry).toBe(QUERY_RETRY_COUNT)
    expect(queries?.gcTime).toBe(QUERY_GC_TIME_MS)
    expect(queries?.refetchOnWindowFocus).toBe(false)
    expect(queries?.refetchInterval).toBe(false)
    expect(mutations?.retry).toBe(false)
  })

  it('forgets the user and their data when a call answers 401 (session ended)', async () => {
    const client = createQueryClient()
    client.setQueryData(QUERY_KEYS.user, { id: 1, name: 'Ada' })
    client.setQueryData(QUERY_KEYS.projects, [{ id: 7 }])
    vi.stubGlobal('fetch', async () =>
      answer(401, { error: { code: 'UNAUTHENTICATED', message: 'Sign in to continue.' } }),
    )
    await expect(
      client.fetchQuery({
        queryKey: QUERY_KEYS.credits,
        queryFn: () => api.GET('/user/credits'),
        retry: false,
      }),
    ).rejects.toThrow('401: ')
    expect(client.getQueryData(QUERY_KEYS.user)).toBeNull()
    expect(client.getQueryData(QUERY_KEYS.projects)).toBeUndefined()
  })

  it('does not treat a failed sign-in as the end of a session', async () => {
    const client = createQueryClient()
    client.setQueryData(QUERY_KEYS.user, { id: 1, name: 'Ada' })
    vi.stubGlobal('fetch', async () =>
      answer(401, { error: { code: 'INVALID_CREDENTIALS', message: 'Wrong password.' } }),
    )
    await expect(
      client.fetchQuery({
        queryKey: ['/login'],
        queryFn: () => api.POST('/login', { body: { email: 'ada@example.com', password: 'x' } }),
        retry: false,
      }),
    ).rejects.toThrow()
    expect(client.getQueryData(QUERY_KEYS.user)).toEqual({ id: 1, name: 'Ada' })
  })

  it('has no default query function: a key is never read as a URL (issue 41 item 4)', async () => {
    const fetchFn = vi.fn()
    vi.stubGlobal('fetch', fetchFn)
    await expect(
      createQueryClient().fetchQuery({ queryKey: QUERY_KEYS.credits, retry: false }),
    ).rejects.toThrow(/Missing queryFn/)
    expect(fetchFn).not.toHaveBeenCalled()
  })
})
