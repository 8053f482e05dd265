import { randomBytes, randomUUID } from 'node:crypto'
import { WEBHOOK_SECRET_PREFIX } from '@reelgraph/shared'
import { Webhook } from 'standardwebhooks'

/**
 * Standard Webhooks signing (issue 41 item 3, decision 028), through the specification's own
 * reference library (`standardwebhooks`): the secret `whsec_` + base64 of the HMAC key, the
 * message id, and the three headers of every delivery.
 */

/** Random bytes of an HMAC key: 32 (the specification asks for 24 to 64). */
const SECRET_BYTES = 32

/** A new signing secret: `whsec_` + base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`
}

/** A new `webhook-id`: `msg_` and a UUID's 32 hex digits (unique per event and endpoint). */
export function newMessageId(): string {
  return `msg_${randomUUID().replaceAll('-', '')}`
}

/** The headers that sign one attempt. */
export interface SignatureHeaders {
  'webhook-id': string
  /** Unix seconds of the attempt. */
  'webhook-timestamp': string
  /** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. */
  'webhook-signature': string
}

/**
 * Signs `body` (the exact text sent) for one attempt at `at`: the same message id on every
 * attempt, a new timestamp and signature each time.
 * @see issue 41 item 3
 */
export function signatureHeaders(input: {
  secret: string
  messageId: string
  at: Date
  body: string
}): SignatureHeaders {
  const { secret, messageId, at, body } = input
  const signature = new Webhook(secret).sign(messageId, at, body)
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  }
}
