import { describe, expect, it } from 'vitest'
import {
  assColor,
  assTime,
  captionsAss,
  cardAss,
  DEFAULT_CAPTION_LOOK,
  escapeAssText,
} from './ass.ts'
import { filterPath, subtitlesFilter } from './filter-graph.ts'

const PRESET = { width: 1920, height: 1080, fps: 30 }
const dialogues = (ass: string) => ass.split('\n').filter((l) => l.startsWith('Dialogue:'))

describe('ASS captions', () => {
  it('writes a person’s text as text: no override block, no \\N, no line break of its own', () => {
    expect(escapeAssText('a{\\b1}b')).toBe('a\\{\\\u2060b1\\}b')
    expect(escapeAssText('x\\Ny')).toBe('x\\\u2060Ny')
    expect(escapeAssText('one\ntwo\r\nthree')).toBe('one two three')
    expect(escapeAssText('one\ntwo', { breaks: true })).toBe('one\\Ntwo')
    expect(escapeAssText('bell\u0007')).toBe('bell')
    const card = cardAss(
      {
        text: 'Hi {there}\nDialogue: 0,0:00:00.00',
        color: '#ffffff',
        background: '#000000',
        font: 'Inter',
      },
      PRESET,
    )
    // The text stays inside its one event: no second Dialogue line, braces escaped.
    expect(dialogues(card)).toHaveLength(1)
    expect(dialogues(card)[0]).toContain('Hi \\{there\\}\\NDialogue')
  })

  it('colours as &HAABBGGRR and times rounded down to the frame’s centisecond', () => {
    expect(assColor('#ff8000')).toBe('&H000080FF')
    expect(assColor('#000000', 0.6)).toBe('&H66000000')
    expect(assTime(2, 30)).toBe('0:00:00.06')
    expect(assTime(30 * 61 + 1, 30)).toBe('0:01:01.03')
  })

  it('"word-highlight" shows a caption once per spoken word, that word lit', () => {
    const caption = {
      startFrame: 0,
      endFrame: 30,
      lines: [
        [
          { text: 'one', frame: 3 },
          { text: 'two', frame: 12 },
          { text: 'three', frame: 20 },
        ],
      ],
    }
    const lit = dialogues(
      captionsAss([caption], { ...DEFAULT_CAPTION_LOOK, captionStyle: 'word-highlight' }, PRESET),
    )
    expect(lit).toHaveLength(4)
    expect(lit[0]).toMatch(/0:00:00.00,0:00:00.10,Caption,,0,0,0,,one two three$/)
    expect(lit[2]).toMatch(/0:00:00.40,0:00:00.66,.*,one \{\\c&H00D4FF&\}two\{\\r\} three$/)
    const classic = dialogues(captionsAss([caption], DEFAULT_CAPTION_LOOK, PRESET))
    expect(classic).toEqual(['Dialogue: 0,0:00:00.00,0:00:01.00,Caption,,0,0,0,,one two three'])
  })

  it('"bold" is larger and bold, centred at the asked position', () => {
    const style = (look = DEFAULT_CAPTION_LOOK) =>
      captionsAss([], look, PRESET)
        .split('\n')
        .find((l) => l.startsWith('Style: Caption'))!
        .split(',')
    const classic = style()
    const bold = style({ ...DEFAULT_CAPTION_LOOK, captionStyle: 'bold', captionPosition: 'middle' })
    expect(Number(bold[2])).toBeGreaterThan(Number(classic[2]))
    expect(bold[7]).toBe('-1')
    expect(bold[18]).toBe('5')
    expect(classic[18]).toBe('2')
  })
})

describe('filterPath', () => {
  it('escapes a path for an option inside a filter graph', () => {
    expect(filterPath("/tmp/a b/it's:[x],y;z", 'A file')).toBe(
      "/tmp/a b/it\\\\\\'s\\\\:\\[x\\]\\,y\\;z",
    )
    expect(subtitlesFilter('/c/x.ass', '/c/fonts')).toBe(
      'subtitles=filename=/c/x.ass:fontsdir=/c/fonts',
    )
    expect(() => filterPath('rel/x.ass', 'A file')).toThrow()
  })
})
