import { constants, crc32, deflateRawSync } from 'node:zlib'

/**
 * A gzip answer (RFC 1952, one member) built from pieces deflated apart, so that a long piece
 * sent again and again (a project's graph, decision 030) is compressed once and kept, and only
 * the short pieces around it are compressed per answer.
 *
 * Each piece is raw DEFLATE (RFC 1951) ending with a sync flush: its blocks end on a byte
 * boundary and none is final, so pieces joined one after the other are one valid DEFLATE
 * stream (a piece never refers back before its own start, having been compressed alone). The
 * member ends with an empty final block, then the CRC-32 and the length of all the bytes.
 */

/** The gzip member header: magic, DEFLATE, no flags, no time, no extra flags, OS unknown. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff])
/** An empty final DEFLATE block with fixed Huffman codes: BFINAL 1, BTYPE 01, end of block. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00])

/** `bytes` as raw DEFLATE blocks that end on a byte boundary with no final block. */
export function deflatePiece(bytes: Uint8Array): Buffer {
  return deflateRawSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH })
}

const kept = new WeakMap<Uint8Array, Buffer>()

/**
 * {@link deflatePiece} of `bytes`, computed once per `bytes` object and kept as long as that
 * object lives: for a piece the caller itself keeps and answers again (the same array).
 */
export function deflatePieceOnce(bytes: Uint8Array): Buffer {
  let deflated = kept.get(bytes)
  if (!deflated) {
    deflated = deflatePiece(bytes)
    kept.set(bytes, deflated)
  }
  return deflated
}

/** A piece of a gzip answer: its bytes, and whether to keep its compressed form. */
export interface GzipPiece {
  bytes: Uint8Array
  /** Deflate with {@link deflatePieceOnce} (a piece answered again as this same array). */
  keep?: boolean
}

/**
 * One gzip member whose content is `pieces` in order (what `gunzip` gives back is their
 * concatenation). Costs a CRC-32 pass over every byte, and DEFLATE of the pieces not kept.
 */
export function gzipPieces(pieces: readonly GzipPiece[]): Buffer {
  const parts: Uint8Array[] = [GZIP_HEADER]
  let crc = 0
  let length = 0
  for (const piece of pieces) {
    parts.push(piece.keep ? deflatePieceOnce(piece.bytes) : deflatePiece(piece.bytes))
    crc = crc32(piece.bytes, crc)
    length += piece.bytes.byteLength
  }
  const trailer = Buffer.alloc(8)
  trailer.writeUInt32LE(crc >>> 0, 0)
  trailer.writeUInt32LE(length % 2 ** 32, 4)
  parts.push(FINAL_BLOCK, trailer)
  return Buffer.concat(parts)
}

/**
 * Whether an `Accept-Encoding` header value (RFC 9110 §12.5.3) takes gzip: `gzip`, `x-gzip`
 * or `*` listed with a weight above 0, and no `gzip;q=0`.
 */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false
  let star = false
  for (const entry of acceptEncoding.split(',')) {
    const [coding = '', ...params] = entry.trim().toLowerCase().split(';')
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    const weight = q === undefined ? 1 : Number(q.slice(2))
    const taken = Number.isFinite(weight) && weight > 0
    if (coding.trim() === 'gzip' || coding.trim() === 'x-gzip') return taken
    if (coding.trim() === '*') star = taken
  }
  return star
}
