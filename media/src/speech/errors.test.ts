import { describe, expect, it } from 'vitest'
import { isRetryableStatus, SpeechError, statusError, toSpeechError } from './errors.ts'

describe('speech errors', () => {
  it('retries busy and failing providers, not refusals', () => {
    for (const status of [408, 429, 500, 502, 503, 504])
      expect(isRetryableStatus(status)).toBe(true)
    for (const status of [400, 401, 403, 404, 422]) expect(isRetryableStatus(status)).toBe(false)
  })

  it('words status errors for a person, keeping the status', () => {
    expect(statusError('X', 403)).toMatchObject({ kind: 'upstream', status: 403, retryable: false })
    expect(statusError('X', 403).message).toMatch(/API key/)
    expect(statusError('X', 404).message).toMatch(/voice and model/)
    expect(statusError('X', 502).message).toBe('X failed (HTTP 502). Please try again.')
  })

  it('reads an abort or a timeout as a retryable timeout, anything else as a retryable upstream error', () => {
    const aborted = new AbortController()
    aborted.abort()
    expect(toSpeechError(new Error('x'), 'X', aborted.signal)).toMatchObject({
      kind: 'timeout',
      retryable: true,
    })
    expect(toSpeechError(new DOMException('t', 'TimeoutError'), 'X')).toMatchObject({
      kind: 'timeout',
    })
    expect(toSpeechError(new TypeError('fetch failed'), 'X')).toMatchObject({
      kind: 'upstream',
      retryable: true,
      status: undefined,
    })
    const own = new SpeechError('malformed', 'm', { retryable: false })
    expect(toSpeechError(own, 'X')).toBe(own)
    const range = new RangeError('too long')
    expect(toSpeechError(range, 'X')).toBe(range)
  })
})
