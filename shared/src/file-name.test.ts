import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FILE_NAME_MAX_CHARS, safeFileName } from './file-name.ts'

/** The bidi and invisible controls the issue names, and the C0/C1 controls. */
const CONTROLS = [
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u061c',
  '\u0000',
  '\u0007',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009b',
  '\u200b',
  '\ufeff',
]

const RESERVED = ['CON', 'PRN', 'AUX', 'NUL', 'COM1', 'COM9', 'LPT1', 'LPT9', 'COM¹', 'LPT³']

/** A Windows reserved device name as Windows reads a name: the part before the first dot, trailing spaces dropped. */
const isReserved = (name: string) =>
  /^(con|prn|aux|nul|com[1-9¹²³]|lpt[1-9¹²³])$/i.test(name.split('.')[0]!.trimEnd())

/** Names with every kind of trouble mixed in: reserved names in any case, controls, signs. */
const troublesome = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 8 }),
      fc.string({ unit: 'binary', maxLength: 8 }),
      fc.constantFrom(...RESERVED).chain((r) => fc.mixedCase(fc.constant(r)).map((name) => name)),
      fc.constantFrom(...CONTROLS, '.', ' ', '/', '\\', ':', '*', '?', '"', '<', '>', '|', '.otio'),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''))

describe('safeFileName (issue 40 item 7: export names)', () => {
  it('drops reserved device names, bidi and invisible controls, for any name (property)', () => {
    fc.assert(
      fc.property(troublesome, (name) => {
        const safe = safeFileName(name, 'Film')
        expect(safe.length).toBeGreaterThan(0)
        expect(Array.from(safe).length).toBeLessThanOrEqual(FILE_NAME_MAX_CHARS)
        expect(safe).not.toMatch(/[\p{Cc}\p{Cf}<>:"/\\|?*]/u)
        expect(safe).not.toMatch(/^\.|[. ]$/)
        expect(isReserved(safe), safe).toBe(false)
        // With the extensions the export adds, still no reserved name.
        expect(isReserved(`${safe}.otio`)).toBe(false)
        // No unpaired surrogate: a pair is never cut.
        expect(safe.isWellFormed()).toBe(true)
        // Cleaning a clean name changes nothing.
        expect(safeFileName(safe, 'Film')).toBe(safe)
      }),
      { numRuns: 3_000 },
    )
  })

  it('keeps an ordinary name, and answers examples as expected', () => {
    expect(safeFileName('Rock pools & tides', 'Film')).toBe('Rock pools & tides')
    expect(safeFileName('Tides 🌊 of Brittany', 'Film')).toBe('Tides 🌊 of Brittany')
    for (const name of ['CON', 'con', 'Nul.txt', 'com1', 'LPT9.otio', 'aux ', 'PRN.']) {
      expect(isReserved(safeFileName(name, 'Film')), name).toBe(false)
    }
    expect(safeFileName('CON', 'Film')).toBe('_CON')
    expect(safeFileName('nul.tar', 'Film')).toBe('_nul.tar')
    expect(safeFileName('CONSOLE', 'Film')).toBe('CONSOLE')
    expect(safeFileName('invoice\u202Efdp.exe', 'Film')).toBe('invoicefdp.exe')
    expect(safeFileName('a\u2066b\u2069c\u061Cd\u200Ee\u200Ff', 'Film')).toBe('abcdef')
    expect(safeFileName('bell\u0007 and \u009b csi', 'Film')).toBe('bell_ and _ csi')
    expect(safeFileName('\u202E\u200F', 'Film')).toBe('Film')
    expect(safeFileName('...', 'Film')).toBe('Film')
    expect(safeFileName(`${'🌊'.repeat(79)}x🌊`, 'Film')).toBe(`${'🌊'.repeat(79)}x`)
  })
})
