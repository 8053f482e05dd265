import {
  type DocumentGateway,
  generateScriptInput,
  type GenerateScriptOutput,
  generateScriptOutput,
  resultNodeIds,
  scriptResult,
  stampResultHash,
  writeJobResult,
} from '@reelgraph/shared'
import { z } from 'zod'
import type { Env } from '../../env.ts'
import { type JobKind, placed } from '../jobs/job-kind.ts'
import type { AiProviders } from './providers/types.ts'

/** A script job's input: the call's body, its draft seed chosen (issue 14 item 10). */
export const scriptJobInput = generateScriptInput.extend({ seed: z.number().int() })
export type ScriptJobInput = z.output<typeof scriptJobInput>

/** What a script job uses. */
export interface ScriptJobDeps {
  ai: Pick<AiProviders, 'text'>
  env: Pick<Env, 'AI_TEXT_TIMEOUT_MS' | 'costs'>
  documents: DocumentGateway
}

/**
 * Generate Script as a job kind (spec §4; issue 12; issue 21): the text provider writes a
 * script, placed as a "Generated Script" text node 350 to the right of the generator.
 */
export function scriptJob(deps: ScriptJobDeps): JobKind<ScriptJobInput, GenerateScriptOutput> {
  return {
    name: 'script',
    input: scriptJobInput,
    result: generateScriptOutput,
    ledger: { type: 'script_generation', action: 'Script generation' },
    cost: () => deps.env.costs.script,
    timeoutMs: () => deps.env.AI_TEXT_TIMEOUT_MS,
    stages: () => [{ stage: 'script', weight: 1 }],
    firstProgress: () => ({ stage: 'script', done: 0, total: 1 }),
    async produce(input, { signal, paid }) {
      const script = await deps.ai.text.generateScript(input, signal)
      await paid()
      return { script }
    },
    write({ script }, { job, state }) {
      const at = job.createdAt.getTime()
      const ids = resultNodeIds(job.id, at, 'editable-text', 1)
      return deps.documents.transact(job.projectId, (doc, origin) => {
        const outcome = writeJobResult(
          doc,
          job.nodeId,
          (source) => scriptResult(source, script, at, ids),
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
