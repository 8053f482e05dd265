import { splitWords } from '@reelgraph/shared'
import { encodeWav } from './pcm.ts'
import type { Narration, SpeechRequest } from './types.ts'

/**
 * The longest narration one request may carry, in characters (code points): OpenAI's limit for
 * one speech request, the smallest of the providers'. A scene's narration is far shorter.
 * @see issue 13 item 1
 */
export const SPEECH_TEXT_MAX_CHARS = 4_096

/**
 * The request's words (`splitWords`), `[]` for blank text.
 * @throws RangeError when the text is longer than `SPEECH_TEXT_MAX_CHARS`
 */
export function requestWords(request: SpeechRequest): string[] {
  let chars = 0
  for (const _ of request.text) chars++
  if (chars > SPEECH_TEXT_MAX_CHARS) {
    throw new RangeError(
      `A narration can be at most ${SPEECH_TEXT_MAX_CHARS} characters; this one has ${chars}.`,
    )
  }
  return splitWords(request.text)
}

/** Narration of nothing: a WAV with no samples, no words. */
export function emptyNarration(sampleRate: number, timing: Narration['timing']): Narration {
  return {
    wav: encodeWav({ samples: new Int16Array(0), sampleRate }),
    sampleRate,
    durationMs: 0,
    words: [],
    timing,
  }
}

/** The caller's signal, also aborted after `timeoutMs`. */
export function withTimeout(signal: AbortSignal, timeoutMs: number): AbortSignal {
  return AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)])
}
