import { randomBytes } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A local Stripe for tests: a `node:http` server on 127.0.0.1 (port 0) speaking the part of
 * Stripe's v1 REST API that billing uses, so the real `stripe` SDK talks to it over the
 * network (`new Stripe(key, { host, port, protocol: 'http' })`).
 *
 * Like Stripe it takes form-encoded bodies with bracket keys (`line_items[0][price]`),
 * answers JSON objects with their `object` field, and answers failures as
 * `{ error: { type, code, message, param } }` with Stripe's statuses (404 for an unknown
 * id in the path, 400 for an unknown id in a parameter, 401 for a wrong key). It keeps
 * state (customers, checkout and portal sessions, subscriptions you seed) and records every
 * request, so tests assert what was sent.
 *
 * Routes: `POST /v1/customers`, `POST /v1/checkout/sessions`,
 * `POST /v1/billing_portal/sessions`, `GET|POST /v1/subscriptions/:id`,
 * `POST /v1/invoices/create_preview`.
 */

/** Form values as Stripe's parser sees them: strings, nested by the bracket keys. */
export type FormValue = string | FormValue[] | { [key: string]: FormValue }
export type FormObject = { [key: string]: FormValue }

/** A request the server received. */
export interface StripeRequest {
  method: string
  /** Without the query, e.g. `/v1/subscriptions/sub_123`. */
  path: string
  /** The query string parsed like a form (GET parameters such as `expand[0]`). */
  query: FormObject
  /** The form body parsed into nested objects and arrays. */
  body: FormObject
  /** The body as sent. */
  rawBody: string
  headers: IncomingHttpHeaders
  /** The `Authorization` header, e.g. `Bearer sk_test_...`. */
  authorization: string | undefined
  /** The `Idempotency-Key` header (the SDK sends one with every POST). */
  idempotencyKey: string | undefined
  /** The `Stripe-Version` header. */
  stripeVersion: string | undefined
}

/** A canned answer: status and JSON body. */
export interface StripeReply {
  status: number
  body: unknown
  headers?: Record<string, string>
  /** Never answer (the client's timeout must end the call). */
  hang?: boolean
}

/** A reply that never comes. */
export const HANG: StripeReply = { status: 0, body: null, hang: true }

/**
 * Decides an answer before the normal routes: return a reply to send it, undefined to let
 * the request through.
 */
export type Interceptor = (request: StripeRequest) => StripeReply | undefined

/** Where a seeded subscription keeps its billing period. */
export type PeriodLocation = 'items' | 'subscription'

export interface SeedSubscription {
  id?: string
  customer: string
  price: string
  status?: string
  cancelAtPeriodEnd?: boolean
  currentPeriodStart: Date
  currentPeriodEnd: Date
  /**
   * `items` (API versions from 2025-03-31 on: the period lives on each subscription item)
   * or `subscription` (older versions: on the subscription itself). Default `items`.
   */
  periodOn?: PeriodLocation
  metadata?: Record<string, string>
}

type StripeObject = Record<string, unknown>

export interface StripeTestServer {
  /** `http://127.0.0.1:<port>`: the gateway's `apiBase`. */
  url: string
  /** Every request received, oldest first. */
  requests: StripeRequest[]
  customers: Map<string, StripeObject>
  checkoutSessions: Map<string, StripeObject>
  portalSessions: Map<string, StripeObject>
  subscriptions: Map<string, StripeObject>
  /** Unit amounts in cents by price id, for invoice previews. */
  prices: Map<string, number>
  /**
   * The `amount_due` of the next invoice preview; when unset, the difference of the new
   * and the old price's unit amounts (never below 0).
   */
  previewAmountDue: number | undefined
  /** Adds a subscription (with one item of `price`, quantity 1) and answers it. */
  seedSubscription(seed: SeedSubscription): StripeObject
  /** Answers matching requests with `reply`, `times` times (default once). */
  failNext(
    match: { method?: string; path: string | RegExp },
    reply: StripeReply,
    times?: number,
  ): void
  /** Runs before the routes until `reset`. */
  intercept(interceptor: Interceptor): void
  /** Forgets requests, state and interceptors. */
  reset(): void
  /** The requests to a path (and method), oldest first. */
  requestsTo(method: string, path: string | RegExp): StripeRequest[]
  close(): Promise<void>
}

/** The key the server accepts unless another is given. */
export const STRIPE_TEST_SECRET_KEY = 'sk_test_reelgraph_local'

const CHECKOUT_URL_BASE = 'https://checkout.stripe.test/c/'
const PORTAL_URL_BASE = 'https://billing.stripe.test/p/session/'
/** Stripe checkout sessions expire 24 h after creation. */
const CHECKOUT_EXPIRY_S = 24 * 60 * 60

export async function startStripeServer(
  options: { secretKey?: string } = {},
): Promise<StripeTestServer> {
  const secretKey = options.secretKey ?? STRIPE_TEST_SECRET_KEY
  const requests: StripeRequest[] = []
  const customers = new Map<string, StripeObject>()
  const checkoutSessions = new Map<string, StripeObject>()
  const portalSessions = new Map<string, StripeObject>()
  const subscriptions = new Map<string, StripeObject>()
  const prices = new Map<string, number>()
  let interceptors: Interceptor[] = []

  const state: StripeTestServer = {
    url: '',
    requests,
    customers,
    checkoutSessions,
    portalSessions,
    subscriptions,
    prices,
    previewAmountDue: undefined,
    seedSubscription(seed) {
      const subscription = subscriptionObject(seed)
      subscriptions.set(subscription.id as string, subscription)
      return subscription
    },
    failNext(match, reply, times = 1) {
      let left = times
      interceptors.push((request) => {
        if (left <= 0) return undefined
        if (match.method && match.method.toUpperCase() !== request.method) return undefined
        const hit =
          typeof match.path === 'string'
            ? request.path === match.path
            : match.path.test(request.path)
        if (!hit) return undefined
        left -= 1
        return reply
      })
    },
    intercept(interceptor) {
      interceptors.push(interceptor)
    },
    reset() {
      requests.length = 0
      customers.clear()
      checkoutSessions.clear()
      portalSessions.clear()
      subscriptions.clear()
      prices.clear()
      interceptors = []
      state.previewAmountDue = undefined
    },
    requestsTo(method, path) {
      return requests.filter(
        (r) =>
          r.method === method.toUpperCase() &&
          (typeof path === 'string' ? r.path === path : path.test(r.path)),
      )
    },
    close() {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }

  function route(request: StripeRequest): StripeReply {
    for (const interceptor of interceptors) {
      const reply = interceptor(request)
      if (reply) return reply
    }
    if (request.authorization !== `Bearer ${secretKey}`) {
      return stripeError(401, {
        type: 'invalid_request_error',
        message: 'Invalid API Key provided.',
      })
    }
    const { method, path, body } = request
    if (method === 'POST' && path === '/v1/customers') return createCustomer(body)
    if (method === 'POST' && path === '/v1/checkout/sessions') return createCheckoutSession(body)
    if (method === 'POST' && path === '/v1/billing_portal/sessions')
      return createPortalSession(body)
    if (method === 'POST' && path === '/v1/invoices/create_preview') return createPreview(body)
    const subscriptionPath = /^\/v1\/subscriptions\/([^/]+)$/.exec(path)
    if (subscriptionPath) {
      const id = decodeURIComponent(subscriptionPath[1] as string)
      if (method === 'GET') return retrieveSubscription(id)
      if (method === 'POST') return updateSubscription(id, body)
    }
    return stripeError(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${path}).`,
    })
  }

  function createCustomer(body: FormObject): StripeReply {
    const customer: StripeObject = {
      id: newId('cus'),
      object: 'customer',
      address: null,
      balance: 0,
      created: nowS(),
      currency: null,
      default_source: null,
      delinquent: false,
      description: str(body.description),
      email: str(body.email),
      invoice_prefix: randomBytes(4).toString('hex').toUpperCase(),
      livemode: false,
      metadata: metadata(body.metadata),
      name: str(body.name),
      phone: null,
      preferred_locales: [],
      shipping: null,
      tax_exempt: 'none',
    }
    customers.set(customer.id as string, customer)
    return ok(customer)
  }

  function createCheckoutSession(body: FormObject): StripeReply {
    const missing = requireParams(body, ['mode', 'success_url', 'line_items'])
    if (missing) return missing
    const mode = str(body.mode)
    if (mode !== 'payment' && mode !== 'subscription' && mode !== 'setup') {
      return invalidParam('mode', `Invalid mode: must be one of payment, setup, or subscription`)
    }
    const customer = str(body.customer)
    if (customer && !customers.has(customer)) return noSuch('customer', customer, 'customer')
    const lineItems = Array.isArray(body.line_items) ? body.line_items : []
    for (const [index, item] of lineItems.entries()) {
      if (typeof item !== 'object' || Array.isArray(item) || !str(item.price)) {
        return invalidParam(`line_items[${index}][price]`, 'Missing required param: price.')
      }
    }
    const id = newId('cs_test')
    const created = nowS()
    const session: StripeObject = {
      id,
      object: 'checkout.session',
      amount_subtotal: null,
      amount_total: null,
      cancel_url: str(body.cancel_url),
      client_reference_id: str(body.client_reference_id),
      created,
      currency: null,
      customer,
      customer_email: null,
      expires_at: created + CHECKOUT_EXPIRY_S,
      livemode: false,
      metadata: metadata(body.metadata),
      mode,
      payment_intent: null,
      payment_status: 'unpaid',
      status: 'open',
      subscription: null,
      success_url: str(body.success_url),
      ui_mode: 'hosted',
      url: `${CHECKOUT_URL_BASE}${id}`,
    }
    checkoutSessions.set(id, session)
    return ok(session)
  }

  function createPortalSession(body: FormObject): StripeReply {
    const missing = requireParams(body, ['customer'])
    if (missing) return missing
    const customer = str(body.customer) as string
    if (!customers.has(customer)) return noSuch('customer', customer, 'customer')
    const flowData = body.flow_data
    let flow: StripeObject | null = null
    if (flowData && typeof flowData === 'object' && !Array.isArray(flowData)) {
      const type = str(flowData.type)
      if (type === 'subscription_update_confirm') {
        const confirm = asObject(flowData.subscription_update_confirm)
        const subscriptionId = str(confirm.subscription)
        if (!subscriptionId) {
          return invalidParam(
            'flow_data[subscription_update_confirm][subscription]',
            'Missing required param: flow_data[subscription_update_confirm][subscription].',
          )
        }
        const subscription = subscriptions.get(subscriptionId)
        if (!subscription) {
          return noSuch(
            'subscription',
            subscriptionId,
            'flow_data[subscription_update_confirm][subscription]',
          )
        }
        const items = Array.isArray(confirm.items) ? confirm.items : []
        if (items.length === 0) {
          return invalidParam(
            'flow_data[subscription_update_confirm][items]',
            'Missing required param: flow_data[subscription_update_confirm][items].',
          )
        }
        const known = new Set(itemsOf(subscription).map((item) => item.id))
        for (const [index, item] of items.entries()) {
          const itemId = str(asObject(item).id)
          if (!itemId || !known.has(itemId)) {
            return invalidParam(
              `flow_data[subscription_update_confirm][items][${index}][id]`,
              `The subscription item ${itemId ?? '(none)'} does not belong to ${subscriptionId}.`,
            )
          }
        }
        flow = {
          type,
          after_completion: { type: 'portal_homepage', hosted_confirmation: null, redirect: null },
          subscription_cancel: null,
          subscription_update: null,
          subscription_update_confirm: {
            discounts: null,
            items: items.map((item) => {
              const entry = asObject(item)
              return {
                id: str(entry.id),
                price: str(entry.price),
                quantity: entry.quantity === undefined ? undefined : Number(entry.quantity),
              }
            }),
            subscription: subscriptionId,
          },
        }
      } else if (type) {
        flow = { type, after_completion: { type: 'portal_homepage' } }
      }
    }
    const id = newId('bps')
    const session: StripeObject = {
      id,
      object: 'billing_portal.session',
      configuration: 'bpc_test_default',
      created: nowS(),
      customer,
      flow,
      livemode: false,
      locale: null,
      on_behalf_of: null,
      return_url: str(body.return_url),
      url: `${PORTAL_URL_BASE}${id}`,
    }
    portalSessions.set(id, session)
    return ok(session)
  }

  function createPreview(body: FormObject): StripeReply {
    const subscriptionId = str(body.subscription)
    const details = asObject(body.subscription_details)
    let customer = str(body.customer)
    if (customer && !customers.has(customer)) {
      // Billing creates subscriptions through Checkout, so seeded subscriptions name
      // customers this server never created: accept those.
      const owns = [...subscriptions.values()].some((s) => s.customer === customer)
      if (!owns) return noSuch('customer', customer, 'customer')
    }
    let oldAmount = 0
    let newAmount = 0
    if (subscriptionId) {
      const subscription = subscriptions.get(subscriptionId)
      if (!subscription) return noSuch('subscription', subscriptionId, 'subscription')
      customer ??= subscription.customer as string
      const items = Array.isArray(details.items) ? details.items : []
      const current = itemsOf(subscription)
      for (const [index, raw] of items.entries()) {
        const item = asObject(raw)
        const itemId = str(item.id)
        const existing = current.find((c) => c.id === itemId)
        if (itemId && !existing) {
          return invalidParam(
            `subscription_details[items][${index}][id]`,
            `The subscription item ${itemId} does not belong to ${subscriptionId}.`,
          )
        }
        oldAmount += existing ? (prices.get(existing.price.id) ?? 0) : 0
        const price = str(item.price)
        newAmount += price ? (prices.get(price) ?? 0) : 0
      }
    } else if (!customer) {
      return invalidParam('customer', 'Missing required param: customer or subscription.')
    }
    const amountDue = state.previewAmountDue ?? Math.max(0, newAmount - oldAmount)
    const invoice: StripeObject = {
      id: newId('upcoming_in'),
      object: 'invoice',
      amount_due: amountDue,
      amount_paid: 0,
      amount_remaining: amountDue,
      billing_reason: 'upcoming',
      collection_method: 'charge_automatically',
      created: nowS(),
      currency: 'usd',
      customer,
      livemode: false,
      lines: {
        object: 'list',
        data: [],
        has_more: false,
        url: '/v1/invoices/upcoming/lines',
      },
      parent: subscriptionId
        ? {
            type: 'subscription_details',
            quote_details: null,
            subscription_details: { metadata: null, subscription: subscriptionId },
          }
        : null,
      status: 'draft',
      subtotal: amountDue,
      total: amountDue,
    }
    return ok(invoice)
  }

  function retrieveSubscription(id: string): StripeReply {
    const subscription = subscriptions.get(id)
    if (!subscription) return noSuch('subscription', id, 'id', 404)
    return ok(subscription)
  }

  function updateSubscription(id: string, body: FormObject): StripeReply {
    const subscription = subscriptions.get(id)
    if (!subscription) return noSuch('subscription', id, 'id', 404)
    if (subscription.status === 'canceled') {
      return stripeError(400, {
        type: 'invalid_request_error',
        message: `A canceled subscription can only update its cancellation_details and metadata.`,
      })
    }
    if (body.cancel_at_period_end !== undefined) {
      const value = str(body.cancel_at_period_end)
      if (value !== 'true' && value !== 'false') {
        return invalidParam('cancel_at_period_end', 'Invalid boolean: ' + String(value))
      }
      subscription.cancel_at_period_end = value === 'true'
      subscription.cancel_at = value === 'true' ? periodEndOf(subscription) : null
      subscription.canceled_at = value === 'true' ? nowS() : null
    }
    if (body.metadata !== undefined) {
      subscription.metadata = { ...asObject(subscription.metadata), ...metadata(body.metadata) }
    }
    return ok(subscription)
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8')
      const url = new URL(req.url ?? '/', 'http://127.0.0.1')
      const request: StripeRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: parseForm(url.search.slice(1)),
        body: parseForm(rawBody),
        rawBody,
        headers: req.headers,
        authorization: header(req.headers, 'authorization'),
        idempotencyKey: header(req.headers, 'idempotency-key'),
        stripeVersion: header(req.headers, 'stripe-version'),
      }
      requests.push(request)
      let reply: StripeReply
      try {
        reply = route(request)
      } catch (error) {
        reply = stripeError(500, { type: 'api_error', message: String(error) })
      }
      send(res, reply)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  state.url = `http://127.0.0.1:${port}`
  return state
}

/**
 * Parses a form body the way Stripe does: `a[b][0][c]=x` becomes `{ a: { b: [{ c: 'x' }] } }`
 * (a numeric segment indexes an array).
 */
export function parseForm(text: string): FormObject {
  const root: FormObject = {}
  if (!text) return root
  for (const [key, value] of new URLSearchParams(text)) {
    const segments = keySegments(key)
    let node: FormObject | FormValue[] = root
    for (const [index, segment] of segments.entries()) {
      const last = index === segments.length - 1
      const nextIsIndex = !last && /^\d+$/.test(segments[index + 1] as string)
      const slot: string | number = Array.isArray(node) ? Number(segment) : segment
      const container = node as Record<string | number, FormValue>
      if (last) {
        container[slot] = value
      } else {
        container[slot] ??= nextIsIndex ? [] : {}
        node = container[slot] as FormObject | FormValue[]
      }
    }
  }
  return root
}

function keySegments(key: string): string[] {
  const first = key.indexOf('[')
  if (first === -1) return [key]
  const segments = [key.slice(0, first)]
  for (const match of key.slice(first).matchAll(/\[([^\]]*)\]/g)) segments.push(match[1] as string)
  return segments
}

/** A Stripe subscription object as API version 2025-03-31 and later shape it. */
function subscriptionObject(seed: SeedSubscription): StripeObject {
  const id = seed.id ?? newId('sub')
  const start = Math.floor(seed.currentPeriodStart.getTime() / 1000)
  const end = Math.floor(seed.currentPeriodEnd.getTime() / 1000)
  const onItems = (seed.periodOn ?? 'items') === 'items'
  const item: StripeObject = {
    id: newId('si'),
    object: 'subscription_item',
    created: start,
    discounts: [],
    metadata: {},
    price: priceObject(seed.price),
    quantity: 1,
    subscription: id,
    tax_rates: [],
    ...(onItems ? { current_period_start: start, current_period_end: end } : {}),
  }
  const cancelAtPeriodEnd = seed.cancelAtPeriodEnd ?? false
  return {
    id,
    object: 'subscription',
    billing_cycle_anchor: start,
    cancel_at: cancelAtPeriodEnd ? end : null,
    cancel_at_period_end: cancelAtPeriodEnd,
    canceled_at: cancelAtPeriodEnd ? start : null,
    collection_method: 'charge_automatically',
    created: start,
    currency: 'usd',
    customer: seed.customer,
    default_payment_method: null,
    ended_at: null,
    items: {
      object: 'list',
      data: [item],
      has_more: false,
      total_count: 1,
      url: `/v1/subscription_items?subscription=${id}`,
    },
    latest_invoice: null,
    livemode: false,
    metadata: seed.metadata ?? {},
    start_date: start,
    status: seed.status ?? 'active',
    trial_end: null,
    trial_start: null,
    ...(onItems ? {} : { current_period_start: start, current_period_end: end }),
  }
}

function priceObject(id: string): StripeObject {
  return {
    id,
    object: 'price',
    active: true,
    billing_scheme: 'per_unit',
    created: nowS(),
    currency: 'usd',
    livemode: false,
    lookup_key: null,
    metadata: {},
    nickname: null,
    product: 'prod_test',
    recurring: { interval: 'month', interval_count: 1, usage_type: 'licensed' },
    type: 'recurring',
    unit_amount: null,
  }
}

function itemsOf(subscription: StripeObject): Array<{ id: string; price: { id: string } }> {
  const items = subscription.items as { data: Array<{ id: string; price: { id: string } }> }
  return items.data
}

function periodEndOf(subscription: StripeObject): number | null {
  const item = itemsOf(subscription)[0] as { current_period_end?: number } | undefined
  return item?.current_period_end ?? (subscription.current_period_end as number | undefined) ?? null
}

function requireParams(body: FormObject, names: string[]): StripeReply | undefined {
  for (const name of names) {
    if (body[name] === undefined || body[name] === '') {
      return stripeError(400, {
        type: 'invalid_request_error',
        code: 'parameter_missing',
        param: name,
        message: `Missing required param: ${name}.`,
      })
    }
  }
  return undefined
}

function invalidParam(param: string, message: string): StripeReply {
  return stripeError(400, {
    type: 'invalid_request_error',
    code: 'parameter_invalid',
    param,
    message,
  })
}

/** Stripe's answer for an unknown id: 404 in the path, 400 in a parameter. */
function noSuch(kind: string, id: string, param: string, status = 400): StripeReply {
  return stripeError(status, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    doc_url: 'https://stripe.com/docs/error-codes/resource-missing',
    param,
    message: `No such ${kind}: '${id}'`,
  })
}

/** A Stripe error answer: `{ error: { type, code?, param?, message } }`. */
export function stripeError(
  status: number,
  error: { type: string; message: string; code?: string; param?: string; doc_url?: string },
  headers?: Record<string, string>,
): StripeReply {
  return headers ? { status, body: { error }, headers } : { status, body: { error } }
}

function ok(body: unknown): StripeReply {
  return { status: 200, body }
}

function send(response: ServerResponse, reply: StripeReply): void {
  if (reply.hang) return
  response.writeHead(reply.status, {
    'content-type': 'application/json',
    'request-id': newId('req'),
    ...reply.headers,
  })
  response.end(JSON.stringify(reply.body))
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name]
  return Array.isArray(value) ? value[0] : value
}

function str(value: FormValue | undefined): string | null {
  return typeof value === 'string' ? value : null
}

function asObject(value: FormValue | unknown): Record<string, FormValue> {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, FormValue>)
    : {}
}

function metadata(value: FormValue | undefined): Record<string, string> {
  const result: Record<string, string> = {}
  for (const [key, entry] of Object.entries(asObject(value))) {
    if (typeof entry === 'string' && entry !== '') result[key] = entry
  }
  return result
}

function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`
}

function nowS(): number {
  return Math.floor(Date.now() / 1000)
}
