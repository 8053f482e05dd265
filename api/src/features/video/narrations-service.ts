import type { DB } from '@reelgraph/db'
import { createSpeechProvider, narrationKey } from '@reelgraph/media'
import {
  collectVideoInputs,
  docToGraph,
  estimateNarrationMs,
  estimateWordTimings,
  type NarrationsOutput,
  type NarrationsQuery,
  type WordTiming,
} from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import type { AppDeps } from '../../app-env.ts'
import { AppError } from '../../lib/app-error.ts'
import { requireProjectRole } from '../access/project-access.ts'
import { assetUrl } from '../assets/asset-service.ts'
import { isSpoken } from './narration-cache.ts'
import { speechSettingsOf } from './render-scenes.ts'

/** A cached narration's row: its WAV, length and words. */
async function cachedRows(db: Kysely<DB>, projectId: number, keys: readonly string[]) {
  if (keys.length === 0)
    return new Map<string, { asset_id: string; duration_ms: number; words: unknown }>()
  const rows = await db
    .selectFrom('narration_cache')
    .select(['key', 'asset_id', 'duration_ms', 'words'])
    .where('project_id', '=', projectId)
    .where('key', 'in', [...new Set(keys)])
    .execute()
  return new Map(rows.map((r) => [r.key, r]))
}

/**
 * Each scene's narration of Video node `nodeId` as it would be spoken now (issue 24: the
 * timeline's narration edges, waveform and in-page preview): from the narration cache when
 * spoken before with the node's voice and the active speech provider (exact length, words,
 * WAV), else the documented estimate (`estimateNarrationMs`, `estimateWordTimings`).
 * Reads only; marks nothing used.
 * @throws AppError 404 for a project the user is no member of, or a node that is no Video node.
 */
export async function listSceneNarrations(
  deps: Pick<AppDeps, 'db' | 'env' | 'documents'>,
  { userId, projectId, nodeId }: NarrationsQuery & { userId: number },
): Promise<NarrationsOutput> {
  await requireProjectRole(deps.db, { userId, projectId, needed: 'member' })
  const graph = await deps.documents.transact(projectId, (doc) => docToGraph(doc))
  const inputs = collectVideoInputs(graph, nodeId)
  if (!inputs) throw new AppError('NOT_FOUND', 'This Video node does not exist.')
  const speech = createSpeechProvider(speechSettingsOf(deps.env))
  const voice = inputs.settings.voice || undefined
  const keys = inputs.scenes.map((s) =>
    isSpoken(s.narration) ? narrationKey(speech, { text: s.narration, voice }) : null,
  )
  const cached = await cachedRows(
    deps.db,
    projectId,
    keys.filter((k) => k !== null),
  )
  return {
    scenes: inputs.scenes.map((scene, i) => {
      const key = keys[i]
      if (key === null) {
        return { sceneId: scene.nodeId, durationMs: 0, estimated: false, wavUrl: null, words: [] }
      }
      const row = cached.get(key!)
      if (row) {
        return {
          sceneId: scene.nodeId,
          durationMs: row.duration_ms,
          estimated: false,
          wavUrl: assetUrl(row.asset_id),
          words: row.words as WordTiming[],
        }
      }
      const durationMs = estimateNarrationMs(scene.narration)
      return {
        sceneId: scene.nodeId,
        durationMs,
        estimated: true,
        wavUrl: null,
        words: estimateWordTimings(scene.narration, { startMs: 0, endMs: durationMs }),
      }
    }),
  }
}
