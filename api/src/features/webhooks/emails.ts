import type { OutgoingEmail } from '../../services/mailer.ts'

/**
 * The email telling an endpoint's owner it was disabled (issue 41 item 3): subject "Your
 * Reelgraph webhook was turned off", the URL, how many deliveries failed in a row and the last
 * reason, and how to turn it back on.
 */
export function webhookDisabledEmail(input: {
  to: string
  name: string
  url: string
  failures: number
  lastError: string | null
  appUrl: string
}): OutgoingEmail {
  const { to, name, url, failures, lastError, appUrl } = input
  return {
    to,
    subject: 'Your Reelgraph webhook was turned off',
    text: [
      `Hi ${name},`,
      '',
      `Reelgraph stopped sending events to your webhook ${url}: its last ${failures} deliveries failed, each after all its retries.`,
      ...(lastError ? ['', `The last attempt: ${lastError}`] : []),
      '',
      'Once the receiver works again, redeliver one of its failed deliveries',
      `(POST ${appUrl}/api/webhooks/<id>/deliveries/<deliveryId>/redeliver): when it succeeds, the`,
      'webhook is turned back on. You can also delete it and create it again.',
      '',
      '— Reelgraph',
    ].join('\n'),
  }
}
