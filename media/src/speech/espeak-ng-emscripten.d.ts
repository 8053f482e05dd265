// Types for @echogarden/espeak-ng-emscripten, which ships none: the parts of its Emscripten
// glue (echogarden-project/espeak-ng, emscripten/espeakng_glue.cpp and post.js) we call.
declare module '@echogarden/espeak-ng-emscripten' {
  /** One espeak_EVENT, as the glue's `synthesize` hands it to the callback. */
  export interface EspeakEvent {
    type:
      | 'list_terminated'
      | 'word'
      | 'sentence'
      | 'mark'
      | 'play'
      | 'end'
      | 'msg_terminated'
      | 'phoneme'
      | 'samplerate'
    /** 1-based character position in the text (code points of the UTF-8 input). */
    text_position: number
    /** Characters of the word (word events). */
    word_length: number
    /** Milliseconds from the start of the audio. */
    audio_position: number
    /** Word and sentence numbers; phoneme names (empty for a pause); mark names. */
    id: string | number | undefined
  }

  export interface EspeakVoice {
    name: string
    identifier: string
    languages: { priority: number; name: string }[]
  }

  export interface ESpeakNGWorker {
    /** Samples per second of the audio (22050). */
    readonly samplerate: number
    /** 0 when the voice was found. */
    set_voice(name: string): number
    /** Words per minute, 80 to 450 (175 by default). */
    set_rate(wordsPerMinute: number): void
    list_voices(): EspeakVoice[]
    /**
     * Synthesizes synchronously (SSML and `[[phonemes]]` are read), calling back with each
     * chunk of 16-bit samples and its events; returning true aborts the synthesis.
     */
    synthesize(
      text: string,
      callback: (samples: Int16Array | null, events: EspeakEvent[]) => boolean,
    ): void
  }

  export interface EspeakModule {
    eSpeakNGWorker: new () => ESpeakNGWorker
  }

  const createEspeak: (options?: Record<string, unknown>) => Promise<EspeakModule>
  export default createEspeak
}
