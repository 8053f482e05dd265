import { z } from 'zod'
import type { NodeData } from '../node-values.ts'
import { JOB_DATA_KEYS } from '../jobs.ts'
import { JOB_FIELDS } from './job-fields.ts'
import {
  booleanField,
  choiceField,
  jsonListField,
  numberValue,
  optionalNumber,
  optionalText,
  textField,
} from './node-field.ts'
import { defineNodeKind, type NodeDataMigration } from './node-kind.ts'

/**
 * Video (issue 13 items 4-5): its settings (preset, voice, subtitles, music), its renders
 * as takes, the current render's files as flat fields (REST clients read `videoUrl` from
 * `GET /api/projects/:id`), and its render job.
 */

/** The output formats a Video node offers (media's presets). */
export const VIDEO_PRESET_NAMES = ['16:9', '9:16', '1:1'] as const
export type VideoPresetName = (typeof VIDEO_PRESET_NAMES)[number]

/**
 * How a scene's clip fills the frame (issue 22 item 4): `cover` crops it to the preset,
 * `contain` shows it whole over a blurred copy of itself.
 */
export const CLIP_FITS = ['cover', 'contain'] as const
export type ClipFit = (typeof CLIP_FITS)[number]
/** A clip shorter than its scene: hold its last frame, or slow it to the scene's length. */
export const CLIP_SHORTER = ['hold', 'slow'] as const
export type ClipShorter = (typeof CLIP_SHORTER)[number]
/** A clip's own sound: left out (the default), or mixed under the narration, ducked. */
export const CLIP_SOUND = ['off', 'mix'] as const
export type ClipSound = (typeof CLIP_SOUND)[number]

/** How many renders a Video node keeps as takes (issue 13 item 5: "the last 5 renders"). */
export const MAX_VIDEO_TAKES = 5

/** One render of a Video node, kept so it can be selected and played again. */
export const videoTakeSchema = z.object({
  /** The MP4's asset URL (`/api/assets/:id`; `?download=1` names it `<project>.mp4`). */
  mp4Url: z.string().min(1),
  /** The subtitles' asset URLs ('' when a render from before takes did not record them). */
  srtUrl: z.string(),
  vttUrl: z.string(),
  /** Length of the video, in ms. */
  durationMs: z.number().nonnegative(),
  /** shared `videoInputHash` of what was rendered: differs from the current one when Stale. */
  inputHash: z.string(),
  /** ISO time the render finished ('' when unknown: a render from before takes). */
  renderedAt: z.string(),
  /** The preset it was rendered in. */
  preset: z.enum(VIDEO_PRESET_NAMES),
  /** Narrations it took from the narration cache, of `voicesTotal` (issue 21 item 4). */
  voicesReused: z.number().int().nonnegative().optional(),
  voicesTotal: z.number().int().nonnegative().optional(),
})
export type VideoTake = z.infer<typeof videoTakeSchema>

/**
 * The takes, newest first, stored as a JSON array (data values are flat); an entry that is
 * not a take is skipped, and at most {@link MAX_VIDEO_TAKES} are read. A node that never
 * rendered has none.
 */
const takesField = jsonListField(videoTakeSchema, MAX_VIDEO_TAKES, 'must be a JSON list of takes')

/**
 * A Video node rendered before takes existed (issue 13 item 5 added them, commit 8a4fee8)
 * holds only the flat result fields of its last render (`videoUrl`, `videoSrtUrl`,
 * `videoVttUrl`, `videoDurationMs`, `videoInputHash`): it reads as that one take, rendered
 * in the node's preset, at its job's last update when known.
 */
export const flatResultAsTake: NodeDataMigration = {
  id: 'video/flat-result-as-take',
  description:
    'Renders before takes left only videoUrl, videoSrtUrl, videoVttUrl, videoDurationMs and videoInputHash.',
  up(data) {
    if (data.videoTakes !== undefined) return data
    const text = (value: unknown) => (typeof value === 'string' ? value : '')
    const mp4Url = text(data.videoUrl)
    if (mp4Url === '') return data
    const duration = numberValue.safeParse(data.videoDurationMs)
    const preset = z.enum(VIDEO_PRESET_NAMES).safeParse(data.preset)
    const take: VideoTake = {
      mp4Url,
      srtUrl: text(data.videoSrtUrl),
      vttUrl: text(data.videoVttUrl),
      durationMs: duration.success ? Math.max(0, duration.data) : 0,
      inputHash: text(data.videoInputHash),
      renderedAt: text(data[JOB_DATA_KEYS.updatedAt]),
      preset: preset.success ? preset.data : '16:9',
    }
    return { ...data, videoTakes: JSON.stringify([take]) }
  },
}

export const videoNode = defineNodeKind({
  type: 'video',
  title: 'Video',
  connectionPoints: 'both',
  footprint: { width: 420, height: 560 },
  fields: {
    preset: choiceField(VIDEO_PRESET_NAMES, '16:9'),
    /** The voice id; '' for the speech provider's default. */
    voice: textField(''),
    subtitles: booleanField(true),
    music: booleanField(false),
    /** Scenes that are clips (issue 22 item 4): fit, a clip shorter than its scene, its sound. */
    clipFit: choiceField(CLIP_FITS, 'cover'),
    clipShorter: choiceField(CLIP_SHORTER, 'hold'),
    clipSound: choiceField(CLIP_SOUND, 'off'),
    /** The newest take's MP4, SRT and VTT asset URLs, length (ms) and input hash. */
    videoUrl: optionalText(),
    videoSrtUrl: optionalText(),
    videoVttUrl: optionalText(),
    videoDurationMs: optionalNumber(),
    videoInputHash: optionalText(),
    videoTakes: takesField,
    ...JOB_FIELDS,
  },
  migrations: [flatResultAsTake],
})

/**
 * The stored result of a Video node whose takes are now `takes` (newest first): the takes,
 * and the newest one's files as the node's current result.
 */
export function videoResultData(takes: readonly VideoTake[]): NodeData {
  const [newest] = takes
  return videoNode.store({
    videoTakes: [...takes],
    ...(newest && {
      videoUrl: newest.mp4Url,
      videoSrtUrl: newest.srtUrl,
      videoVttUrl: newest.vttUrl,
      videoDurationMs: newest.durationMs,
      videoInputHash: newest.inputHash,
    }),
  })
}
