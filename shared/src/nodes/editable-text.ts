import { SCENE_COUNT_DEFAULT, SCENE_COUNT_MAX, SCENE_COUNT_MIN } from '../constants.ts'
import { JOB_FIELDS } from './job-fields.ts'
import { RESULT_HASH_FIELDS } from './result-hash.ts'
import { numberField, textField } from './node-field.ts'
import { defineNodeKind } from './node-kind.ts'

/**
 * Text node (spec §3: content), with the scene count Generate Scenes asks for (spec §5: a
 * whole number from 1 to 25; a stored one outside reads rounded and clamped) and its job.
 */
export const editableTextNode = defineNodeKind({
  type: 'editable-text',
  title: 'Text',
  connectionPoints: 'both',
  footprint: { width: 300, height: 360 },
  fields: {
    content: textField(''),
    sceneCount: numberField(SCENE_COUNT_DEFAULT, {
      integer: true,
      min: SCENE_COUNT_MIN,
      max: SCENE_COUNT_MAX,
    }),
    ...JOB_FIELDS,
    // Issue 42 item 4: the hash of the inputs its newest result was made from.
    ...RESULT_HASH_FIELDS,
  },
})
