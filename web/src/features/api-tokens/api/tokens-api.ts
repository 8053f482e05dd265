import {
  type ApiToken,
  apiTokenListSchema,
  type CreatedToken,
  type CreateTokenInput,
  createdTokenSchema,
} from '@reelgraph/shared'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, type ApiGetPath, getQueryFn, parseAnswer } from '@/lib/api-client'

/**
 * The API tokens calls (issue 41 item 1): list, make (the answer holds the secret, shown
 * once) and revoke. No toasts here: the page shows what went wrong where it happened.
 */

/** The query key of the token list: the path of its call. */
export const API_TOKENS_QUERY_KEY = ['/tokens'] as const satisfies readonly [ApiGetPath]

/** `GET /api/tokens` -> the account's live tokens, newest first, without their secrets. */
export function useApiTokens() {
  return useQuery<ApiToken[]>({
    queryKey: API_TOKENS_QUERY_KEY,
    queryFn: getQueryFn({
      on401: 'throw',
      schema: apiTokenListSchema,
      what: 'your API tokens',
      call: ({ signal }) => api.GET('/tokens', { signal }),
    }),
  })
}

/**
 * `POST /api/tokens` -> 201 with the token's secret (the only time it is seen); refreshes the
 * list. The secret stays in the mutation's result only, never in the query cache.
 */
export function useCreateApiToken() {
  const queryClient = useQueryClient()
  return useMutation<CreatedToken, Error, CreateTokenInput>({
    mutationFn: async (input) =>
      parseAnswer(
        createdTokenSchema,
        (await api.POST('/tokens', { body: input })).data,
        'the new token',
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: API_TOKENS_QUERY_KEY }),
  })
}

/** `DELETE /api/tokens/:id` -> revoked at once; refreshes the list. */
export function useRevokeApiToken() {
  const queryClient = useQueryClient()
  return useMutation<unknown, Error, { id: number }>({
    mutationFn: ({ id }) => api.DELETE('/tokens/{id}', { params: { path: { id: String(id) } } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: API_TOKENS_QUERY_KEY }),
  })
}
