import { lookup } from 'node:dns/promises'
import { AppError } from '../../lib/app-error.ts'
import {
  allowedByList,
  type AllowList,
  isIpLiteral,
  refusedAddress,
  refusedRange,
} from '../../lib/outbound/address-rules.ts'
import { DEFAULT_OUTBOUND, judgeUrl, outboundPolicy } from '../../lib/outbound/guarded-fetch.ts'
import { OutboundRefusedError } from '../../lib/outbound/outbound-errors.ts'

/**
 * A webhook URL judged when it is given (issue 41 item 3), by the outbound guard's rules
 * (decision 024): `https:` to a public address, unless the operator's `OUTBOUND_ALLOW_HOSTS`
 * names the host (or the range of its address). A name is resolved here and refused when any
 * of its addresses is not public; every delivery is judged again where its socket connects
 * (`guardedFetch`), so a name that changes its answer later is refused then.
 */

/** What a refused URL is told: the field and the words. */
function refused(message: string): AppError {
  return new AppError('VALIDATION_FAILED', message, { fields: { url: message } })
}

const ALLOW_HINT = 'An operator can allow a host of their own network with OUTBOUND_ALLOW_HOSTS.'

/** "127.0.0.1 is not a public address (loopback)", with ipaddr.js's range name. */
function addressWords(address: string, range: string): string {
  return `${address} is not a public address (${range})`
}

/**
 * Checks `raw` as a webhook URL under `allow` and answers it parsed.
 * @throws AppError 400 VALIDATION_FAILED (field `url`) in words: not http(s), a user name or
 *   password in it, `http:` or an address that is not public (and not allowed), or a host
 *   name that does not resolve.
 * @see issue 41 item 3
 */
export async function checkWebhookUrl(raw: string, allow: AllowList): Promise<URL> {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw refused(
      'The URL must be a full web address, such as https://example.com/hooks/reelgraph.',
    )
  }
  // The guard's own judgement (decision 024), worded here; a user name comes second, after the scheme.
  let refusal: OutboundRefusedError | undefined
  try {
    judgeUrl(outboundPolicy([], { ...DEFAULT_OUTBOUND, allow }), url)
  } catch (error) {
    if (!(error instanceof OutboundRefusedError)) throw error
    refusal = error
  }
  if (refusal?.reason === 'scheme' && url.protocol !== 'http:') {
    throw refused(`Webhook URLs must start with https://, not ${url.protocol}.`)
  }
  if (url.username || url.password) {
    throw refused(
      'A webhook URL cannot carry a user name or password: each delivery is signed instead (check it with the signing secret).',
    )
  }
  if (refusal?.reason === 'address') {
    const range = refusedRange(refusal.shown) ?? ''
    throw refused(
      `Reelgraph does not send webhooks to private or local addresses (${addressWords(refusal.shown, range)}): use a public https address. ${ALLOW_HINT}`,
    )
  }
  if (refusal) {
    throw refused(
      `Webhook URLs must start with https:// (http:// only for hosts allowed by the operator's OUTBOUND_ALLOW_HOSTS).`,
    )
  }
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (allowedByList(allow, url) || isIpLiteral(host)) return url
  let addresses: { address: string }[]
  try {
    addresses = await lookup(host, { all: true })
  } catch {
    throw refused(`Reelgraph could not find the address of ${host}: check the host name.`)
  }
  for (const { address } of addresses) {
    const range = refusedAddress(allow, address)
    if (range) {
      throw refused(
        `${host} leads to an address Reelgraph does not send webhooks to (${addressWords(address, range)}): use a public https address. ${ALLOW_HINT}`,
      )
    }
  }
  return url
}
