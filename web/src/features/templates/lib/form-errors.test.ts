import { describe, expect, it } from 'vitest'
import { templateFormErrors } from './form-errors'

const names = ['topic', 'image']

describe('templateFormErrors', () => {
  it('puts a field’s message beside the variable or the name it names', () => {
    expect(
      templateFormErrors(
        'Check the fields.',
        { 'values.topic': 'Too long.', name: 'Too long.' },
        names,
      ),
    ).toEqual({ values: { topic: 'Too long.' }, name: 'Too long.' })
  })
  it('places a message without fields by the {{variable}} it names', () => {
    expect(templateFormErrors('{{image}} must be a picture.', undefined, names)).toEqual({
      values: { image: '{{image}} must be a picture.' },
    })
  })
  it('keeps what names no field of the form for the form itself', () => {
    expect(templateFormErrors('You have 2 credits.', undefined, names)).toEqual({
      values: {},
      form: 'You have 2 credits.',
    })
    expect(
      templateFormErrors(
        'Bad.',
        { templateId: 'Not a template.', 'values.other': 'No such.' },
        names,
      ),
    ).toEqual({ values: {}, form: 'Not a template. No such.' })
  })
})
