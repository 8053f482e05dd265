import { getTimelinesMap, MUSIC_TRACKS, type MusicTrack, settingKey } from '@reelgraph/shared'
import type * as Y from 'yjs'
import { MUSIC_ASSET_TYPES } from '../assets/asset-service.ts'

/**
 * Whether a person chose the music on Video node `videoId`'s timeline (its `music` register
 * is set, '' for none included), read from the project's document `doc`.
 */
export function musicChosen(doc: Y.Doc, videoId: string): boolean {
  return getTimelinesMap(doc).has(settingKey(videoId, 'music'))
}

/**
 * The music a film plays (issue 24 item 1), the one rule of the render and the export:
 * the timeline's `music` once a person chose it ('' none, `builtin:<track>`, or a project
 * asset's URL), else what the Video node's Music switch said before timelines (the first
 * builtin track when on, none when off).
 */
export function filmMusic({
  chosen,
  timelineMusic,
  nodeMusic,
}: {
  chosen: boolean
  timelineMusic: string
  nodeMusic: boolean
}): string {
  if (chosen) return timelineMusic
  return nodeMusic ? `builtin:${MUSIC_TRACKS[0]}` : ''
}

/** The words of each way a film's music cannot be played, the render's and the export's. */
export const FILM_MUSIC_MESSAGES = {
  noSuchTrack: (track: string) => `There is no builtin music track "${track}".`,
  gone: 'The timeline’s music file is gone. Pick another track.',
  notAudio: 'The timeline’s music is not an audio file.',
} as const

/** The music a film plays, once {@link filmMusicSource} has checked it. */
export type FilmMusicSource =
  { kind: 'none' } | { kind: 'builtin'; track: MusicTrack } | { kind: 'asset'; url: string }

/**
 * Checks the music a film plays ({@link filmMusic}'s answer) against the one rule the render
 * and the export share (issue 40 item 7): '' is none; `builtin:<track>` must name a builtin
 * track; anything else must be an audio asset (FLAC or WAV, {@link MUSIC_ASSET_TYPES}) of the
 * film's own project: another project's asset, a missing one or one that is no audio is
 * refused in the same words on both paths (the render fails its job, the export answers 400).
 * @param music the film's music
 * @param asset the music's asset row when `music` is an asset URL: its type, or null when the
 *   film's project has no asset at that URL (the caller looks it up within its project)
 * @returns the source, or the problem in words ({@link FILM_MUSIC_MESSAGES})
 */
export function filmMusicSource(
  music: string,
  asset: { mimeType: string } | null,
): FilmMusicSource | { problem: string } {
  if (music === '') return { kind: 'none' }
  if (music.startsWith('builtin:')) {
    const track = music.slice('builtin:'.length)
    return (MUSIC_TRACKS as readonly string[]).includes(track)
      ? { kind: 'builtin', track: track as MusicTrack }
      : { problem: FILM_MUSIC_MESSAGES.noSuchTrack(track) }
  }
  if (!asset) return { problem: FILM_MUSIC_MESSAGES.gone }
  if (!MUSIC_ASSET_TYPES.includes(asset.mimeType)) return { problem: FILM_MUSIC_MESSAGES.notAudio }
  return { kind: 'asset', url: music }
}
