import {
  type CatalogOutput,
  catalogOutput,
  type GenerateImageInput,
  type GenerateImageOutput,
  type GenerateScenesInput,
  type GenerateScenesOutput,
  type GenerateScriptInput,
  type GenerateScriptOutput,
  type GenerateVideoInput,
  type GenerateVideoOutput,
  generateImageOutput,
  generateScenesOutput,
  generateScriptOutput,
  generateVideoOutput,
  type Job,
  type JobAccepted,
  jobAcceptedSchema,
  jobSchema,
  type jobTargetSchema,
  MODEL_LIST_DEFAULT_LIMIT,
  type ModelsOutput,
  modelsOutput,
  type MakeVideoInput,
  type NarrationPreviewInput,
  type RenderQuote,
  renderQuoteOutput,
  type RenderVideoInput,
  type VoicesOutput,
  voicesOutput,
} from '@reelgraph/shared'
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { z } from 'zod'
import { api, type ApiGetPath, getQueryFn, parseAnswer } from '@/lib/api-client'
import { QUERY_KEYS } from '@/lib/query-keys'

/**
 * The canvas's AI calls (spec §7, issue 4): the image models, the three generations and
 * their jobs (issue 12), the video render and "Make video" (issue 13), the video models and
 * clip generation (issue 22). What the active
 * providers are and what each action costs is `hooks/use-ai-providers.ts` (billing reads it
 * too). No toasts here: the canvas shows the spec §8 alerts. Every generation, success or
 * failure, refreshes the credits ("Credits are refreshed afterwards", spec §7), and so does
 * a cancel (a refund).
 */

/** Where a generation's result goes: the project and the generator node (issue 12). */
export type JobTarget = z.infer<typeof jobTargetSchema>

/**
 * What a generation call answered: its result (the job finished within the server's wait),
 * or the job to follow (HTTP 202 `{jobId, status}`: it goes on, its state on the node).
 */
export type GenerationAnswer<T> =
  { kind: 'result'; result: T } | { kind: 'accepted'; job: JobAccepted }

/**
 * Reads a generation call's answer with the shared schemas: a 202's `{jobId, status}`, else
 * the call's result (`what`: "the script", ...).
 * @throws {Error} "The server gave an unexpected answer to <what>." when it is neither.
 */
export function readGenerationAnswer<T>(
  schema: z.ZodType<T>,
  answer: unknown,
  what: string,
): GenerationAnswer<T> {
  const accepted = jobAcceptedSchema.safeParse(answer)
  if (accepted.success) return { kind: 'accepted', job: accepted.data }
  return { kind: 'result', result: parseAnswer(schema, answer, what) }
}

/** Query keys of the AI reads: the paths of their calls, then the query they send. */
export const AI_QUERY_KEYS = {
  voices: ['/video/voices'],
  models: ['/csas/models', { limit: MODEL_LIST_DEFAULT_LIMIT }],
  videoModels: ['/ai/models', { kind: 'video' }],
} as const satisfies Record<string, readonly [ApiGetPath, ...unknown[]]>

/**
 * How long the video models stay fresh, in ms: the catalog changes only with the server's
 * settings (a key, a settings file), so every Video Generator and the Make video dialog share
 * one read for a long while; a reload reads it again.
 */
export const VIDEO_MODELS_STALE_MS = 30 * 60_000

/** `GET /api/csas/models?limit=10`: the image models (spec §9: the list is limited to 10). */
export function useImageModels(enabled = true) {
  return useQuery<ModelsOutput>({
    queryKey: AI_QUERY_KEYS.models,
    queryFn: getQueryFn({
      on401: 'throw',
      schema: modelsOutput,
      what: 'the image models',
      call: ({ signal }) =>
        api.GET('/csas/models', { params: { query: AI_QUERY_KEYS.models[1] }, signal }),
    }),
    enabled,
  })
}

/**
 * `GET /api/ai/models?kind=video` -> `{ items }`: the catalog's video models of every
 * configured provider, with their capabilities and cost (issue 22 item 1), for the Video
 * Generator's model picker and Make video's "Animate each scene".
 */
export function useVideoModels(enabled = true) {
  return useQuery<CatalogOutput>({
    queryKey: AI_QUERY_KEYS.videoModels,
    queryFn: getQueryFn({
      on401: 'throw',
      schema: catalogOutput,
      what: 'the video models',
      call: ({ signal }) =>
        api.GET('/ai/models', { params: { query: AI_QUERY_KEYS.videoModels[1] }, signal }),
    }),
    enabled,
    staleTime: VIDEO_MODELS_STALE_MS,
  })
}

/** Refetches the credit balance (the header pill) after a generation, however it ended. */
export function refreshCredits(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: QUERY_KEYS.credits, exact: true })
}

/**
 * `POST /api/ai/generate-script` {style, tone, format, topic, projectId?, nodeId?} ->
 * {script}, or 202 with the job.
 */
export function useGenerateScript() {
  const queryClient = useQueryClient()
  return useMutation<
    GenerationAnswer<GenerateScriptOutput>,
    Error,
    GenerateScriptInput & JobTarget
  >({
    mutationFn: async (input) =>
      readGenerationAnswer(
        generateScriptOutput,
        (await api.POST('/ai/generate-script', { body: input })).data,
        'the script',
      ),
    onSettled: () => refreshCredits(queryClient),
  })
}

/**
 * `POST /api/ai/generate-scenes` {script, sceneCount, projectId?, nodeId?} -> {scenes}
 * (exactly sceneCount), or 202 with the job.
 */
export function useGenerateScenes() {
  const queryClient = useQueryClient()
  return useMutation<
    GenerationAnswer<GenerateScenesOutput>,
    Error,
    GenerateScenesInput & JobTarget
  >({
    mutationFn: async (input) =>
      readGenerationAnswer(
        generateScenesOutput,
        (await api.POST('/ai/generate-scenes', { body: input })).data,
        'the scenes',
      ),
    onSettled: () => refreshCredits(queryClient),
  })
}

/**
 * `POST /api/csas/generate-image` {projectId, nodeId?, modelVersionId, prompt, ...} ->
 * {imageUrl, assetId, seed}, or 202 with the job.
 */
export function useGenerateImage() {
  const queryClient = useQueryClient()
  return useMutation<GenerationAnswer<GenerateImageOutput>, Error, GenerateImageInput & JobTarget>({
    mutationFn: async (input) =>
      readGenerationAnswer(
        generateImageOutput,
        (await api.POST('/csas/generate-image', { body: input })).data,
        'the image',
      ),
    onSettled: () => refreshCredits(queryClient),
  })
}

/**
 * `POST /api/ai/generate-video` {projectId, nodeId, modelId, prompt, imageUrl?, lastFrameUrl?,
 * durationSeconds, aspectRatio, seed?, withAudio} -> the clip {videoUrl, posterUrl,
 * durationMs, ...}, or 202 with the job (issue 22 item 5); the server's job writes the Clip
 * node and its state on the Video Generator.
 */
export function useGenerateVideo() {
  const queryClient = useQueryClient()
  return useMutation<GenerationAnswer<GenerateVideoOutput>, Error, GenerateVideoInput & JobTarget>({
    mutationFn: async (input) =>
      readGenerationAnswer(
        generateVideoOutput,
        (await api.POST('/ai/generate-video', { body: input })).data,
        'the clip',
      ),
    onSettled: () => refreshCredits(queryClient),
  })
}

/**
 * `POST /api/jobs/:id/cancel` -> the job (cancelled; refunded when the provider was not paid
 * yet). The node shows the new state through the document; the credits are refetched.
 */
export function useCancelJob() {
  const queryClient = useQueryClient()
  return useMutation<Job, Error, string>({
    mutationFn: async (jobId) =>
      parseAnswer(
        jobSchema,
        (await api.POST('/jobs/{id}/cancel', { params: { path: { id: jobId } } })).data,
        'the cancel',
      ),
    onSettled: () => refreshCredits(queryClient),
  })
}

/**
 * `POST /api/video/render` {projectId, nodeId} -> 202 {jobId, status} (issue 13 item 4): the
 * render runs as a job whose state and result the server writes onto the Video node.
 */
export function useRenderVideo() {
  const queryClient = useQueryClient()
  return useMutation<JobAccepted, Error, RenderVideoInput>({
    mutationFn: async (input) =>
      parseAnswer(
        jobAcceptedSchema,
        (await api.POST('/video/render', { body: input })).data,
        'the render',
      ),
    onSettled: () => refreshCredits(queryClient),
  })
}

/**
 * `POST /api/video/make` {projectId, nodeId, sceneCount, preset} -> 202 {jobId, status}
 * (issue 13 item 6): the whole chain from a Script Generator's topic to a rendered video, one
 * job charged once; its stage and progress are on the generator node, the video on the Video
 * node it adds.
 */
export function useMakeVideo() {
  const queryClient = useQueryClient()
  return useMutation<JobAccepted, Error, MakeVideoInput>({
    mutationFn: async (input) =>
      parseAnswer(
        jobAcceptedSchema,
        (await api.POST('/video/make', { body: input })).data,
        'the video',
      ),
    onSettled: () => refreshCredits(queryClient),
  })
}

/**
 * `GET /api/video/render-quote`: what rendering Video node `nodeId` costs now (issue 21 item
 * 4: voices already in the narration cache are not charged again), for its Render button.
 * `inputsKey` (the scenes' hash and the newest take) refetches it when the inputs change or
 * a render ends; off while `enabled` is false (a node that cannot render).
 */
export function useRenderQuote(
  target: { projectId: number | null; nodeId: string },
  inputsKey: string,
  enabled: boolean,
) {
  const query = { projectId: String(target.projectId), nodeId: target.nodeId }
  return useQuery<RenderQuote>({
    queryKey: ['/video/render-quote', query, inputsKey] satisfies [ApiGetPath, ...unknown[]],
    queryFn: getQueryFn({
      on401: 'throw',
      schema: renderQuoteOutput,
      what: 'the render cost',
      call: ({ signal }) => api.GET('/video/render-quote', { params: { query }, signal }),
    }),
    enabled: enabled && target.projectId !== null,
  })
}

/** `GET /api/video/voices`: the active speech provider's voices (the Video node's picker). */
export function useVoices(enabled = true) {
  return useQuery<VoicesOutput>({
    queryKey: AI_QUERY_KEYS.voices,
    queryFn: getQueryFn({
      on401: 'throw',
      schema: voicesOutput,
      what: 'the voices',
      call: ({ signal }) => api.GET('/video/voices', { signal }),
    }),
    enabled,
    // The provider's voices change only with the server's configuration.
    staleTime: Infinity,
  })
}

/**
 * `POST /api/video/narration-preview` {projectId, nodeId, voice?} -> a WAV of the scene's
 * narration (the scene play button, issue 13 item 5).
 * @throws {ApiError} 400 (no narration, unknown voice), 404, 429; {NetworkError} offline.
 */
export async function fetchNarrationPreview(
  input: NarrationPreviewInput,
  signal?: AbortSignal,
): Promise<Blob> {
  const { data } = await api.POST('/video/narration-preview', {
    body: input,
    parseAs: 'blob',
    signal,
  })
  return data ?? new Blob([])
}
