import { type VideoInputs, videoRenderCost } from '@reelgraph/shared'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { useAiProviders } from '@/hooks/use-ai-providers'
import { toast } from '@/hooks/use-toast'
import { isApiError } from '@/lib/api-client'
import { refreshCredits, useRenderQuote, useRenderVideo } from '../api/ai-api'
import { generationFailureMessage } from '../lib/generation'
import { isJobActive } from '../lib/job-state'
import { useProjectId } from './use-generation'
import { useNodeJob } from './use-node-job'

/**
 * Rendering Video node `id` (issue 13 item 5), shared by the node's "Render video" and the
 * timeline panel's "Render" (issue 24): why it cannot render yet, what it costs (the
 * server's quote, issue 21 item 4), whether a render is under way (its job), and the call,
 * whose failure is toasted. Credits are refetched when a render ends (a failure refunds).
 * @param newestTake the newest take's MP4 URL ('' without), so the quote follows a render
 */
export function useVideoRender(id: string, inputs: VideoInputs | null, newestTake: string) {
  const job = useNodeJob(id)
  const projectId = useProjectId()
  const providers = useAiProviders()
  const render = useRenderVideo()
  const queryClient = useQueryClient()
  const wasActive = useRef(false)
  useEffect(() => {
    const active = isJobActive(job)
    if (wasActive.current && !active) void refreshCredits(queryClient)
    wasActive.current = active
  }, [job, queryClient])
  const scenes = inputs?.scenes ?? []
  const missing = inputs?.missing ?? []
  const issue =
    scenes.length === 0
      ? 'Connect scenes, or a text node with scenes, to render a video.'
      : missing.length > 0
        ? 'Every scene needs an image or a clip first.'
        : null
  // Asked again when the inputs change or a render adds a take (its voices are cached now).
  const quote = useRenderQuote(
    { projectId, nodeId: id },
    `${inputs?.hash ?? ''} ${newestTake}`,
    issue === null,
  )
  // The server's quote; until it answers (or while the node cannot render), a render that
  // speaks every scene.
  const costs = providers.data?.costs
  const cost =
    quote.data?.credits ??
    (costs
      ? videoRenderCost(costs, scenes.filter((s) => s.narration.trim() !== '').length)
      : undefined)
  const busy = render.isPending || isJobActive(job)
  const onRender = () => {
    if (issue || busy || projectId === null) return
    render.mutate(
      { projectId, nodeId: id },
      {
        onError: (error) => {
          if (isApiError(error, 409, 'JOB_CANCELLED')) return
          console.error('render video failed', error)
          toast({ title: generationFailureMessage('video', error), variant: 'destructive' })
        },
      },
    )
  }
  return { job, issue, cost, busy, onRender }
}
