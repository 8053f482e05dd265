import type { Cue } from './types.ts'

function parts(ms: number): [string, string, string, string] {
  if (!Number.isFinite(ms) || ms < 0) {
    throw new RangeError(`a subtitle time must be a finite number of at least 0, got ${ms}`)
  }
  const total = Math.round(ms)
  const hours = Math.floor(total / 3_600_000)
  const minutes = Math.floor(total / 60_000) % 60
  const seconds = Math.floor(total / 1000) % 60
  const millis = total % 1000
  return [
    String(hours).padStart(2, '0'),
    String(minutes).padStart(2, '0'),
    String(seconds).padStart(2, '0'),
    String(millis).padStart(3, '0'),
  ]
}

/**
 * An SRT timestamp, `HH:MM:SS,mmm` (e.g. 1000 ms -> `00:00:01,000`); hours grow past two
 * digits when needed. Rounds to the nearest millisecond.
 * @throws RangeError when `ms` is negative or not finite
 * @see issue 13 item 2
 */
export function formatSrtTimestamp(ms: number): string {
  const [h, m, s, millis] = parts(ms)
  return `${h}:${m}:${s},${millis}`
}

/**
 * A WebVTT timestamp, `HH:MM:SS.mmm` (e.g. 1000 ms -> `00:00:01.000`).
 * @throws RangeError when `ms` is negative or not finite
 * @see issue 13 item 2
 */
export function formatVttTimestamp(ms: number): string {
  const [h, m, s, millis] = parts(ms)
  return `${h}:${m}:${s}.${millis}`
}

/**
 * SubRip text: numbered blocks from 1, `start --> end`, the cue's lines, a blank line between
 * blocks, `\n` line ends, ending with one `\n`; `''` for no cues. Cue text is written as it is.
 * @throws RangeError when a time is negative or not finite
 * @see issue 13 item 2
 */
export function toSrt(cues: readonly Cue[]): string {
  return cues
    .map(
      (cue, i) =>
        `${i + 1}\n${formatSrtTimestamp(cue.startMs)} --> ${formatSrtTimestamp(cue.endMs)}\n${cue.lines.join('\n')}\n`,
    )
    .join('\n')
}

/** Cue text is parsed for tags and entities in WebVTT: these three must be written escaped. */
function escapeVtt(line: string): string {
  return line.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')
}

/**
 * WebVTT: the `WEBVTT` header, a blank line, then blocks of `start --> end` and the cue's
 * lines (`&`, `<` and `>` escaped) separated by blank lines, `\n` line ends.
 * @throws RangeError when a time is negative or not finite
 * @see issue 13 item 2
 */
export function toVtt(cues: readonly Cue[]): string {
  const blocks = cues.map(
    (cue) =>
      `${formatVttTimestamp(cue.startMs)} --> ${formatVttTimestamp(cue.endMs)}\n${cue.lines.map(escapeVtt).join('\n')}\n`,
  )
  return ['WEBVTT\n', ...blocks].join('\n')
}
