import { createSpeechProvider, SPEECH_TIMEOUT_MS, SpeechError } from '@reelgraph/media'
import { projectIdSchema } from '@reelgraph/shared'
import { z } from 'zod'
import { AppError } from '../../lib/app-error.ts'
import { ProviderError } from '../../lib/provider-error.ts'
import type { JobKind } from '../jobs/job-kind.ts'
import { narrate, type NarrationCacheDeps } from './narration-cache.ts'
import { type RenderDeps, speechSettingsOf } from './render-scenes.ts'

/** A narration job's input: what to speak, in which voice, for which project's cache. */
export const narrationJobInput = z.object({
  projectId: projectIdSchema,
  text: z.string().min(1),
  /** A voice id of the speech provider; '' for its default. */
  voice: z.string(),
})
export type NarrationJobInput = z.infer<typeof narrationJobInput>

/** Its result: the narration's cache key in the project, and its length. */
export const narrationJobResult = z.object({
  key: z.string(),
  durationMs: z.number().nonnegative(),
})
export type NarrationJobResult = z.infer<typeof narrationJobResult>

/** What a narration job uses. */
export type NarrationJobDeps = NarrationCacheDeps & { env: RenderDeps['env'] }

/** Longest narration job: two speech calls' worth. */
const NARRATION_JOB_TIMEOUT_MS = 2 * SPEECH_TIMEOUT_MS

/**
 * A scene's narration spoken into the project's narration cache (issue 13 item 5's play
 * button; issue 21 items 1 and 4): free, a job so that speech runs on the workers, and its
 * voice is the one the next render reuses.
 */
export function narrationJob(
  deps: NarrationJobDeps,
): JobKind<NarrationJobInput, NarrationJobResult> {
  return {
    name: 'narration',
    input: narrationJobInput,
    result: narrationJobResult,
    ledger: { type: 'video_generation', action: 'Narration' },
    cost: () => 0,
    timeoutMs: () => NARRATION_JOB_TIMEOUT_MS,
    stages: () => [{ stage: 'voices', weight: 1 }],
    firstProgress: () => ({ stage: 'voices', done: 0, total: 1 }),
    async produce(input, { job, signal }) {
      const speech = createSpeechProvider(speechSettingsOf(deps.env))
      try {
        const narration = await narrate(deps, {
          projectId: input.projectId,
          userId: job.userId,
          speech,
          request: { text: input.text, voice: input.voice || undefined },
          signal,
        })
        return { key: narration.key, durationMs: narration.durationMs }
      } catch (err) {
        if (err instanceof RangeError) {
          throw new AppError('BAD_REQUEST', `The narration voice "${input.voice}" does not exist.`)
        }
        if (err instanceof SpeechError) {
          throw new ProviderError(
            err.retryable ? 'upstream' : 'malformed',
            `The voice could not be made: ${err.message}`,
            { cause: err, status: err.retryable ? err.status : undefined },
          )
        }
        throw err
      }
    },
  }
}
