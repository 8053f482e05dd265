/**
 * Messages between `espeak.ts` (the caller's thread) and `espeak-worker.ts` (a worker thread
 * that owns the eSpeak NG WebAssembly instance, so synthesis never blocks the event loop).
 */

/** A word start, a pause, or a clause end, from eSpeak NG's events. */
export interface EspeakMark {
  type: 'word' | 'pause' | 'end'
  /** 0-based code point index in the synthesized text (word marks). */
  position: number
  /** Milliseconds from the start of the audio. */
  ms: number
}

/** What the caller asks the worker: the voice list, or one synthesis. */
export type EspeakJob =
  | { type: 'voices'; id: number }
  | {
      type: 'synthesize'
      id: number
      /** SSML-escaped text. */
      text: string
      voice: string
      wordsPerMinute: number
      /** One Int32: set to 1 by the caller to stop the synthesis at its next chunk. */
      cancel: SharedArrayBuffer
    }

/** The worker's answer to the job with the same `id`; samples are transferred, not copied. */
export type EspeakReply =
  | { id: number; type: 'voices'; voices: { id: string; name: string; language?: string }[] }
  | { id: number; type: 'audio'; samples: Int16Array; sampleRate: number; marks: EspeakMark[] }
  | { id: number; type: 'cancelled' }
  | { id: number; type: 'unknown-voice' }
  | { id: number; type: 'failed'; message: string }
