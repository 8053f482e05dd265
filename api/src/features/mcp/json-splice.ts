import { randomUUID } from 'node:crypto'
import { type GzipPiece, gzipPieces } from '../../lib/gzip-pieces.ts'

/**
 * Large JSON text in a tool's answer, written into the HTTP answer as bytes prepared once
 * (issue 41 item 2, decision 030). The SDK answers a tool's text inside a JSON-RPC message it
 * prints with `JSON.stringify`, which escapes the text anew on every call; for `get_project`'s
 * 200 KB graph that escaping and the UTF-8 encoding of the result were half of a call's time.
 * A tool answers a {@link SplicedJson} instead: the SDK carries a short marker in its place,
 * and {@link JsonSplices.apply} puts the bytes in where the marker is, once the SDK has
 * answered. The JSON-RPC answer is byte for byte what the SDK would have written.
 */

/** JSON text a tool answers: `head` (short, escaped per call) then a long tail prepared once. */
export class SplicedJson {
  readonly head: string
  /**
   * The rest of the text as the inside of a JSON string literal (escaped as `JSON.stringify`
   * escapes it, without the quotes), UTF-8: what the caller keeps for text it answers again
   * and again.
   */
  readonly tailLiteral: Uint8Array
  constructor(head: string, tailLiteral: Uint8Array) {
    this.head = head
    this.tailLiteral = tailLiteral
  }
}

/**
 * `text` as the inside of a JSON string literal, UTF-8 (for {@link SplicedJson.tailLiteral}).
 */
export function jsonLiteralBytes(text: string): Uint8Array {
  return Buffer.from(JSON.stringify(text).slice(1, -1), 'utf8')
}

/** The splices of one HTTP request's answer. */
export class JsonSplices {
  readonly #pending = new Map<string, SplicedJson>()

  /** A marker to answer in `json`'s place (ASCII letters, digits and dashes: printed as is). */
  add(json: SplicedJson): string {
    const marker = `reelgraph-spliced-json-${randomUUID()}`
    this.#pending.set(marker, json)
    return marker
  }

  /**
   * `response` with each marker's JSON string (`"marker"`) replaced by the text it stands for,
   * as a JSON string; `response` itself when there is none. With `gzip` (the client's
   * `Accept-Encoding` takes it), the answer is gzip-encoded, each tail compressed once and kept
   * with it ({@link gzipPieces}): a 250 KB graph goes out as about a tenth of its size, and the
   * server writes that much less per answer.
   */
  async apply(response: Response, { gzip = false }: { gzip?: boolean } = {}): Promise<Response> {
    if (this.#pending.size === 0) return response
    const body = await response.text()
    const pieces: GzipPiece[] = []
    let from = 0
    let text = ''
    for (const [marker, json] of this.#pending) {
      const at = body.indexOf(`"${marker}"`, from)
      if (at < 0) continue
      text += `${body.slice(from, at)}${JSON.stringify(json.head).slice(0, -1)}`
      pieces.push({ bytes: Buffer.from(text) }, { bytes: json.tailLiteral, keep: true })
      text = '"'
      from = at + marker.length + 2
    }
    pieces.push({ bytes: Buffer.from(text + body.slice(from)) })
    const headers = new Headers(response.headers)
    headers.delete('content-length')
    headers.append('vary', 'accept-encoding')
    if (!gzip) {
      return new Response(Buffer.concat(pieces.map((piece) => piece.bytes)), {
        status: response.status,
        headers,
      })
    }
    headers.set('content-encoding', 'gzip')
    return new Response(gzipPieces(pieces), { status: response.status, headers })
  }
}
