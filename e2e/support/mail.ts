import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'

/** What a test needs from an email: its decoded subject, its plain text and the links in it. */
export interface ReceivedEmail {
  subject: string
  text: string
  /** Every http(s) URL in the text, in order of appearance, without duplicates. */
  links: string[]
}

/** A parsed message: a {@link ReceivedEmail} plus the addresses in its To header. */
export interface ParsedEmail extends ReceivedEmail {
  to: string[]
}

/** How often the mail folder is read while waiting. */
const POLL_MS = 100
/** A file younger than this is read twice, to be sure the app has finished writing it. */
const SETTLE_MS = 200

/**
 * Waits for the newest email the app under test wrote to `<E2E_DATA_DIR>/mail/*.eml` (or
 * `<dataDir>/mail` of another app, `support/app-process.ts`) that is addressed to `to`
 * (case-insensitive, To header) and whose subject contains `subjectIncludes`.
 * @throws Error after `timeoutMs`, listing the messages that are there.
 */
export async function waitForEmail(
  to: string,
  subjectIncludes?: string,
  timeoutMs = 10_000,
  dataDir = process.env.E2E_DATA_DIR,
): Promise<ReceivedEmail> {
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set (e2e/playwright.config.ts sets it)')
  const dir = join(dataDir, 'mail')
  const address = to.toLowerCase()
  const lastSize = new Map<string, number>()
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const messages = await readMailDir(dir, lastSize)
    const found = messages.find(
      (m) =>
        m.settled &&
        m.email.to.includes(address) &&
        (subjectIncludes === undefined || m.email.subject.includes(subjectIncludes)),
    )
    if (found) {
      const { subject, text, links } = found.email
      return { subject, text, links }
    }
    if (Date.now() >= deadline) {
      const seen = messages.map((m) => `  to ${m.email.to.join(', ')}: "${m.email.subject}"`)
      throw new Error(
        `No email to ${to}${subjectIncludes === undefined ? '' : ` with a subject containing "${subjectIncludes}"`} within ${timeoutMs} ms. ${dir} has ${messages.length}:\n${seen.join('\n')}`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
}

/** Every .eml file in `dir`, newest first; `settled` is false while one may still be written. */
async function readMailDir(dir: string, lastSize: Map<string, number>) {
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return []
    throw error
  })
  const now = Date.now()
  const messages = await Promise.all(
    names
      .filter((name) => name.endsWith('.eml'))
      .map(async (name) => {
        const path = join(dir, name)
        const [info, raw] = await Promise.all([stat(path), readFile(path)])
        const settled = now - info.mtimeMs > SETTLE_MS || lastSize.get(path) === raw.length
        lastSize.set(path, raw.length)
        return { name, mtimeMs: info.mtimeMs, settled, email: parseEmail(raw) }
      }),
  )
  return messages.sort((a, b) => b.mtimeMs - a.mtimeMs || b.name.localeCompare(a.name))
}

/**
 * Parses an RFC 5322 message: To addresses (lower-case), the subject (RFC 2047 encoded words
 * decoded), the text/plain part (or the only part; HTML only when there is no plain text) with
 * its quoted-printable or base64 transfer encoding undone, and the links in it.
 */
export function parseEmail(raw: Buffer | string): ParsedEmail {
  // Work on a byte string (one char per byte) until a charset is known.
  const message = (typeof raw === 'string' ? Buffer.from(raw) : raw)
    .toString('latin1')
    .replaceAll('\r\n', '\n')
  const { headers, body } = splitEntity(message)
  const to = decodeHeader(headers.get('to') ?? '')
  const part = findPart(headers, body, 'text/plain') ?? findPart(headers, body, 'text/html')
  const isHtml = part !== undefined && contentType(part.headers).type === 'text/html'
  const decoded = part ? decodeBody(part.headers, part.body) : ''
  // From HTML, links are read from the markup (hrefs) before the tags are dropped.
  const source = isHtml ? decoded.replaceAll('&amp;', '&') : decoded
  const links = [...new Set((source.match(/https?:\/\/[^\s<>"'`)\]]+/g) ?? []).map(trimLink))]
  const text = isHtml ? source.replace(/<[^>]*>/g, '') : decoded
  return {
    to: (to.match(/[^\s<>,;"']+@[^\s<>,;"']+/g) ?? []).map((a) => a.toLowerCase()),
    subject: decodeHeader(headers.get('subject') ?? ''),
    text,
    links,
  }
}

interface Entity {
  /** Lower-case names; unfolded values, still raw bytes. */
  headers: Map<string, string>
  body: string
}

function splitEntity(entity: string): Entity {
  const end = entity.indexOf('\n\n')
  const head = end === -1 ? entity : entity.slice(0, end)
  const headers = new Map<string, string>()
  for (const line of head.replace(/\n(?=[ \t])/g, '').split('\n')) {
    const colon = line.indexOf(':')
    const name = line.slice(0, colon).trim().toLowerCase()
    if (colon > 0 && !headers.has(name)) headers.set(name, line.slice(colon + 1).trim())
  }
  return { headers, body: end === -1 ? '' : entity.slice(end + 2) }
}

function contentType(headers: Map<string, string>) {
  const value = headers.get('content-type') ?? 'text/plain'
  const params = new Map<string, string>()
  for (const [, name = '', quoted, bare] of value.matchAll(
    /;\s*([\w*-]+)\s*=\s*(?:"([^"]*)"|([^;\s]+))/g,
  )) {
    params.set(name.toLowerCase(), quoted ?? bare ?? '')
  }
  return { type: (value.split(';')[0] ?? '').trim().toLowerCase(), params }
}

/** The first part of type `wanted`, depth first through multiparts, skipping attachments. */
function findPart(headers: Map<string, string>, body: string, wanted: string): Entity | undefined {
  const { type, params } = contentType(headers)
  if (/^\s*attachment/i.test(headers.get('content-disposition') ?? '')) return undefined
  if (type === wanted) return { headers, body }
  const boundary = params.get('boundary')
  if (!type.startsWith('multipart/') || !boundary) return undefined
  const parts: string[][] = []
  for (const line of body.split('\n')) {
    const trimmed = line.trimEnd()
    if (trimmed === `--${boundary}--`) break
    if (trimmed === `--${boundary}`) parts.push([])
    else parts.at(-1)?.push(line)
  }
  for (const lines of parts) {
    const part = splitEntity(lines.join('\n'))
    const found = findPart(part.headers, part.body, wanted)
    if (found) return found
  }
  return undefined
}

function decodeBody(headers: Map<string, string>, body: string): string {
  const encoding = (headers.get('content-transfer-encoding') ?? '').trim().toLowerCase()
  const bytes =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64')
      : encoding === 'quoted-printable'
        ? qpBytes(body.replace(/=\n/g, ''))
        : Buffer.from(body, 'latin1')
  return decodeText(bytes, contentType(headers).params.get('charset')).replaceAll('\r\n', '\n')
}

/** `=XX` escapes to bytes; the rest of the byte string as it is. */
function qpBytes(s: string): Buffer {
  const bytes = s.replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  )
  return Buffer.from(bytes, 'latin1')
}

function decodeText(bytes: Buffer, charset = 'utf-8'): string {
  try {
    return new TextDecoder(charset).decode(bytes)
  } catch {
    return bytes.toString('utf8')
  }
}

const ENCODED_WORD = /=\?([^?]+)\?([bq])\?([^?]*)\?=/gi
/** Encoded words side by side; the white space between them is not part of the text. */
const ENCODED_RUN = /=\?[^?]+\?[bq]\?[^?]*\?=(?:\s+=\?[^?]+\?[bq]\?[^?]*\?=)*/gi

/** Raw UTF-8 allowed (RFC 6532); RFC 2047 words decoded, their bytes joined across words. */
function decodeHeader(raw: string): string {
  return Buffer.from(raw, 'latin1')
    .toString('utf8')
    .replace(ENCODED_RUN, (run) => {
      let charset = 'utf-8'
      const chunks: Buffer[] = []
      for (const [, cs = '', encoding = '', data = ''] of run.matchAll(ENCODED_WORD)) {
        charset = cs.split('*')[0] ?? cs
        chunks.push(
          encoding.toLowerCase() === 'b'
            ? Buffer.from(data, 'base64')
            : qpBytes(data.replaceAll('_', ' ')),
        )
      }
      return decodeText(Buffer.concat(chunks), charset)
    })
}

/** Sentence punctuation after a URL is not part of it. */
function trimLink(url: string): string {
  return url.replace(/[.,;:!?]+$/, '')
}
