import { join } from 'node:path'
import type { DB } from '@reelgraph/db'
import type { Kysely } from 'kysely'
import { filmPieces, type RenderFilm, type RenderMusic, type CaptionLook } from '@reelgraph/media'
import {
  DEFAULT_TIMELINE_SETTINGS,
  effectiveTimeline,
  orderAfter,
  planFilm,
  type TimelineSettings,
  withCaptions,
} from '@reelgraph/shared'
import { filmMusic, filmMusicSource } from './film-music.ts'
import { ProviderError } from '../../lib/provider-error.ts'
import { copyProjectAssetToFile } from '../assets/asset-service.ts'
import type { AssetStorage } from '../assets/asset-storage.ts'
import type { VideoJobInput } from './video-job-input.ts'

/** What reading a timeline's music file needs: the database and the asset storage. */
interface AssetDeps {
  db: Kysely<DB>
  assets: AssetStorage
}

/**
 * What a render takes from the Video node's timeline (issue 24 items 1 and 4): the film
 * shared's `planFilm` lays out of the timeline's cuts (order, trims, holds, transitions, title
 * and end cards), the caption look (the timeline's, under the render's `captions`), and the
 * music with its level, fades and ducking.
 */
export interface TimelineRender {
  film: RenderFilm
  captions: CaptionLook
  music: RenderMusic | null
}

/**
 * The music a timeline's setting names, resolved on the server: '' none, `builtin:<name>` a
 * builtin track, `/api/assets/<id>` the stored FLAC (or, uploaded before issue 40, WAV) of an
 * audio asset of this very project, copied to the work folder (never a URL fetched).
 * @throws ProviderError `malformed` when the track is unknown, or the asset is gone or no
 *   music asset.
 */
async function timelineMusic(
  deps: AssetDeps,
  {
    projectId,
    music,
    settings,
    work,
  }: { projectId: number; music: string; settings: TimelineSettings; work: string },
): Promise<RenderMusic | null> {
  if (music === '') return null
  const mix = {
    volume: settings.musicVolume,
    fadeInMs: settings.musicFadeInMs,
    fadeOutMs: settings.musicFadeOutMs,
    duckDb: settings.musicDuckDb,
  }
  // No extension: ffmpeg reads it by its bytes, with the FLAC and WAV demuxers only.
  const path = join(work, 'music')
  const copied = music.startsWith('builtin:')
    ? null
    : await copyProjectAssetToFile(deps.db, deps.assets, { projectId, url: music, path })
  // The one rule of the render and the export (`filmMusicSource`, issue 40 item 7).
  const source = filmMusicSource(music, copied)
  if ('problem' in source) throw new ProviderError('malformed', source.problem)
  if (source.kind === 'builtin') return { track: source.track, mix }
  return { path, mix }
}

/**
 * The film, caption look and music of `input`'s timeline, with each scene's narration
 * length (`narrationMs`, by scene index) as spoken; null when the render has neither a
 * timeline nor a caption look (today's film, rendered as it always was).
 * @throws ProviderError `malformed` when the timeline leaves nothing to show or its music
 *   cannot be used.
 */
export async function timelineRender(
  deps: AssetDeps,
  {
    input,
    narrationMs,
    work,
  }: { input: VideoJobInput; narrationMs: readonly number[]; work: string },
): Promise<TimelineRender | null> {
  if (!input.timeline && !input.captions) return null
  const stored = input.timeline ?? { cuts: [], settings: DEFAULT_TIMELINE_SETTINGS }
  const settings = withCaptions(stored.settings, input.captions)
  const sceneIndex = new Map(input.scenes.map((scene, i) => [scene.nodeId, i]))
  const { cuts } = effectiveTimeline(stored, input.scenes, orderAfter)
  let plan
  try {
    plan = planFilm(cuts, settings, (cut) => ({
      clipMs: cut.scene.clip?.durationMs ?? null,
      narrationMs: narrationMs[sceneIndex.get(cut.sceneId)!] ?? 0,
    }))
  } catch (err) {
    throw new ProviderError('malformed', 'The timeline has nothing to show.', { cause: err })
  }
  const music = filmMusic({
    chosen: input.timeline?.musicChosen ?? false,
    timelineMusic: settings.music,
    nodeMusic: input.music,
  })
  return {
    film: { pieces: filmPieces(plan, settings, (id) => sceneIndex.get(id)) },
    captions: settings,
    music: await timelineMusic(deps, { projectId: input.projectId, music, settings, work }),
  }
}
