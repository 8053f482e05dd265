import { describe, expect, it } from 'vitest'
import { LIBRARY_ENTRIES } from './node-defaults'

describe('the Nodes Library', () => {
  it('lists only script generator, scene and text node in the library (spec §2)', () => {
    expect(LIBRARY_ENTRIES.map((e) => e.type)).toEqual([
      'script-generator',
      'scene',
      'editable-text',
    ])
  })
})
