import type { DB } from '@reelgraph/db'
import { type Kysely, sql } from 'kysely'
import type { Logger } from 'pino'
import { z } from 'zod'
import { WEBHOOK_DELIVERY_CONCURRENCY, WEBHOOK_RESPONSE_LOG_BYTES } from '../../config.ts'
import type { AllowList } from '../../lib/outbound/address-rules.ts'
import { readTextPrefix } from '../../lib/outbound/bounded-body.ts'
import {
  guardedFetch,
  type OutboundPolicy,
  outboundPolicy,
} from '../../lib/outbound/guarded-fetch.ts'
import { OutboundRefusedError, OutboundTimeoutError } from '../../lib/outbound/outbound-errors.ts'
import type { Mailer } from '../../services/mailer.ts'
import type { GenerationQueue } from '../jobs/job-queue.ts'
import type { QueuedTask } from '../jobs/queued-task.ts'
import { webhookDisabledEmail } from './emails.ts'
import { signatureHeaders } from './webhook-signing.ts'

/**
 * Webhook deliveries (issue 41 item 3, decision 028): each attempt is a run of the
 * `webhook-delivery` queue (a queue of its own on the job system's pg-boss: a delivery is no
 * generation: no charge, no node, no job row). One attempt POSTs the stored body, signed for
 * this attempt, through the outbound guard (no origin trusted, no redirect followed, a short
 * time limit), reads a few KB of an answer that is not a 2xx for the log, and records it: a 2xx
 * succeeded; else the next attempt is sent to the queue after the schedule's next wait, in the
 * same transaction, until the schedule ends and the delivery has failed. An endpoint whose
 * deliveries keep failing is disabled and its owner emailed.
 */

/** The queue of delivery attempts. */
export const WEBHOOK_DELIVERY_QUEUE = 'webhook-delivery'

/** The User-Agent of every delivery. */
const USER_AGENT = 'Reelgraph-Webhooks/1.0 (+https://www.standardwebhooks.com/)'

/** What a queued attempt carries: the delivery, which attempt this is, and whether a person asked. */
export const queuedDelivery = z.object({
  deliveryId: z.string(),
  /** 1 for the first; a redelivery is the attempt after the last one made. */
  attempt: z.number().int().min(1),
  /** A redelivery: one attempt, no retries, not counted against the endpoint. */
  manual: z.boolean(),
})
export type QueuedDelivery = z.infer<typeof queuedDelivery>

/** The operator's webhook settings (`WEBHOOK_*`, `OUTBOUND_ALLOW_HOSTS`). */
export interface WebhookSettings {
  /** Waits before each retry, in ms: one retry per entry. */
  retryDelaysMs: readonly number[]
  /** Deliveries in a row that fail for good before the endpoint is disabled. */
  disableAfterFailures: number
  /** Longest attempt, answer included, in ms. */
  timeoutMs: number
  /** The operator's `OUTBOUND_ALLOW_HOSTS`. */
  allow: AllowList
}

/** What attempts need. */
export interface DeliveryDeps {
  db: Kysely<DB>
  logger: Logger
  mailer: Mailer
  /** The job system's queue (made after this task: asked for when a run needs it). */
  queue: () => GenerationQueue
  settings: WebhookSettings
  /** The app's public URL, for the email. */
  appUrl: string
}

/**
 * The policy of every delivery: no origin trusted (a receiver is an address a user named),
 * the operator's allow list, the webhook time limit, no redirect followed (a receiver that
 * moved says so by failing, and a redirect cannot carry the POST elsewhere). Made once, with
 * the delivery task: the guard keeps a connection pool per policy.
 */
export function deliveryPolicy(settings: WebhookSettings): OutboundPolicy {
  return {
    ...outboundPolicy([], { allow: settings.allow, timeoutMs: settings.timeoutMs }),
    maxRedirects: 0,
  }
}

/** What one attempt came to: the HTTP status (none when nothing answered) and why it failed. */
interface AttemptResult {
  responseCode: number | null
  /** Null when it succeeded. */
  error: string | null
  /** No retry can help (the endpoint is disabled). */
  final?: boolean
}

/** Why an attempt got no answer, in words for the delivery log. */
function failureWords(err: unknown, timeoutMs: number): string {
  if (err instanceof OutboundRefusedError) {
    if (err.reason === 'redirects') {
      return 'The receiver answered with a redirect: webhook deliveries are not redirected, so give the final URL.'
    }
    return `The URL leads to an address Reelgraph does not send to (${err.shown}): only public https addresses are. An operator can allow it with OUTBOUND_ALLOW_HOSTS.`
  }
  if (err instanceof OutboundTimeoutError) {
    return `The receiver did not answer within ${Math.round(timeoutMs / 1000)} s.`
  }
  const code = (err as { cause?: { code?: unknown } } | null)?.cause?.code
  return `The receiver could not be reached${typeof code === 'string' ? ` (${code})` : ''}.`
}

/** The delivery and its endpoint, as an attempt reads them. */
interface DeliveryTarget {
  id: string
  message_id: string
  payload: string
  status: 'pending' | 'succeeded' | 'failed'
  attempts: number
  endpoint_id: string
  url: string
  secret: string
  disabled_at: Date | null
  user_id: number
}

/** POSTs the delivery's body, signed for now, and words what came of it. */
async function send(
  deps: DeliveryDeps,
  policy: OutboundPolicy,
  target: DeliveryTarget,
  signal: AbortSignal,
): Promise<AttemptResult> {
  const headers = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    ...signatureHeaders({
      secret: target.secret,
      messageId: target.message_id,
      at: new Date(),
      body: target.payload,
    }),
  }
  try {
    const response = await guardedFetch(
      target.url,
      { method: 'POST', headers, body: target.payload, signal },
      policy,
    )
    if (response.status >= 200 && response.status < 300) {
      await response.body?.cancel().catch(() => undefined)
      return { responseCode: response.status, error: null }
    }
    const answer = await readTextPrefix(response, WEBHOOK_RESPONSE_LOG_BYTES)
    deps.logger.info(
      { deliveryId: target.id, status: response.status, answer },
      'a webhook receiver refused a delivery',
    )
    return { responseCode: response.status, error: `The receiver answered ${response.status}.` }
  } catch (err) {
    if (signal.aborted) throw err // the queue took the run back: it runs again
    deps.logger.info({ err, deliveryId: target.id }, 'a webhook delivery got no answer')
    return { responseCode: null, error: failureWords(err, deps.settings.timeoutMs) }
  }
}

/** The endpoint that was disabled by an attempt, to email its owner about. */
interface Disabled {
  userId: number
  url: string
  failures: number
  lastError: string | null
}

/**
 * Records attempt `task` of `target` (only if no other run recorded it first) and what
 * follows: the next attempt queued after its wait, or the end (success resets the endpoint's
 * failures and turns it back on; a delivery that failed for good counts against it, and the
 * count reaching the limit disables it).
 * @returns the endpoint this disabled, if it did
 */
async function record(
  deps: DeliveryDeps,
  target: DeliveryTarget,
  task: QueuedDelivery,
  result: AttemptResult,
  attemptedAt: Date,
): Promise<Disabled | undefined> {
  const { settings } = deps
  const ok = result.error === null
  // The wait before the next attempt, when there is one (the schedule's entry for this attempt).
  const retryAfterMs =
    ok || task.manual || result.final ? undefined : settings.retryDelaysMs[task.attempt - 1]
  const retry = retryAfterMs !== undefined
  return deps.db.transaction().execute(async (trx) => {
    const recorded = await trx
      .updateTable('webhook_deliveries')
      .set({
        status: ok ? 'succeeded' : retry ? 'pending' : 'failed',
        attempts: task.attempt,
        last_response_code: result.responseCode,
        last_error: result.error,
        last_attempt_at: attemptedAt,
        next_attempt_at: retryAfterMs === undefined ? null : new Date(Date.now() + retryAfterMs),
      })
      .where('id', '=', target.id)
      .where('status', '=', 'pending')
      .where('attempts', '=', task.attempt - 1)
      .returning('id')
      .executeTakeFirst()
    if (!recorded) return undefined
    if (retryAfterMs !== undefined) {
      await deps.queue().sendTask(
        trx,
        WEBHOOK_DELIVERY_QUEUE,
        {
          deliveryId: target.id,
          attempt: task.attempt + 1,
          manual: false,
        } satisfies QueuedDelivery,
        { startAfterMs: retryAfterMs },
      )
      return undefined
    }
    if (ok) {
      await trx
        .updateTable('webhook_endpoints')
        .set({ consecutive_failures: 0, disabled_at: null })
        .where('id', '=', target.endpoint_id)
        .where((eb) =>
          eb.or([eb('consecutive_failures', '>', 0), eb('disabled_at', 'is not', null)]),
        )
        .execute()
      return undefined
    }
    if (task.manual || result.final) return undefined
    // The row lock of this update orders deliveries failing at once: one of them disables.
    const counted = await trx
      .updateTable('webhook_endpoints')
      .set({ consecutive_failures: sql<number>`consecutive_failures + 1` })
      .where('id', '=', target.endpoint_id)
      .returning(['consecutive_failures', 'disabled_at', 'url', 'user_id'])
      .executeTakeFirst()
    if (
      !counted ||
      counted.disabled_at !== null ||
      counted.consecutive_failures < settings.disableAfterFailures
    ) {
      return undefined
    }
    await trx
      .updateTable('webhook_endpoints')
      .set({ disabled_at: sql`now()` })
      .where('id', '=', target.endpoint_id)
      .execute()
    return {
      userId: counted.user_id,
      url: counted.url,
      failures: counted.consecutive_failures,
      lastError: result.error,
    }
  })
}

/** Emails the owner of an endpoint that was just disabled; a failure is logged. */
async function tellOwner(deps: DeliveryDeps, disabled: Disabled): Promise<void> {
  try {
    const user = await deps.db
      .selectFrom('users')
      .select(['email', 'name'])
      .where('id', '=', disabled.userId)
      .executeTakeFirst()
    if (!user) return
    await deps.mailer.send(
      webhookDisabledEmail({
        to: user.email,
        name: user.name,
        url: disabled.url,
        failures: disabled.failures,
        lastError: disabled.lastError,
        appUrl: deps.appUrl,
      }),
    )
  } catch (err) {
    deps.logger.error({ err, url: disabled.url }, 'the owner of a disabled webhook was not emailed')
  }
}

/**
 * One attempt of a delivery: skipped when the delivery is gone (its endpoint deleted), already
 * settled or past this attempt (a duplicate run); not sent, and failed, when the endpoint was
 * disabled meanwhile (unless a person asked for it); else sent and recorded.
 * @throws only what the database throws (the queue runs it again), or the signal's reason.
 * @see issue 41 item 3
 */
export async function attemptDelivery(
  deps: DeliveryDeps,
  policy: OutboundPolicy,
  task: QueuedDelivery,
  signal: AbortSignal,
): Promise<void> {
  const target = await deps.db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select([
      'd.id',
      'd.message_id',
      'd.payload',
      'd.status',
      'd.attempts',
      'e.id as endpoint_id',
      'e.url',
      'e.secret',
      'e.disabled_at',
      'e.user_id',
    ])
    .where('d.id', '=', task.deliveryId)
    .executeTakeFirst()
  if (!target || target.status !== 'pending' || target.attempts !== task.attempt - 1) return
  const attemptedAt = new Date()
  const result: AttemptResult =
    target.disabled_at !== null && !task.manual
      ? {
          responseCode: null,
          error: 'The webhook is turned off, so this was not sent.',
          final: true,
        }
      : await send(deps, policy, target, signal)
  const disabled = await record(deps, target, task, result, attemptedAt)
  if (disabled) await tellOwner(deps, disabled)
}

/**
 * The delivery queue's task for the job system: every process that runs workers attempts
 * deliveries, WEBHOOK_DELIVERY_CONCURRENCY at once.
 * @see issue 41 item 3
 */
export function webhookDeliveryTask(deps: DeliveryDeps): QueuedTask {
  const policy = deliveryPolicy(deps.settings)
  return {
    name: WEBHOOK_DELIVERY_QUEUE,
    concurrency: WEBHOOK_DELIVERY_CONCURRENCY,
    // The attempt's time limit, plus the database work around it.
    expireInSeconds: Math.ceil(deps.settings.timeoutMs / 1000) + 60,
    retryLimit: 3,
    run: (data, signal) => attemptDelivery(deps, policy, queuedDelivery.parse(data), signal),
  }
}
