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

// The app's look (issue 14 item 7): web/src/index.css's design tokens (light theme), font
// stack and radius, with its header, card, button and badge shapes written out in plain
// CSS (these pages are server-rendered, without the app's Tailwind build). An inline
// <style> element is allowed by the CSP (style-src 'unsafe-inline').
const STYLE = `
:root{--radius:.625rem;--background:oklch(1 0 0);--foreground:oklch(0.145 0.01 285);--card:oklch(1 0 0);--primary:oklch(0.49 0.22 293);--primary-foreground:oklch(0.985 0 0);--muted:oklch(0.967 0.004 286);--muted-foreground:oklch(0.51 0.016 286);--accent:oklch(0.955 0.02 293);--warning:oklch(0.96 0.06 90);--warning-foreground:oklch(0.38 0.09 70);--border:oklch(0.92 0.004 286);--input:oklch(0.88 0.006 286);--ring:oklch(0.6 0.2 293)}
*,::before,::after{box-sizing:border-box;border:0 solid var(--border)}
html{height:100%}
body{margin:0;min-height:100%;background:var(--background);color:var(--foreground);font-family:ui-sans-serif,system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,'Noto Sans',sans-serif,'Apple Color Emoji','Segoe UI Emoji';line-height:1.5;-webkit-font-smoothing:antialiased}
.top{border-bottom-width:1px;background:var(--background)}
.top>div{max-width:96rem;margin:0 auto;height:3.5rem;display:flex;align-items:center;gap:.5rem;padding:0 1.5rem}
.brand{display:flex;align-items:center;gap:.5rem;font-weight:600;font-size:1.125rem;letter-spacing:-.025em;color:inherit;text-decoration:none}
.brand svg{width:2rem;height:2rem}
.badge{margin-left:auto;display:inline-flex;align-items:center;border-radius:9999px;padding:.125rem .5rem;font-size:.75rem;font-weight:500;background:var(--warning);color:var(--warning-foreground)}
main{max-width:36rem;margin:2.5rem auto;padding:0 1rem;display:flex;flex-direction:column;gap:1.5rem}
h1{margin:0;font-size:1.5rem;font-weight:600;letter-spacing:-.025em;line-height:1.25}
h2{margin:0 0 .5rem;font-size:1.125rem;font-weight:600}
p{margin:0}
.muted{color:var(--muted-foreground);font-size:.875rem}
.card{border-width:1px;border-radius:calc(var(--radius) + 4px);background:var(--card);padding:1.5rem;box-shadow:0 1px 3px 0 rgb(0 0 0/.1),0 1px 2px -1px rgb(0 0 0/.1);display:flex;flex-direction:column;gap:1rem}
.actions{display:flex;gap:.5rem;flex-wrap:wrap}
form{margin:0}
button{display:inline-flex;align-items:center;justify-content:center;height:2.25rem;padding:.5rem 1rem;border-radius:calc(var(--radius) - 2px);border:1px solid var(--input);background:var(--background);color:var(--foreground);font:inherit;font-size:.875rem;font-weight:500;cursor:pointer;box-shadow:0 1px 2px 0 rgb(0 0 0/.05)}
button:hover{background:var(--accent)}
button.primary{background:var(--primary);border-color:transparent;color:var(--primary-foreground)}
button.primary:hover{background:color-mix(in oklab,var(--primary) 90%,transparent)}
button:focus-visible,a:focus-visible{outline:none;box-shadow:0 0 0 3px color-mix(in oklab,var(--ring) 50%,transparent)}
a{color:var(--primary);font-weight:500;font-size:.875rem;text-underline-offset:4px}
ul{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:.5rem}
li{display:flex;align-items:center;justify-content:space-between;gap:1rem;font-size:.875rem}
dl{margin:0;display:grid;grid-template-columns:max-content 1fr;gap:.375rem 1rem;font-size:.875rem}
dt{color:var(--muted-foreground)}
dd{margin:0;font-weight:500}
`

/** The app's mark (web's `LogoMark`): three connected nodes. */
const LOGO = `<svg viewBox="0 0 32 32" aria-hidden="true"><rect width="32" height="32" rx="8" fill="oklch(0.49 0.22 293)"/><path d="M10 11 16 22 22 11" fill="none" stroke="white" stroke-width="2"/><circle cx="10" cy="11" r="3.5" fill="white"/><circle cx="22" cy="11" r="3.5" fill="white"/><circle cx="16" cy="22" r="3.5" fill="white"/></svg>`

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
<header class="top"><div><a class="brand" href="/">${LOGO}<span>Reelgraph</span></a><span class="badge" role="note">${escapeHtml(SANDBOX_MARKER)}</span></div></header>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`
}

const BACK_LINK = '<p><a href="/subscription">Back to Reelgraph</a></p>'

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
      ? `<p class="muted">This is the offline billing sandbox: no card is asked for and nothing is charged.</p>
<div class="actions">${postButton(input.payAction, 'Pay', true)}${postButton(input.cancelAction, 'Cancel')}</div>`
      : `<p>${escapeHtml(input.status === 'paid' ? 'This checkout is already paid.' : 'This checkout was canceled.')}</p>`
  return layout(
    'Checkout',
    `<section class="card" aria-label="Order">${details}\n${actions}</section>\n${BACK_LINK}`,
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
  const sub = input.subscription
  if (!sub) {
    // Reached after buying credits, or once a subscription ran out: say what there is.
    return layout(
      'Billing portal',
      `${message}<section class="card" aria-label="Subscription">
<h2>No subscription</h2>
<p>This account is on the Free plan, so there is no subscription to change or cancel. Purchased credits never expire.</p>
<div class="actions"><a href="/subscription">See plans</a></div>
</section>
${BACK_LINK}`,
    )
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
${choices ? `<section class="card" aria-labelledby="change-plan"><div><h2 id="change-plan">Change plan</h2>\n<p class="muted">Plan changes take effect at once.</p></div>\n<ul>\n${choices}\n</ul></section>` : ''}
<section class="card" aria-labelledby="cancel"><h2 id="cancel">Cancel</h2>
${sub.cancelAtPeriodEnd ? '<p>This subscription is already set to cancel at the end of the period.</p>' : `<div class="actions">${postButton(sub.cancelAction, 'Cancel at period end')}</div>`}</section>
<section class="card" aria-labelledby="renewal"><div><h2 id="renewal">Try a renewal</h2>
<p class="muted">Moves the subscription to its next billing period now, as if a month had passed${sub.cancelAtPeriodEnd ? ' (it ends, since it is set to cancel)' : ''}.</p></div>
<div class="actions">${postButton(sub.advanceAction, 'Advance to next period')}</div></section>
${BACK_LINK}`,
  )
}

/** A page for a checkout or portal that does not exist or is not the visitor's. */
export function notFoundPage(): string {
  return layout(
    'Not found',
    `<p>There is no such sandbox page for this account. Sign in with the account that started it.</p>\n${BACK_LINK}`,
  )
}
