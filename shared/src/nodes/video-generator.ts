import { CLIP_DEFAULT_SECONDS } from '../clips.ts'
import { JOB_FIELDS } from './job-fields.ts'
import { RESULT_HASH_FIELDS } from './result-hash.ts'
import { booleanField, choiceField, numberField, textField, textFlagField } from './node-field.ts'
import { defineNodeKind } from './node-kind.ts'
import { VIDEO_PRESET_NAMES } from './video.ts'

/**
 * Video Generator (issue 22 item 3): a prompt (copied from a connected scene's visuals, as the
 * image generator's is), an optional start image (a connected image node) and last frame
 * where the model takes one, the catalog model, duration (seconds), aspect ratio, seed (text,
 * empty meaning random) and "with sound"; its result is a Clip node.
 */
export const videoGeneratorNode = defineNodeKind({
  type: 'video-generator',
  title: 'Video Generator',
  connectionPoints: 'both',
  footprint: { width: 320, height: 660 },
  fields: {
    prompt: textField(''),
    negativePrompt: textField(''),
    /** A catalog id (`fal:...`); '' until one is picked. */
    modelId: textField(''),
    durationSeconds: numberField(CLIP_DEFAULT_SECONDS, { min: 1, max: 20 }),
    aspectRatio: choiceField(VIDEO_PRESET_NAMES, '16:9'),
    seed: textField(''),
    withAudio: booleanField(false),
    /** The start image's asset URL ('' for none, or a connected image node's). */
    imageUrl: textField(''),
    /** The last frame's asset URL, where the model takes one ('' for none). */
    lastFrameUrl: textField(''),
    promptFromScene: textFlagField('false'),
    ...JOB_FIELDS,
    // Issue 42 item 4: the hash of the inputs its newest result was made from.
    ...RESULT_HASH_FIELDS,
  },
})
