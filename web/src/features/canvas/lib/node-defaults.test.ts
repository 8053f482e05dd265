import { describe, expect, it } from 'vitest'
import { LIBRARY_ENTRIES } from './node-defaults'

describe('the Nodes Library', () => {
  it('lists script generator, scene and text node (spec §2), the Video Generator (issue 22), then video (issue 13 item 5)', () => {
    expect(LIBRARY_ENTRIES.map((e) => e.type)).toEqual([
      'script-generator',
      'scene',
      'editable-text',
      'video-generator',
      'video',
    ])
  })

  it('offers no Clip: a clip is a Video Generator’s result', () => {
    expect(LIBRARY_ENTRIES.some((e) => e.type === 'clip')).toBe(false)
  })
})
