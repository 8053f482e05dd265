import { createHash } from 'node:crypto'
import type { SpeechProvider, SpeechRequest } from './types.ts'

/**
 * The cache key of a narration (issue 21 item 4): SHA-256 (hex) of the provider's identity
 * (id, model, rate, server, version), the voice (the provider's default when none is named)
 * and the exact text. Two requests with one key are spoken alike, so a narration made once
 * serves every render and preview that asks for it again, whichever provider it comes from.
 * @see issue 21 item 4
 */
export function narrationKey(
  provider: Pick<SpeechProvider, 'identity' | 'defaultVoice'>,
  request: SpeechRequest,
): string {
  const voice = request.voice || provider.defaultVoice
  return createHash('sha256')
    .update(JSON.stringify([provider.identity, voice, request.text]))
    .digest('hex')
}
