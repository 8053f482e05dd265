import { createWriteStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import { BodyTooLargeError, OutboundTimeoutError } from './outbound-errors.ts'

/**
 * Bodies read only up to a limit, judged as the bytes arrive (issue 40 item 3): a declared
 * Content-Length over the limit is refused before a byte is read, and the count stops the
 * stream the moment it passes the limit, whatever the header said.
 */

/** The declared length, or undefined when absent or unreadable. */
function declaredLength(response: Response): number | undefined {
  const header = response.headers.get('content-length')
  if (header === null || !/^\d+$/.test(header.trim())) return undefined
  return Number(header)
}

/**
 * The error to throw for a body that broke off: the policy's time limit when `signal` (the
 * caller's) did not abort but the stream did, else `error` itself.
 */
function brokenBody(error: unknown, signal: AbortSignal | undefined): unknown {
  const name = (error as { name?: string } | null)?.name
  if (!signal?.aborted && (name === 'TimeoutError' || name === 'AbortError')) {
    return new OutboundTimeoutError(undefined, { cause: error })
  }
  return error
}

/**
 * The whole body as bytes, at most `maxBytes` of them (never `arrayBuffer()` on an unknown
 * size).
 * @throws BodyTooLargeError past `maxBytes` (the rest is not read); OutboundTimeoutError when
 *   the guard's time limit ended it; the stream's own error otherwise.
 * @see issue 40 item 3
 */
export async function readBodyBounded(
  response: Response,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const declared = declaredLength(response)
  if (declared !== undefined && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined)
    throw new BodyTooLargeError(maxBytes, declared)
  }
  if (!response.body) return new Uint8Array(0)
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let received = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      received += value.byteLength
      if (received > maxBytes) {
        await reader.cancel().catch(() => undefined)
        throw new BodyTooLargeError(maxBytes)
      }
      chunks.push(value)
    }
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw error
    throw brokenBody(error, signal)
  }
  const bytes = new Uint8Array(received)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.byteLength
  }
  return bytes
}

/**
 * The body as text, at most `maxBytes` of it: the rest is dropped unread (an error page for the
 * log). Never throws: a body that breaks off answers what arrived.
 */
export async function readTextPrefix(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let received = 0
  try {
    while (received < maxBytes) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value.subarray(0, maxBytes - received))
      received += value.byteLength
    }
  } catch {
    // what arrived is enough for a log line
  } finally {
    await reader.cancel().catch(() => undefined)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * Streams the body into a new file at `path` (absolute; refused when it exists), at most
 * `maxBytes`: past them the stream is stopped and the partial file deleted, as on any failure.
 * @returns the bytes written
 * @throws BodyTooLargeError past `maxBytes` (declared or counted); OutboundTimeoutError when
 *   the guard's time limit ended it; `signal`'s reason when it aborted; the stream's own error.
 * @see issue 40 item 3
 */
export async function writeBodyBounded(
  response: Response,
  path: string,
  maxBytes: number,
  signal: AbortSignal,
): Promise<number> {
  const declared = declaredLength(response)
  if (declared !== undefined && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined)
    throw new BodyTooLargeError(maxBytes, declared)
  }
  let received = 0
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.byteLength
      if (received > maxBytes) done(new BodyTooLargeError(maxBytes))
      else done(null, chunk)
    },
  })
  const source = response.body
    ? Readable.fromWeb(response.body as WebReadableStream<Uint8Array>)
    : Readable.from([])
  try {
    await pipeline(source, counter, createWriteStream(path, { flags: 'wx' }), { signal })
  } catch (error) {
    await rm(path, { force: true })
    if (error instanceof BodyTooLargeError) throw error
    throw brokenBody(error, signal)
  }
  return received
}
