import {
  type DocumentGateway,
  generateScenesInput,
  type GenerateScenesOutput,
  generateScenesOutput,
  resultNodeIds,
  scenesResult,
  stampResultHash,
  writeJobResult,
} from '@reelgraph/shared'
import { z } from 'zod'
import type { Env } from '../../env.ts'
import { ProviderError } from '../../lib/provider-error.ts'
import { type JobKind, placed } from '../jobs/job-kind.ts'
import type { AiProviders } from './providers/types.ts'

/** A scenes job's input: the call's body, its draft seed chosen (issue 14 item 10). */
export const scenesJobInput = generateScenesInput.extend({ seed: z.number().int() })
export type ScenesJobInput = z.output<typeof scenesJobInput>

/** What a scenes job uses. */
export interface ScenesJobDeps {
  ai: Pick<AiProviders, 'text'>
  env: Pick<Env, 'AI_TEXT_TIMEOUT_MS' | 'costs'>
  documents: DocumentGateway
}

/**
 * Generate Scenes as a job kind (spec §4; issue 12; issue 21): exactly `sceneCount` scenes,
 * placed as "Scene N" nodes in a row under the text node, each connected.
 */
export function scenesJob(deps: ScenesJobDeps): JobKind<ScenesJobInput, GenerateScenesOutput> {
  return {
    name: 'scenes',
    input: scenesJobInput,
    result: generateScenesOutput,
    ledger: { type: 'scene_generation', action: 'Scene generation' },
    cost: () => deps.env.costs.scenes,
    timeoutMs: () => deps.env.AI_TEXT_TIMEOUT_MS,
    stages: () => [{ stage: 'scenes', weight: 1 }],
    firstProgress: (input) => ({ stage: 'scenes', done: 0, total: input.sceneCount }),
    async produce(input, { signal, paid }) {
      const scenes = await deps.ai.text.generateScenes(input, signal)
      await paid()
      if (scenes.length !== input.sceneCount) {
        throw new ProviderError(
          'malformed',
          `The AI provider returned ${scenes.length} scenes instead of ${input.sceneCount}.`,
        )
      }
      return { scenes }
    },
    write({ scenes }, { job, state }) {
      const at = job.createdAt.getTime()
      const ids = resultNodeIds(job.id, at, 'scene', scenes.length)
      return deps.documents.transact(job.projectId, (doc, origin) => {
        const outcome = writeJobResult(
          doc,
          job.nodeId,
          (source) => scenesResult(source, scenes, at, ids),
          state,
          origin,
        )
        // Issue 42 item 4: what the result was made from, so the node knows when it is stale.
        if (placed(outcome)) stampResultHash(doc, job.nodeId, job.inputHash ?? null, origin)
        return outcome
      })
    },
  }
}
