import { describe, expect, it } from 'vitest'
import { describeShot } from './builtin-visuals.ts'
import { seededRandom } from './seeded-random.ts'
import { findNouns, readShot, sceneTitle, TITLE_MAX_CHARS } from './storyboard-vocabulary.ts'

/** Issue 20 item 4: what the builtin image provider reads from a shot's description. */

describe('readShot', () => {
  it('reads the framing, the first one said winning, medium when none is', () => {
    expect(readShot('Wide establishing shot of a harbour').framing).toBe('wide')
    expect(readShot('Closing wide shot of the presenter').framing).toBe('wide')
    expect(readShot('Medium close-up of the presenter').framing).toBe('close-up')
    expect(readShot('Close-up of a face').framing).toBe('close-up')
    expect(readShot("Detail shot of a ship's wheel").framing).toBe('detail')
    expect(readShot('Extreme close-up of an eye').framing).toBe('detail')
    expect(readShot('Tracking shot along the quay').framing).toBe('medium')
    expect(readShot('Wide shot of a cliff; the camera pushes in to a close-up').framing).toBe(
      'wide',
    )
    expect(readShot('A red bicycle').framing).toBe('medium')
  })

  it('reads the light: the time of day, and warm or cold', () => {
    expect(readShot('a harbour at night in warm lamplight')).toMatchObject({
      time: 'night',
      temperature: 'warm',
    })
    expect(readShot('a field at sunset').time).toBe('sunset')
    expect(readShot('a field at dusk').time).toBe('sunset')
    expect(readShot('a field at dawn').time).toBe('dawn')
    expect(readShot('a field in soft natural light')).toMatchObject({
      time: 'day',
      temperature: 'neutral',
    })
    expect(readShot('a frozen lake in cold winter light').temperature).toBe('cold')
  })

  it('makes the ground water by the sea, or under something afloat', () => {
    expect(readShot('waves on the open sea').water).toBe(true)
    expect(readShot('a ship').water).toBe(true)
    expect(readShot('a lighthouse').water).toBe(true)
    expect(readShot('a farmer in a field').water).toBe(false)
  })
})

describe('findNouns', () => {
  const arts = (text: string) => findNouns(text).map(({ noun }) => noun.art[0])

  it('finds the nouns in the order they are said, each once', () => {
    expect(arts('A ship passes the lighthouse; another ship follows under the moon')).toEqual([
      'ship',
      'lighthouse',
      'crescent-moon',
    ])
  })

  it("lets the longer name win: a ship's wheel is no ship", () => {
    expect(arts("hands on a ship's wheel")).toEqual(['person-standing', 'ships-wheel'])
  })

  it('matches whole words only', () => {
    // No cat in "scarcity": the seats are the seat icon (issue 42 item 6: the whole set).
    expect(arts('a scarcity of seats')).toEqual(['seat'])
    expect(arts('Cats')).toEqual(['cat'])
  })
})

describe('sceneTitle', () => {
  it("is the video's title under a shot of the topic's things", () => {
    const visuals = describeShot(
      '',
      {
        index: 1,
        count: 3,
        continued: false,
        title: 'how lighthouses guide ships',
        things: ['lighthouses', 'ships'],
      },
      seededRandom(1),
    )
    expect(visuals).toMatch(/of the ships and the lighthouses, /)
    expect(sceneTitle(visuals)).toBe('How lighthouses guide ships')
  })

  it('is the action of a shot described as describeShot writes it', () => {
    const visuals = describeShot(
      'Bees gather nectar from flowers. Then they fly home.',
      { index: 1, count: 3, continued: false, title: null, things: [] },
      seededRandom(1),
    )
    expect(sceneTitle(visuals)).toBe('Bees gather nectar from flowers')
  })

  it('leaves out the camera words, keeps the first clause, and stays short', () => {
    expect(sceneTitle('Close-up of a person at sunset, warm light on their face')).toBe(
      'A person at sunset',
    )
    expect(sceneTitle('Wide shot: a lighthouse on a rocky cliff at dusk, waves below.')).toBe(
      'A lighthouse on a rocky cliff at dusk',
    )
    expect(sceneTitle("Detail shot of a ship's wheel")).toBe("A ship's wheel")
    const long = sceneTitle(`A ${'very '.repeat(30)}long prompt`)!
    expect(long.length).toBeLessThanOrEqual(TITLE_MAX_CHARS + 1)
    expect(long).toMatch(/…$/)
    expect(sceneTitle('   ')).toBeNull()
  })
})
