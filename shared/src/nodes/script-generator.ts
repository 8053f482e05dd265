import { SCRIPT_FORMATS, SCRIPT_STYLES, SCRIPT_TONES } from '../constants.ts'
import { JOB_FIELDS } from './job-fields.ts'
import { RESULT_HASH_FIELDS } from './result-hash.ts'
import { TARGET_SECONDS_DEFAULT, TARGET_SECONDS_MAX, TARGET_SECONDS_MIN } from '../target-length.ts'
import { choiceField, numberField, textField } from './node-field.ts'
import { defineNodeKind } from './node-kind.ts'

/**
 * Script Generator (spec §3: style, tone, format, topic; §9 Script choices): writes a script
 * from a topic, or makes a whole video (issue 13 item 6). Only feeds other nodes. Its
 * `targetSeconds` is the video's length the script is written for (issue 42 item 1): whole
 * seconds, 10 to 600, a stored value outside read rounded and clamped; missing, 60.
 */
export const scriptGeneratorNode = defineNodeKind({
  type: 'script-generator',
  title: 'Script Generator',
  connectionPoints: 'output',
  footprint: { width: 300, height: 485 },
  fields: {
    topic: textField(''),
    style: choiceField(SCRIPT_STYLES, SCRIPT_STYLES[0]),
    tone: choiceField(SCRIPT_TONES, SCRIPT_TONES[0]),
    format: choiceField(SCRIPT_FORMATS, SCRIPT_FORMATS[0]),
    targetSeconds: numberField(TARGET_SECONDS_DEFAULT, {
      integer: true,
      min: TARGET_SECONDS_MIN,
      max: TARGET_SECONDS_MAX,
    }),
    ...JOB_FIELDS,
    // Issue 42 item 4: the hash of the inputs its newest result was made from.
    ...RESULT_HASH_FIELDS,
  },
})
