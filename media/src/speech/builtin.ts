import { createRequire } from 'node:module'
import type { WordTiming } from '@reelgraph/shared'
import { toSpeechError } from './errors.ts'
import { espeakSynthesize, espeakVoices } from './espeak.ts'
import type { EspeakMark } from './espeak-protocol.ts'
import { durationMs, encodeWav } from './pcm.ts'
import { emptyNarration, requestWords, withTimeout } from './text.ts'
import type { Narration, SpeechProvider, SpeechRequest } from './types.ts'

/** eSpeak NG's American English voice. */
export const BUILTIN_DEFAULT_VOICE = 'gmw/en-US'
/** Narration pace: about 160 words a minute, a little calmer than eSpeak NG's 175. */
export const BUILTIN_WORDS_PER_MINUTE = 160
/** eSpeak NG's output rate, samples per second. */
export const BUILTIN_SAMPLE_RATE = 22_050
/** The eSpeak NG build's version: another build may speak the same text differently. */
const ESPEAK_PACKAGE_VERSION = (
  createRequire(import.meta.url)('@echogarden/espeak-ng-emscripten/package.json') as {
    version: string
  }
).version

const LABEL = 'The built-in voice'

/** Settings of the builtin provider. */
export interface BuiltinSpeechSettings {
  /** Longest synthesis, milliseconds. */
  timeoutMs: number
}

/**
 * The `builtin` speech provider: eSpeak NG compiled to WebAssembly
 * (`@echogarden/espeak-ng-emscripten`, GPL-3.0, docs/decisions/004), offline, no key, voices
 * inside the package; it runs in a worker thread. Audio is 22050 Hz mono; word timings come
 * from eSpeak NG's word events, each word ending at the next word's start or at the pause
 * after it.
 * @see issue 13 item 1
 */
export function createBuiltinSpeechProvider(settings: BuiltinSpeechSettings): SpeechProvider {
  return {
    info: { id: 'builtin', name: 'eSpeak NG (built in, offline)', offline: true },
    defaultVoice: BUILTIN_DEFAULT_VOICE,
    identity: `builtin espeak-ng ${ESPEAK_PACKAGE_VERSION} ${BUILTIN_WORDS_PER_MINUTE} wpm`,

    async listVoices(signal) {
      const limited = withTimeout(signal, settings.timeoutMs)
      try {
        return await espeakVoices(limited)
      } catch (error) {
        throw toSpeechError(error, LABEL, limited)
      }
    },

    async synthesize(request: SpeechRequest, signal: AbortSignal): Promise<Narration> {
      const words = requestWords(request)
      if (words.length === 0) return emptyNarration(BUILTIN_SAMPLE_RATE, 'provider')
      const { text, spans } = espeakInput(words)
      const limited = withTimeout(signal, settings.timeoutMs)
      let spoken: Awaited<ReturnType<typeof espeakSynthesize>>
      try {
        spoken = await espeakSynthesize(
          {
            text,
            voice: request.voice ?? BUILTIN_DEFAULT_VOICE,
            wordsPerMinute: BUILTIN_WORDS_PER_MINUTE,
          },
          limited,
        )
      } catch (error) {
        throw toSpeechError(error, LABEL, limited)
      }
      const total = durationMs(spoken.pcm)
      return {
        wav: encodeWav(spoken.pcm),
        sampleRate: spoken.pcm.sampleRate,
        durationMs: total,
        words: wordTimingsFromMarks(words, spans, spoken.marks, total),
        timing: 'provider',
      }
    },
  }
}

/** A word's place in the synthesized text, in code points, `[start, end)`. */
export interface Span {
  start: number
  end: number
}

/**
 * The text eSpeak NG reads (its SSML mode is always on: `&`, `<`, `>` are escaped, and `[[`,
 * which would start raw phonemes, is broken up), words joined by single spaces, and where each
 * word sits in it.
 */
export function espeakInput(words: readonly string[]): { text: string; spans: Span[] } {
  const spans: Span[] = []
  let text = ''
  let at = 0
  for (const word of words) {
    const escaped = word
      .replaceAll('&', '&amp;')
      .replaceAll('<', '&lt;')
      .replaceAll('>', '&gt;')
      .replaceAll('[[', '[ [')
    if (text !== '') {
      text += ' '
      at++
    }
    const length = [...escaped].length
    spans.push({ start: at, end: at + length })
    text += escaped
    at += length
  }
  return { text, spans }
}

/** The word at `position`, or the first after it when it falls between words; -1 past the end. */
function wordAt(spans: readonly Span[], position: number): number {
  let low = 0
  let high = spans.length
  while (low < high) {
    const middle = (low + high) >> 1
    if (spans[middle]!.end <= position) low = middle + 1
    else high = middle
  }
  return low < spans.length ? low : -1
}

/**
 * Word timings from eSpeak NG's marks: a word starts at its first word event (a number such as
 * "42" may have several) and ends at the next word's start, or at the pause or clause end
 * after it, whichever comes first. Words eSpeak NG did not report (bare symbols) share the time
 * between their neighbours evenly. Times are clamped to `[0, totalMs]` and never go backwards.
 */
export function wordTimingsFromMarks(
  words: readonly string[],
  spans: readonly Span[],
  marks: readonly EspeakMark[],
  totalMs: number,
): WordTiming[] {
  const starts: number[] = words.map(() => Number.NaN)
  const ends: number[] = words.map(() => Number.NaN)
  let current = -1
  let lastMs = 0
  const close = (ms: number) => {
    if (current >= 0 && Number.isNaN(ends[current]!)) ends[current] = ms
  }
  for (const mark of marks) {
    const ms = Math.min(Math.max(mark.ms, lastMs), totalMs)
    lastMs = ms
    if (mark.type !== 'word') {
      close(ms)
      continue
    }
    const index = wordAt(spans, mark.position)
    if (index < 0 || index < current) continue
    if (index === current) {
      ends[index] = Number.NaN // the same word goes on ("forty" "two")
      continue
    }
    close(ms)
    starts[index] = ms
    current = index
  }
  close(totalMs)

  // Words without events take an even share of the time between their neighbours.
  for (let i = 0; i < words.length;) {
    if (!Number.isNaN(starts[i]!)) {
      i++
      continue
    }
    let j = i
    while (j < words.length && Number.isNaN(starts[j]!)) j++
    const from = i > 0 ? ends[i - 1]! : 0
    const to = j < words.length ? starts[j]! : totalMs
    const step = Math.max(to - from, 0) / (j - i)
    for (let k = i; k < j; k++) {
      starts[k] = from + (k - i) * step
      ends[k] = from + (k - i + 1) * step
    }
    i = j
  }

  let previousEnd = 0
  return words.map((text, i) => {
    const startMs = Math.min(Math.max(starts[i]!, previousEnd), totalMs)
    const end = Number.isNaN(ends[i]!) ? startMs : ends[i]!
    const endMs = Math.min(Math.max(end, startMs), totalMs)
    previousEnd = endMs
    return { text, startMs, endMs }
  })
}
