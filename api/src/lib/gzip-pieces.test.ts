import { spawnSync } from 'node:child_process'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { acceptsGzip, deflatePieceOnce, gzipPieces } from './gzip-pieces.ts'

const text = (s: string) => Buffer.from(s, 'utf8')

/** Pseudo-random bytes from a seed (xorshift), some runs repetitive so DEFLATE matches them. */
function bytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length)
  let x = seed || 1
  for (let i = 0; i < length; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    out[i] = (x >>> 0) % 7 === 0 ? (x >>> 8) & 0xff : 97 + (i % 5)
  }
  return out
}

describe('gzipPieces', () => {
  it('is one gzip member whose content is the pieces in order, kept or not', () => {
    const cases: Uint8Array[][] = [
      [text('{"jsonrpc":"2.0","result":{"text":"'), bytes(250_000, 7), text('"}}')],
      [text(''), text('é 漢字 🐝'), text('')],
      [bytes(70_000, 3)],
      [],
    ]
    for (const pieces of cases) {
      const gz = gzipPieces(pieces.map((piece, i) => ({ bytes: piece, keep: i % 2 === 1 })))
      expect(gunzipSync(gz).equals(Buffer.concat(pieces))).toBe(true)
      // One member: the header once, at the start.
      expect([...gz.subarray(0, 3)]).toEqual([0x1f, 0x8b, 0x08])
    }
  })

  it('is read by gzip itself (the command), CRC and length checked', () => {
    const pieces = [text('head '), bytes(100_000, 11), text(' tail')]
    const gz = gzipPieces([
      { bytes: pieces[0]! },
      { bytes: pieces[1]!, keep: true },
      { bytes: pieces[2]! },
    ])
    const gunzip = spawnSync('gzip', ['-dc'], { input: gz, maxBuffer: 1 << 20 })
    expect(gunzip.status).toBe(0)
    expect(gunzip.stdout.equals(Buffer.concat(pieces))).toBe(true)
    const listed = spawnSync('gzip', ['-t'], { input: gz })
    expect(listed.status).toBe(0)
  })

  it('compresses a kept piece once per array', () => {
    const piece = bytes(50_000, 5)
    expect(deflatePieceOnce(piece)).toBe(deflatePieceOnce(piece))
    expect(deflatePieceOnce(bytes(50_000, 5))).not.toBe(deflatePieceOnce(piece))
  })
})

describe('acceptsGzip', () => {
  it.each([
    ['gzip, deflate', true],
    ['gzip, deflate, br, zstd', true],
    ['br;q=1.0, gzip;q=0.8, *;q=0.1', true],
    ['x-gzip', true],
    ['*', true],
    ['identity', false],
    ['br', false],
    ['gzip;q=0', false],
    ['gzip;q=0, *', false],
    ['*;q=0', false],
    ['', false],
    [undefined, false],
  ])('%s: %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected)
  })
})
