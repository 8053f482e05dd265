import { QUERY_GC_TIME_MS, QUERY_RETRY_COUNT, QUERY_STALE_TIME_MS } from '@reelgraph/shared'
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query'
import { ApiError } from './api-client'
import { QUERY_KEYS } from './query-keys'

/**
 * Drops every cached answer that belongs to an account (credits, projects, subscription
 * status...), keeping only the session probe. Used whenever the signed-in account changes,
 * so the next person never sees the previous one's data, even for a moment.
 * Spec §4 Auth asks for the project and subscription caches to be invalidated on logout;
 * removing them is that and more.
 */
export function clearAccountQueries(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== QUERY_KEYS.user[0] })
}

/**
 * A 401 from any call other than the session probe itself means the session ended (expired,
 * signed out elsewhere). Forget the user so the route guard sends the person to /auth
 * (CONVENTIONS Web: "401 to the sign-in page"). A failed login is a 401 too, but with its
 * own code, and must not count.
 */
function onUnauthenticated(client: () => QueryClient, error: unknown): void {
  if (!(error instanceof ApiError) || error.status !== 401) return
  if (error.code === 'INVALID_CREDENTIALS') return
  const qc = client()
  if (qc.getQueryData(QUERY_KEYS.user) == null) return
  qc.setQueryData(QUERY_KEYS.user, null)
  clearAccountQueries(qc)
}

/**
 * Builds the app's query client with the spec's data-fetching defaults: fresh for 60 s,
 * one retry, no refetch on focus or interval, unused data dropped after 5 min, mutations
 * never retried. There is no default query function: each query makes its own typed call
 * (`getQueryFn` over `api`, issue 41 item 4); a reader of the cache alone (`enabled: false`)
 * is refetched with the function of the query that fills it.
 * @see spec §9 Data fetching, §7
 */
export function createQueryClient(): QueryClient {
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (error) => onUnauthenticated(() => queryClient, error) }),
    mutationCache: new MutationCache({
      onError: (error) => onUnauthenticated(() => queryClient, error),
    }),
    defaultOptions: {
      queries: {
        staleTime: QUERY_STALE_TIME_MS,
        retry: QUERY_RETRY_COUNT,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        gcTime: QUERY_GC_TIME_MS,
      },
      mutations: { retry: false },
    },
  })
  return queryClient
}
