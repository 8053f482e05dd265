import { SCRIPT_FORMATS, SCRIPT_STYLES, SCRIPT_TONES } from '../constants.ts'
import { JOB_FIELDS } from './job-fields.ts'
import { choiceField, textField } from './node-field.ts'
import { defineNodeKind } from './node-kind.ts'

/**
 * Script Generator (spec §3: style, tone, format, topic; §9 Script choices): writes a script
 * from a topic, or makes a whole video (issue 13 item 6). Only feeds other nodes.
 */
export const scriptGeneratorNode = defineNodeKind({
  type: 'script-generator',
  title: 'Script Generator',
  connectionPoints: 'output',
  footprint: { width: 300, height: 420 },
  fields: {
    topic: textField(''),
    style: choiceField(SCRIPT_STYLES, SCRIPT_STYLES[0]),
    tone: choiceField(SCRIPT_TONES, SCRIPT_TONES[0]),
    format: choiceField(SCRIPT_FORMATS, SCRIPT_FORMATS[0]),
    ...JOB_FIELDS,
  },
})
