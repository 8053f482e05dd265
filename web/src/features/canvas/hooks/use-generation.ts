import type { GenerationAction } from '@reelgraph/shared'
import { useContext } from 'react'
import { useAiProviders } from '@/hooks/use-ai-providers'
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

/**
 * The cost and provider of `action`, from `GET /api/ai/providers`; nothing known for null (a
 * node whose model says them).
 */
export function useGenerationInfo(action: GenerationAction | null): GenerationInfo {
  const { data } = useAiProviders()
  const provider = action === 'image' ? data?.image : data?.text
  if (action === null) return { cost: undefined, offline: false, providerName: undefined }
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
