/**
 * The sandbox's server-rendered pages (issue 5 item 4): the checkout and the billing
 * portal. Plain HTML forms that POST (the app's CSP allows no inline script), every text
 * escaped, clearly marked as no real payment.
 */

/** Escapes text for HTML content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

/** The marker every sandbox page carries. */
export const SANDBOX_MARKER = 'Sandbox - no real payment'

/** US cents as `$12.00`. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : ''
  return `${sign}$${(Math.abs(cents) / 100).toFixed(2)}`
}

function formatDate(date: Date): string {
  return date.toISOString().slice(0, 10)
}

// An inline <style> element is allowed by the CSP (style-src 'unsafe-inline').
const STYLE = `
body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#111;line-height:1.5}
.marker{background:#fff3cd;border:2px dashed #b58100;padding:.5rem 1rem;font-weight:700;border-radius:.5rem}
.card{border:1px solid #ccc;border-radius:.5rem;padding:1rem;margin:1rem 0}
.actions{display:flex;gap:.5rem;flex-wrap:wrap;margin-top:1rem}
button{font:inherit;padding:.5rem 1rem;border-radius:.375rem;border:1px solid #555;background:#fff;cursor:pointer}
button.primary{background:#1d4ed8;border-color:#1d4ed8;color:#fff}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}
dt{font-weight:600}
dd{margin:0}
`

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · ${escapeHtml(SANDBOX_MARKER)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="marker" role="note">${escapeHtml(SANDBOX_MARKER)}</p>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`
}

/** A form with one POST button. */
function postButton(action: string, label: string, primary = false): string {
  return `<form method="post" action="${escapeHtml(action)}"><button type="submit"${primary ? ' class="primary"' : ''}>${escapeHtml(label)}</button></form>`
}

/** The checkout of a plan or a credit package. */
export function checkoutPage(input: {
  mode: 'payment' | 'subscription'
  itemName: string
  priceCents: number
  credits: number | undefined
  status: 'open' | 'paid' | 'canceled'
  payAction: string
  cancelAction: string
}): string {
  const what =
    input.mode === 'subscription'
      ? `${input.itemName} plan, monthly subscription`
      : `${input.itemName} credit package`
  const price =
    input.mode === 'subscription'
      ? `${formatCents(input.priceCents)} per month`
      : formatCents(input.priceCents)
  const details = `<dl>
<dt>Item</dt><dd>${escapeHtml(what)}</dd>
<dt>Price</dt><dd>${escapeHtml(price)}</dd>
${input.credits !== undefined ? `<dt>Credits</dt><dd>${escapeHtml(`${input.credits}${input.mode === 'subscription' ? ' every month' : ''}`)}</dd>` : ''}
</dl>`
  const actions =
    input.status === 'open'
      ? `<p>This is the offline billing sandbox: no card is asked for and nothing is charged.</p>
<div class="actions">${postButton(input.payAction, 'Pay', true)}${postButton(input.cancelAction, 'Cancel')}</div>`
      : `<p>${escapeHtml(input.status === 'paid' ? 'This checkout is already paid.' : 'This checkout was canceled.')}</p>`
  return layout(
    'Checkout',
    `<section class="card" aria-label="Order">${details}</section>\n${actions}\n<p><a href="/subscription">Back to Reelgraph</a></p>`,
  )
}

/** A plan the portal can switch to. */
export interface PortalPlanChoice {
  id: string
  name: string
  priceCents: number
  action: string
  /** The plan the portal was opened for (the app's "change plan" target). */
  target: boolean
}

/** The billing portal: the subscription, plan switches, cancel, and the period control. */
export function portalPage(input: {
  subscription:
    | {
        planName: string
        priceCents: number
        status: string
        cancelAtPeriodEnd: boolean
        periodStart: Date
        periodEnd: Date
        cancelAction: string
        advanceAction: string
        choices: PortalPlanChoice[]
      }
    | undefined
  message?: string | undefined
}): string {
  const message = input.message
    ? `<p role="status" class="card">${escapeHtml(input.message)}</p>\n`
    : ''
  const back = '<p><a href="/subscription">Back to Reelgraph</a></p>'
  const sub = input.subscription
  if (!sub) {
    return layout('Billing portal', `${message}<p>You have no active subscription.</p>\n${back}`)
  }
  const state = sub.cancelAtPeriodEnd
    ? `Cancels at the end of the period (${formatDate(sub.periodEnd)})`
    : `Renews on ${formatDate(sub.periodEnd)}`
  const choices = sub.choices
    .map(
      (choice) =>
        `<li${choice.target ? ' aria-current="true"' : ''}>${escapeHtml(`${choice.name} · ${formatCents(choice.priceCents)} per month`)}${postButton(choice.action, `Switch to ${choice.name}`, choice.target)}</li>`,
    )
    .join('\n')
  return layout(
    'Billing portal',
    `${message}<section class="card" aria-label="Subscription">
<dl>
<dt>Plan</dt><dd>${escapeHtml(`${sub.planName} · ${formatCents(sub.priceCents)} per month`)}</dd>
<dt>Status</dt><dd>${escapeHtml(sub.status)}</dd>
<dt>Current period</dt><dd>${escapeHtml(`${formatDate(sub.periodStart)} to ${formatDate(sub.periodEnd)}`)}</dd>
<dt>Renewal</dt><dd>${escapeHtml(state)}</dd>
</dl>
</section>
${choices ? `<h2>Change plan</h2>\n<p>Plan changes take effect at once.</p>\n<ul>\n${choices}\n</ul>` : ''}
<h2>Cancel</h2>
${sub.cancelAtPeriodEnd ? '<p>This subscription is already set to cancel at the end of the period.</p>' : postButton(sub.cancelAction, 'Cancel at period end')}
<h2>Try a renewal</h2>
<p>Moves the subscription to its next billing period now, as if a month had passed${sub.cancelAtPeriodEnd ? ' (it ends, since it is set to cancel)' : ''}.</p>
${postButton(sub.advanceAction, 'Advance to next period')}
${back}`,
  )
}

/** A page for a checkout or portal that does not exist or is not the visitor's. */
export function notFoundPage(): string {
  return layout(
    'Not found',
    '<p>There is no such sandbox page for this account. Sign in with the account that started it.</p>\n<p><a href="/subscription">Back to Reelgraph</a></p>',
  )
}
