import { cuesFromWords } from '@reelgraph/shared'
import { toVtt } from '@reelgraph/shared'
import type { Cue, WordTiming } from '@reelgraph/shared'
import type { Narration, SpeechProvider, SpeechProviderInfo } from './types.ts'

/** A scene's narration, ready to play in the browser with its captions. */
export interface NarrationPreview {
  /** PCM WAV, mono, 16-bit (see `Narration.wav`); serve as `contentType`. */
  wav: Buffer
  contentType: 'audio/wav'
  sampleRate: number
  durationMs: number
  words: WordTiming[]
  timing: Narration['timing']
  /** The scene's subtitles, within `[0, durationMs]`. */
  cues: Cue[]
  /** The same as WebVTT, for a `<track>` beside the `<audio>`. */
  vtt: string
  /** Who spoke, to show beside the play button. */
  provider: SpeechProviderInfo
}

/**
 * Speaks one scene's narration for the canvas's scene play button (called by the api): the
 * WAV, its word timings and its captions. Blank narration gives an empty WAV and no cues.
 * @param scene `narration` as written on the scene; `voice` one of the provider's voice ids,
 *   the provider's default when omitted
 * @throws SpeechError and RangeError as `SpeechProvider.synthesize` does
 * @see issue 13 item 1 (narration) and item 2 (subtitles)
 */
export async function previewNarration(
  provider: SpeechProvider,
  scene: { narration: string; voice?: string | undefined },
  signal: AbortSignal,
): Promise<NarrationPreview> {
  const narration = await provider.synthesize({ text: scene.narration, voice: scene.voice }, signal)
  const cues = cuesFromWords(narration.words, { endLimitMs: Math.floor(narration.durationMs) })
  return {
    wav: narration.wav,
    contentType: 'audio/wav',
    sampleRate: narration.sampleRate,
    durationMs: narration.durationMs,
    words: narration.words,
    timing: narration.timing,
    cues,
    vtt: toVtt(cues),
    provider: provider.info,
  }
}
