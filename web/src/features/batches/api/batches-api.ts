import { type Batch, batchSchema, type CreateBatchInput } from '@reelgraph/shared'
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, type ApiGetPath, getQueryFn, parseAnswer } from '@/lib/api-client'
import { QUERY_KEYS } from '@/lib/query-keys'
import { batchPollInterval } from '../lib/batch-words'

/**
 * The batch calls (issue 42 item 3): a table sent for its quote, the start, the live read,
 * cancel all and retry failed. TanStack hooks over the typed client, answers read with
 * shared's `batchSchema`; no toasts (callers say what happened).
 */

/** The query key of batch `id`: `['/batches/{id}', id]`. */
export function batchQueryKey(id: number) {
  return ['/batches/{id}', id] as const satisfies readonly [ApiGetPath, number]
}

/**
 * Batch `id` (`GET /api/batches/:id`), read again every 1.5 s while it runs
 * ({@link batchPollInterval}) and not while the tab is hidden (TanStack's default); a
 * stranger's or a missing batch is an `ApiError` 404 in `error`.
 */
export function useBatch(id: number) {
  return useQuery<Batch>({
    queryKey: batchQueryKey(id),
    queryFn: getQueryFn({
      on401: 'throw',
      schema: batchSchema,
      what: 'the batch',
      call: ({ signal }) =>
        api.GET('/batches/{id}', { params: { path: { id: String(id) } }, signal }),
    }),
    refetchInterval: (query) => batchPollInterval(query.state.data),
    refetchIntervalInBackground: false,
  })
}

/**
 * Sends a table for a template's batch (`POST /api/batches?templateId=` with the CSV as a
 * `text/csv` body) -> 201 the batch with its quote (status `quoted`), nothing run yet.
 * @throws {ApiError} 400 with a message naming the row or the limit ("Row 2: ...", "This table
 *   has 501 rows; ..."), shown as it is.
 */
export function useQuoteBatch() {
  const queryClient = useQueryClient()
  return useMutation<Batch, Error, { templateId: number; csv: Blob }>({
    mutationFn: async ({ templateId, csv }) => {
      const { data } = await api.POST('/batches', {
        params: { query: { templateId: String(templateId) } },
        // The contract lists only the JSON body; the table goes as it is, typed `text/csv`.
        body: csv as unknown as CreateBatchInput,
        bodySerializer: () => csv,
        headers: { 'Content-Type': 'text/csv' },
      })
      return parseAnswer(batchSchema, data, 'the batch')
    },
    onSuccess: (batch) => queryClient.setQueryData(batchQueryKey(batch.id), batch),
  })
}

/** One of the batch's actions: what it posts to. */
type BatchAction = '/batches/{id}/start' | '/batches/{id}/cancel' | '/batches/{id}/retry'

/** Writes an action's answer into the batch's cache and refreshes the balance. */
async function settle(queryClient: QueryClient, batch: Batch): Promise<void> {
  queryClient.setQueryData(batchQueryKey(batch.id), batch)
  await queryClient.invalidateQueries({ queryKey: QUERY_KEYS.credits, exact: true })
}

function useBatchAction(path: BatchAction, what: string) {
  const queryClient = useQueryClient()
  return useMutation<Batch, Error, { id: number }>({
    mutationFn: async ({ id }) =>
      parseAnswer(
        batchSchema,
        (await api.POST(path, { params: { path: { id: String(id) } } })).data,
        what,
      ),
    onSuccess: (batch) => settle(queryClient, batch),
  })
}

/**
 * Starts a quoted batch (`POST /api/batches/:id/start` -> the batch, running).
 * @throws {ApiError} 402 when the balance is short (the server's sentence says by how much).
 */
export function useStartBatch() {
  return useBatchAction('/batches/{id}/start', 'the start')
}

/** Cancels every row not finished (`POST /api/batches/:id/cancel` -> the batch). */
export function useCancelBatch() {
  return useBatchAction('/batches/{id}/cancel', 'the cancel')
}

/** Queues the failed rows again (`POST /api/batches/:id/retry` -> the batch). */
export function useRetryFailedRows() {
  return useBatchAction('/batches/{id}/retry', 'the retry')
}
