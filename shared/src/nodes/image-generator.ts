import {
  IMAGE_DEFAULT_GUIDANCE,
  IMAGE_DEFAULT_HEIGHT_PX,
  IMAGE_DEFAULT_STEPS,
  IMAGE_DEFAULT_WIDTH_PX,
} from '../constants.ts'
import { JOB_FIELDS } from './job-fields.ts'
import { RESULT_HASH_FIELDS } from './result-hash.ts'
import { numberField, textField, textFlagField } from './node-field.ts'
import { defineNodeKind } from './node-kind.ts'

/**
 * Image Generator (spec §3, §5 Image generation, §9 Image defaults): sizes, steps and
 * guidance are numbers; the seed is text, empty meaning "random at generation time";
 * promptFromScene is the text "true" or "false" (spec §3). Created by the product (a scene's
 * "Create image generator", Make video), not from the Nodes Library.
 */
export const imageGeneratorNode = defineNodeKind({
  type: 'image-generator',
  title: 'Image Generator',
  connectionPoints: 'both',
  footprint: { width: 300, height: 620 },
  fields: {
    prompt: textField(''),
    negativePrompt: textField(''),
    width: numberField(IMAGE_DEFAULT_WIDTH_PX),
    height: numberField(IMAGE_DEFAULT_HEIGHT_PX),
    numInferenceSteps: numberField(IMAGE_DEFAULT_STEPS),
    guidanceScale: numberField(IMAGE_DEFAULT_GUIDANCE),
    seed: textField(''),
    modelId: textField(''),
    modelVersionId: textField(''),
    promptFromScene: textFlagField('false'),
    ...JOB_FIELDS,
    // Issue 42 item 4: the hash of the inputs its newest result was made from.
    ...RESULT_HASH_FIELDS,
  },
})
