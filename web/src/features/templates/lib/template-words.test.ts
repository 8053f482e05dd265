import type { TemplateSettings } from '@reelgraph/shared'
import { describe, expect, it } from 'vitest'
import { templateSettingsSummary } from './template-words'

const base: TemplateSettings = { preset: '9:16', targetSeconds: 30, sceneCount: 3, voice: '' }

describe('templateSettingsSummary', () => {
  it('says the format, the length, the scenes and the caption look', () => {
    expect(templateSettingsSummary({ ...base, captions: { style: 'bold' } })).toBe(
      '9:16 · 30 s · 3 scenes · Bold captions',
    )
  })
  it('reads captions left to the timeline as classic, and lengths in minutes', () => {
    expect(
      templateSettingsSummary({ ...base, preset: '16:9', targetSeconds: 90, sceneCount: 1 }),
    ).toBe('16:9 · 1 min 30 s · 1 scene · Classic captions')
  })
  it('adds what sets a template apart: animation, a picture of yours, a character', () => {
    expect(
      templateSettingsSummary({
        ...base,
        captions: { style: 'word-highlight' },
        animateModelId: 'builtin:motion',
        sceneImage: '{{image}}',
        character: 'A fox called {{name}}',
      }),
    ).toBe(
      '9:16 · 30 s · 3 scenes · Word-highlight captions · Animated · From your picture · Recurring character',
    )
  })
})
