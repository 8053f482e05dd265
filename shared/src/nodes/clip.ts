import { z } from 'zod'
import type { NodeData } from '../node-values.ts'
import { booleanField, jsonListField, numberField, textField } from './node-field.ts'
import { defineNodeKind } from './node-kind.ts'

/** How many clips a Clip node keeps to pick from (issue 22 item 3: "the last 5 takes"). */
export const MAX_CLIP_TAKES = 5

/** One generated clip, kept on its Clip node so it can be picked again. */
export const clipTakeSchema = z.object({
  /** The MP4's asset URL. */
  videoUrl: z.string().min(1),
  /** Its poster frame's asset URL. */
  posterUrl: z.string(),
  /** Its length by ffprobe, in ms. */
  durationMs: z.number().nonnegative(),
  hasAudio: z.boolean(),
  /** The catalog model that made it, and what it was asked. */
  modelId: z.string(),
  prompt: z.string(),
  seed: z.number().int(),
  /** ISO time it was made. */
  createdAt: z.string(),
})
export type ClipTake = z.infer<typeof clipTakeSchema>

/**
 * Clip (issue 22 item 3): a generated video clip, the result of a Video Generator. Its
 * current take (`videoUrl`, `posterUrl`, ... : what the Video node renders the scene with)
 * and the last {@link MAX_CLIP_TAKES} to pick from; picking one makes it current for
 * everyone. Only fed.
 */
export const clipNode = defineNodeKind({
  type: 'clip',
  title: 'Clip',
  connectionPoints: 'input',
  footprint: { width: 400, height: 520 },
  fields: {
    videoUrl: textField(''),
    posterUrl: textField(''),
    durationMs: numberField(0, { min: 0 }),
    hasAudio: booleanField(false),
    modelId: textField(''),
    prompt: textField(''),
    clipTakes: jsonListField(clipTakeSchema, MAX_CLIP_TAKES, 'must be a JSON list of clips'),
  },
})

/**
 * The stored data of a Clip node whose takes are now `takes` (newest first) with `current`
 * as the one it shows and renders with.
 */
export function clipResultData(takes: readonly ClipTake[], current: ClipTake): NodeData {
  return clipNode.store({
    clipTakes: [...takes],
    videoUrl: current.videoUrl,
    posterUrl: current.posterUrl,
    durationMs: current.durationMs,
    hasAudio: current.hasAudio,
    modelId: current.modelId,
    prompt: current.prompt,
  })
}

/**
 * `take` added in front of `takes` (a take of the same video replaces itself), cut to the
 * newest {@link MAX_CLIP_TAKES}: the kept takes, and those that fell off (their files may go).
 */
export function addClipTake(
  takes: readonly ClipTake[],
  take: ClipTake,
): { kept: ClipTake[]; dropped: ClipTake[] } {
  const all = [take, ...takes.filter((t) => t.videoUrl !== take.videoUrl)]
  return { kept: all.slice(0, MAX_CLIP_TAKES), dropped: all.slice(MAX_CLIP_TAKES) }
}
