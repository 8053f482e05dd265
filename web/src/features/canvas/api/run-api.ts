import { type ProjectRunOutput, projectRunOutput } from '@reelgraph/shared'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, parseAnswer } from '@/lib/api-client'
import { refreshCredits } from './ai-api'

/**
 * "Run stale" (issue 42 item 4): the quote and the run of a project's stale generators.
 */

/**
 * `GET /api/projects/:id/run-quote?scope=stale`: what a run would run and cost now.
 * @throws {ApiError} 404 for a project the user may not read; {NetworkError} offline.
 */
export async function fetchRunQuote(projectId: number): Promise<ProjectRunOutput> {
  const { data } = await api.GET('/projects/{id}/run-quote', {
    params: { path: { id: String(projectId) }, query: { scope: 'stale' } },
  })
  return parseAnswer(projectRunOutput, data, 'the run’s price')
}

/**
 * `POST /api/projects/:id/run { scope: 'stale' }`: starts the run; the credits are refreshed
 * afterwards, whatever the answer.
 * @throws {ApiError} 402 when the balance is short (nothing charged), 403 for a viewer.
 */
export function useRunStale() {
  const queryClient = useQueryClient()
  return useMutation<ProjectRunOutput, Error, { projectId: number }>({
    mutationFn: async ({ projectId }) => {
      const { data } = await api.POST('/projects/{id}/run', {
        params: { path: { id: String(projectId) } },
        body: { scope: 'stale' },
      })
      return parseAnswer(projectRunOutput, data, 'the run')
    },
    onSettled: () => refreshCredits(queryClient),
  })
}
