import { absolutePath } from '../render/absolute-path.ts'
import { CLIP_INPUT_FORMAT, CLIP_INPUT_PROTOCOLS } from '../render/config.ts'
import { RenderError } from '../render/errors.ts'
import { readHead } from './read-head.ts'

/**
 * The one way ffmpeg opens a file that came from outside (issue 40 item 4, ADR 025): a
 * provider's clip or picture, an upload, an asset made from one. ffmpeg's demuxers can follow
 * references (HLS and concat lists name other files, SDP names addresses), so such a file is
 * first refused by its bytes when it is a playlist or list, then opened from the `file`
 * protocol only, by only the demuxers its kind needs. A test (`external-input.test.ts`)
 * fails when an `'-i'` appears elsewhere outside a short list of files that read only
 * Reelgraph's own intermediate files.
 */

/**
 * What a file from outside is expected to be:
 * - `clip`: a provider's video, as it arrived (MP4/MOV, or WebM/Matroska from a ComfyUI
 *   workflow);
 * - `stored-clip`: a clip asset as the renderer reads it (always an MP4: the clip job
 *   re-encodes anything else before storing it);
 * - `image`: a picture (PNG, JPEG, WebP);
 * - `audio-upload`: a person's music file as sent (the audio containers people have);
 * - `stored-music`: a music asset (FLAC, or a WAV from before issue 40) or a builtin loop.
 */
export type ExternalMediaKind = 'clip' | 'stored-clip' | 'image' | 'audio-upload' | 'stored-music'

/** ffmpeg's name of the ISO/QuickTime demuxer (MP4, MOV, M4A...). */
const MOV_DEMUXER = 'mov,mp4,m4a,3gp,3g2,mj2'

/**
 * The demuxers each kind may be read with, as ffmpeg names them (`ffmpeg -demuxers`): a
 * single one is forced (`-f`), several are a `-format_whitelist`. None of them opens another
 * file or address (the MOV demuxer's data references stay off, ffmpeg's default). Not AVI or
 * FLV for clips: no provider Reelgraph speaks to sends them (fal, Replicate and Gemini send
 * MP4, ComfyUI's video nodes MP4 or WebM), and every demuxer left out is code an attacker's
 * file cannot reach. Images are read by their content-probing demuxers (`*_pipe`), never
 * `image2`, which expands `%d` patterns in a name into a sequence of files.
 */
export const EXTERNAL_DEMUXERS = {
  clip: [MOV_DEMUXER, 'matroska,webm'],
  'stored-clip': [MOV_DEMUXER],
  image: ['png_pipe', 'jpeg_pipe', 'webp_pipe'],
  'audio-upload': [
    'wav',
    'mp3',
    'ogg',
    'flac',
    'aac',
    MOV_DEMUXER,
    'matroska,webm',
    'aiff',
    'w64',
    'caf',
  ],
  'stored-music': ['flac', 'wav'],
} as const satisfies Record<ExternalMediaKind, readonly string[]>

/** What each kind is, in refusals ("…, not a video"). */
const EXPECTED: Record<ExternalMediaKind, string> = {
  clip: 'a video',
  'stored-clip': 'an MP4 video',
  image: 'a picture',
  'audio-upload': 'audio',
  'stored-music': 'audio',
}

/** How much of a file's start is read to tell a list from media, in bytes. */
export const EXTERNAL_HEAD_BYTES = 4_096

/**
 * Text formats ffmpeg (or a player) reads as references to other files or addresses, by how
 * they begin (after a byte-order mark and blank space), with their names for refusals.
 */
const REFERENCE_FORMATS: { name: string; test: RegExp }[] = [
  { name: 'an HLS or M3U playlist', test: /^#EXT(?:M3U|INF|-X-)/i },
  { name: 'an ffconcat list', test: /^ffconcat\b/i },
  { name: 'a concat list', test: /^(?:#[^\n]*\n\s*)*file\s/i },
  { name: 'an SDP session description', test: /^v=\d/ },
  { name: 'a PLS playlist', test: /^\[playlist\]/i },
  { name: 'an XML manifest (DASH, SMIL, IMF)', test: /^<(?:\?xml|MPD|smil)\b/i },
  { name: 'an ffmetadata file', test: /^;FFMETADATA/ },
]

/** True when `head` holds no byte that text never has (NUL and the other C0 controls). */
function looksLikeText(head: Uint8Array): boolean {
  for (const byte of head) {
    if (byte === 0x7f) return false
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d) {
      return false
    }
  }
  return true
}

/**
 * Why the first bytes of a file (`head`) are no media of `kind`, or null when they may be
 * (pure): a playlist or list that names other files or addresses, any other text (no media
 * container is text), or nothing at all.
 * @see issue 40 item 4
 */
export function referenceFileProblem(
  head: Uint8Array,
  kind: ExternalMediaKind,
  what: string,
): string | null {
  const expected = EXPECTED[kind]
  if (head.byteLength === 0) return `${what} is empty, not ${expected}.`
  if (!looksLikeText(head)) return null
  const text = new TextDecoder('utf-8')
    .decode(head)
    .replace(/^\uFEFF/, '')
    .trimStart()
  const format = REFERENCE_FORMATS.find((f) => f.test.test(text))
  if (format) {
    return `${what} is ${format.name}, not ${expected}: a file that names other files or addresses is never opened.`
  }
  return `${what} is text, not ${expected}.`
}

/**
 * Refuses the file at `path` when its first `EXTERNAL_HEAD_BYTES` are a playlist, a list or
 * other text (see {@link referenceFileProblem}), before ffmpeg reads any of it.
 * @throws RenderError `invalid-input` with the reason in words; the file system's error when
 *   it cannot be read.
 * @see issue 40 item 4
 */
export async function refuseReferenceFile(
  path: string,
  kind: ExternalMediaKind,
  what: string,
): Promise<void> {
  const head = await readHead(absolutePath(path, what), EXTERNAL_HEAD_BYTES)
  const problem = referenceFileProblem(head, kind, what)
  if (problem) throw new RenderError('invalid-input', problem)
}

/**
 * ffmpeg's input arguments for a file of `kind` whose bytes were already checked by
 * {@link refuseReferenceFile} (pure, for filter-graph builders): `-protocol_whitelist file`,
 * the kind's demuxer forced (`-f`) or its demuxers whitelisted (`-format_whitelist`), then
 * `-i path`. Put other input options (`-ss`, `-stream_loop`) before these.
 * @throws RenderError `invalid-input` for a relative path.
 * @see issue 40 item 4
 */
export function pinnedInputArgs(path: string, kind: ExternalMediaKind, what: string): string[] {
  const demuxers: readonly string[] = EXTERNAL_DEMUXERS[kind]
  const format =
    demuxers.length === 1
      ? ['-f', demuxers[0] === MOV_DEMUXER ? CLIP_INPUT_FORMAT : demuxers[0]!]
      : ['-format_whitelist', demuxers.join(',')]
  return ['-protocol_whitelist', CLIP_INPUT_PROTOCOLS, ...format, '-i', absolutePath(path, what)]
}

/**
 * The way every ffmpeg run opens a file from outside: refuses it by its bytes when it is a
 * playlist or list ({@link refuseReferenceFile}), then answers {@link pinnedInputArgs}.
 * @param what names the file in refusals ("The video service's clip")
 * @throws RenderError `invalid-input` for a playlist, list, text, empty file or relative
 *   path; the file system's error when it cannot be read.
 * @see issue 40 item 4
 */
export async function externalInputArgs(
  path: string,
  kind: ExternalMediaKind,
  what: string,
): Promise<string[]> {
  await refuseReferenceFile(path, kind, what)
  return pinnedInputArgs(path, kind, what)
}
