import type { GenerationAction } from '@reelgraph/shared'
import type { UseMutationResult } from '@tanstack/react-query'
import { useCallback, useContext, useRef } from 'react'
import { toast } from '@/hooks/use-toast'
import { useAiProviders } from '@/lib/ai-api'
import { generationFailureMessage } from '../lib/generation'
import { ProjectIdContext } from '../stores/project-id-context'

/** What a Generate button shows about its action: the cost and whether it is an offline draft. */
export interface GenerationInfo {
  /** Credits per call; undefined until the providers answer. */
  cost: number | undefined
  /** The active provider drafts offline (the builtin one): the UI says so. */
  offline: boolean
  /** The active provider's name, for the tooltip. */
  providerName: string | undefined
}

/** The cost and provider of `action`, from `GET /api/ai/providers`. */
export function useGenerationInfo(action: GenerationAction): GenerationInfo {
  const { data } = useAiProviders()
  const provider = action === 'image' ? data?.image : data?.text
  return {
    cost: data?.costs[action],
    offline: provider?.offline ?? false,
    providerName: provider?.name,
  }
}

/** The open project's id. */
export function useProjectId(): number | null {
  return useContext(ProjectIdContext)
}

/**
 * Runs a generation: one call at a time (a second click while busy does nothing, spec §4),
 * the result handed to `onSuccess`, a failure shown as the spec §8 alert: a destructive
 * toast now, and inline under the button (`error`) until the next try.
 */
export function useGenerationRun<TOut, TIn>(
  action: GenerationAction,
  mutation: UseMutationResult<TOut, Error, TIn>,
) {
  const running = useRef(false)
  const { mutateAsync } = mutation
  const run = useCallback(
    async (input: TIn, onSuccess: (out: TOut) => void) => {
      if (running.current) return
      running.current = true
      try {
        onSuccess(await mutateAsync(input))
      } catch (error) {
        console.error(`generate ${action} failed`, error)
        toast({ title: generationFailureMessage(action, error), variant: 'destructive' })
      } finally {
        running.current = false
      }
    },
    [action, mutateAsync],
  )
  return {
    run,
    busy: mutation.isPending,
    error: mutation.error ? generationFailureMessage(action, mutation.error) : null,
  }
}
