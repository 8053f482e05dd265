import {
  type GenerateImageInput,
  type GenerateImageOutput,
  type GenerateScenesInput,
  type GenerateScenesOutput,
  type GenerateScriptInput,
  type GenerateScriptOutput,
  MODEL_LIST_DEFAULT_LIMIT,
  type ModelsOutput,
  type ProvidersOutput,
} from '@reelgraph/shared'
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiRequest, getQueryFn } from './api-client'
import { QUERY_KEYS } from './query-keys'

/**
 * The AI calls (spec §7, issue 4): what the active providers are and what each action
 * costs, the image models, and the three generations. No toasts here: the canvas shows
 * the spec §8 alerts. Every generation, success or failure, refreshes the credits
 * ("Credits are refreshed afterwards", spec §7).
 */

/** Query keys of the AI reads; `[0]` is the URL (the default query function reads it). */
export const AI_QUERY_KEYS = {
  providers: ['/api/ai/providers'],
  models: [`/api/csas/models?limit=${MODEL_LIST_DEFAULT_LIMIT}`],
} as const

/** `GET /api/ai/providers`: the active text and image providers and the costs in credits. */
export function useAiProviders() {
  return useQuery<ProvidersOutput>({
    queryKey: AI_QUERY_KEYS.providers,
    queryFn: getQueryFn<ProvidersOutput>({ on401: 'throw' }),
  })
}

/** `GET /api/csas/models?limit=10`: the image models (spec §9: the list is limited to 10). */
export function useImageModels(enabled = true) {
  return useQuery<ModelsOutput>({
    queryKey: AI_QUERY_KEYS.models,
    queryFn: getQueryFn<ModelsOutput>({ on401: 'throw' }),
    enabled,
  })
}

/** Refetches the credit balance (the header pill) after a generation, however it ended. */
export function refreshCredits(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: QUERY_KEYS.credits, exact: true })
}

/** `POST /api/ai/generate-script` {style, tone, format, topic} -> {script}. */
export function useGenerateScript() {
  const queryClient = useQueryClient()
  return useMutation<GenerateScriptOutput, Error, GenerateScriptInput>({
    mutationFn: (input) =>
      apiRequest<GenerateScriptOutput>('POST', '/api/ai/generate-script', input),
    onSettled: () => refreshCredits(queryClient),
  })
}

/** `POST /api/ai/generate-scenes` {script, sceneCount} -> {scenes} (exactly sceneCount). */
export function useGenerateScenes() {
  const queryClient = useQueryClient()
  return useMutation<GenerateScenesOutput, Error, GenerateScenesInput>({
    mutationFn: (input) =>
      apiRequest<GenerateScenesOutput>('POST', '/api/ai/generate-scenes', input),
    onSettled: () => refreshCredits(queryClient),
  })
}

/**
 * `POST /api/csas/generate-image` {projectId, modelVersionId, prompt, ...} ->
 * {imageUrl, assetId, seed}.
 */
export function useGenerateImage() {
  const queryClient = useQueryClient()
  return useMutation<GenerateImageOutput, Error, GenerateImageInput>({
    mutationFn: (input) =>
      apiRequest<GenerateImageOutput>('POST', '/api/csas/generate-image', input),
    onSettled: () => refreshCredits(queryClient),
  })
}
