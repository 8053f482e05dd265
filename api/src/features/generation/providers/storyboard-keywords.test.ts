import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { isStopWord, singularForms, wordsOf } from './english-words.ts'
import { OWN_ART } from './storyboard-art.ts'
import { keywordIndex, OWN_ICONS } from './storyboard-keywords.ts'
import { findNouns, readShot } from './storyboard-vocabulary.ts'

/** Issue 42 item 6: the storyboard picks from the whole Fluent Emoji set by names and keywords. */

describe('singularForms', () => {
  it.each([
    ['honeybees', 'honeybee'],
    ['foxes', 'fox'],
    ['knives', 'knife'],
    ['wolves', 'wolf'],
    ['puppies', 'puppy'],
    ['volcanoes', 'volcano'],
    ['horses', 'horse'],
    ['beaches', 'beach'],
    ['children', 'child'],
    ['mice', 'mouse'],
  ])('reads %s as the plural of %s', (plural, singular) => {
    expect(singularForms(plural)).toContain(singular)
  })

  it('leaves words that only look plural, and ends with the word itself', () => {
    for (const word of ['tennis', 'glass', 'octopus', 'physics', 'bus']) {
      expect(singularForms(word)).toEqual([word])
    }
    expect(singularForms('cats').at(-1)).toBe('cats')
  })
})

describe('wordsOf and stop words', () => {
  it("reads words with their offsets, a possessive 's dropped", () => {
    expect(wordsOf("A ship's wheel, close-up")).toEqual([
      { word: 'a', raw: 'A', at: 0 },
      { word: 'ship', raw: "ship's", at: 2 },
      { word: 'wheel', raw: 'wheel', at: 9 },
      { word: 'close-up', raw: 'close-up', at: 16 },
    ])
  })

  it('knows the words that name no thing', () => {
    for (const word of ['how', 'make', 'still', 'matter', 'the', 'red', 'soft', '42', 'x']) {
      expect(isStopWord(word), word).toBe(true)
    }
    for (const word of ['honeybee', 'lighthouse', 'hammer', 'rainbow']) {
      expect(isStopWord(word), word).toBe(false)
    }
  })
})

describe('keywordIndex', () => {
  const index = keywordIndex()
  const names = (word: string) => index.lookup(word)?.names ?? []

  it('finds an icon by its whole name first, a plural by its singular', () => {
    expect(index.lookup('honeybees')).toEqual({ names: ['honeybee'], kind: 'name', score: 100 })
    expect(names('foxes')).toEqual(['fox'])
    expect(names('tornadoes')).toEqual(['tornado'])
    expect(names('Penguins')).toEqual(['penguin'])
  })

  it('then by a word of a name, its head noun first, the shorter name first', () => {
    expect(index.lookup('knives')).toMatchObject({ names: ['kitchen-knife'], kind: 'name-word' })
    expect(names('honey')).toEqual(['honey-pot'])
    expect(names('soccer')).toEqual(['soccer-ball'])
    expect(names('apples')).toEqual(['green-apple', 'red-apple'])
  })

  it('then by an emojilib keyword, a thing before a face or a heart', () => {
    expect(index.lookup('bee')).toMatchObject({ names: ['honeybee'], kind: 'keyword' })
    expect(names('marathon')).toContain('person-running')
    expect(names('coffee')).toEqual(['hot-beverage'])
    // A verb form is no keyword ("sweeping" of broom).
    expect(index.lookup('sweeping')).toBeNull()
  })

  it('looks up no stop word and no word it does not know', () => {
    for (const word of ['how', 'make', 'matter', 'the', 'red', 'zqxjvw']) {
      expect(index.lookup(word), word).toBeNull()
    }
  })

  it('knows only icons of the installed set, without symbols, flags or skin tones', () => {
    const require = createRequire(import.meta.url)
    const set = JSON.parse(
      readFileSync(require.resolve('@iconify-json/fluent-emoji-flat/icons.json'), 'utf8'),
    ) as { icons: Record<string, unknown> }
    const missing = [...index.icons.keys()].filter(
      (name) => !(name in set.icons) && !(name in OWN_ART),
    )
    expect(missing).toEqual([])
    expect(index.icons.size).toBeGreaterThan(1_000)
    expect(index.icons.has('honeybee')).toBe(true)
    expect(index.icons.has('person-running-dark')).toBe(false)
    expect(index.icons.has('up-arrow')).toBe(false)
    for (const name of Object.keys(OWN_ICONS)) expect(OWN_ART[name], name).toBeDefined()
  })
})

describe('findNouns over the whole set', () => {
  const arts = (text: string) => findNouns(text).map(({ noun }) => noun.art[0])

  it('draws things the hand-written table never listed', () => {
    expect(arts('A penguin stands on the ice')).toEqual(['penguin', 'ice'])
    expect(arts('How to sharpen kitchen knives')).toEqual(['kitchen-knife'])
    expect(arts('Basketball for beginners')).toEqual(['basketball'])
    expect(findNouns('How honeybees make honey').map(({ said }) => said)).toEqual([
      'honeybees',
      'honey',
    ])
  })

  it('places them by their keywords: the weather in the sky, sea creatures on the water', () => {
    const role = (text: string) => findNouns(text)[0]?.noun.role
    expect(role('a tornado')).toBe('sky')
    expect(role('an octopus')).toBe('afloat')
    expect(readShot('an octopus').water).toBe(true)
    expect(role('a volcano')).toBe('scenery')
    expect(role('a hammer')).toBe('subject')
  })

  it('draws nothing for the words that describe the shot or name a colour', () => {
    expect(arts('Close-up at eye level, handheld, in soft natural light')).toEqual([])
    expect(arts('A red bicycle in bright, even light')).toEqual(['bicycle'])
    // The time of day and the sea are the background's.
    expect(arts('Waves on the open sea at sunset')).toEqual([])
  })
})
