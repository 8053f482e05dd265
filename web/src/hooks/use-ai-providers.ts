import { type ProvidersOutput, providersOutput } from '@reelgraph/shared'
import { useQuery } from '@tanstack/react-query'
import { api, getQueryFn } from '@/lib/api-client'
import { QUERY_KEYS } from '@/lib/query-keys'

/**
 * `GET /api/ai/providers`: the active text and image providers and the costs in credits.
 * Read by the canvas (each Generate button's cost, the offline notice) and by billing's FAQ
 * (the costs sentence), so it lives outside both features.
 */
export function useAiProviders() {
  return useQuery<ProvidersOutput>({
    queryKey: QUERY_KEYS.aiProviders,
    queryFn: getQueryFn({
      on401: 'throw',
      schema: providersOutput,
      what: 'the AI providers',
      call: ({ signal }) => api.GET('/ai/providers', { signal }),
    }),
  })
}
