import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatSrtTimestamp, formatVttTimestamp, toSrt, toVtt } from './format.ts'
import type { Cue } from './types.ts'

const cues: Cue[] = [
  { startMs: 0, endMs: 1_000, lines: ['Hello, world.'] },
  { startMs: 1_250, endMs: 4_500, lines: ['Tides rise and fall', 'twice a day.'] },
]

describe('timestamps', () => {
  it('writes SRT times with a comma and VTT times with a dot', () => {
    expect(formatSrtTimestamp(1_000)).toBe('00:00:01,000')
    expect(formatVttTimestamp(1_000)).toBe('00:00:01.000')
    expect(formatSrtTimestamp(0)).toBe('00:00:00,000')
    expect(formatSrtTimestamp(3_723_456)).toBe('01:02:03,456')
    expect(formatVttTimestamp(59_999)).toBe('00:00:59.999')
    expect(formatVttTimestamp(100 * 3_600_000 + 5)).toBe('100:00:00.005')
  })

  it('rounds to the nearest millisecond', () => {
    expect(formatSrtTimestamp(1_999.6)).toBe('00:00:02,000')
    expect(formatVttTimestamp(0.4)).toBe('00:00:00.000')
  })

  it('refuses negative and non-finite times', () => {
    expect(() => formatSrtTimestamp(-1)).toThrow(RangeError)
    expect(() => formatVttTimestamp(Number.NaN)).toThrow(RangeError)
    expect(() => toSrt([{ startMs: 0, endMs: Infinity, lines: ['x'] }])).toThrow(RangeError)
  })

  it('reads back to the same whole milliseconds (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400 * 3_600_000 }), (ms) => {
        for (const [text, separator] of [
          [formatSrtTimestamp(ms), ','],
          [formatVttTimestamp(ms), '.'],
        ] as const) {
          const match = new RegExp(`^(\\d{2,}):(\\d{2}):(\\d{2})\\${separator}(\\d{3})$`).exec(text)
          expect(match).not.toBeNull()
          const [, h, m, s, millis] = match!.map(Number) as [number, number, number, number, number]
          expect(m).toBeLessThan(60)
          expect(s).toBeLessThan(60)
          expect(((h * 60 + m) * 60 + s) * 1000 + millis).toBe(ms)
        }
      }),
    )
  })
})

describe('toSrt', () => {
  it('numbers the blocks from 1 and separates them with a blank line', () => {
    expect(toSrt(cues)).toBe(
      [
        '1',
        '00:00:00,000 --> 00:00:01,000',
        'Hello, world.',
        '',
        '2',
        '00:00:01,250 --> 00:00:04,500',
        'Tides rise and fall',
        'twice a day.',
        '',
      ].join('\n'),
    )
  })

  it('writes nothing for no cues', () => {
    expect(toSrt([])).toBe('')
  })
})

describe('toVtt', () => {
  it('starts with the WEBVTT header and uses dots in times', () => {
    expect(toVtt(cues)).toBe(
      [
        'WEBVTT',
        '',
        '00:00:00.000 --> 00:00:01.000',
        'Hello, world.',
        '',
        '00:00:01.250 --> 00:00:04.500',
        'Tides rise and fall',
        'twice a day.',
        '',
      ].join('\n'),
    )
  })

  it('escapes the characters WebVTT reads as markup', () => {
    const vtt = toVtt([{ startMs: 0, endMs: 1_000, lines: ['Salt & pepper <b> -->'] }])
    expect(vtt).toContain('Salt &amp; pepper &lt;b&gt; --&gt;')
  })

  it('is only the header for no cues', () => {
    expect(toVtt([])).toBe('WEBVTT\n')
  })
})
