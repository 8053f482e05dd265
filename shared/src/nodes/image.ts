import { IMAGE_DEFAULT_HEIGHT_PX, IMAGE_DEFAULT_WIDTH_PX } from '../constants.ts'
import { numberField, textField } from './node-field.ts'
import { defineNodeKind } from './node-kind.ts'

/** Image (spec §3: imageUrl, prompt, width, height): a generated image. Only fed. */
export const imageNode = defineNodeKind({
  type: 'image',
  title: 'Image',
  connectionPoints: 'input',
  footprint: { width: 400, height: 460 },
  fields: {
    imageUrl: textField(''),
    prompt: textField(''),
    width: numberField(IMAGE_DEFAULT_WIDTH_PX),
    height: numberField(IMAGE_DEFAULT_HEIGHT_PX),
  },
})
