import { randomUUID } from 'node:crypto'
import type { DB, WebhookDeliveryRow, WebhookEndpointRow } from '@reelgraph/db'
import {
  type CreatedWebhook,
  type CreateWebhookInput,
  WEBHOOK_DELIVERIES_LISTED,
  type Webhook,
  type WebhookDelivery,
  type WebhookEventType,
  WEBHOOKS_PER_USER_MAX,
} from '@reelgraph/shared'
import { type ExpressionBuilder, type Kysely, sql } from 'kysely'
import { AppError } from '../../lib/app-error.ts'
import type { AllowList } from '../../lib/outbound/address-rules.ts'
import { requireProjectRole } from '../access/project-access.ts'
import { allowedProjectIds } from '../access/project-limit.ts'
import type { GenerationQueue } from '../jobs/job-queue.ts'
import { WEBHOOK_DELIVERY_QUEUE, type QueuedDelivery } from './webhook-delivery.ts'
import { newSigningSecret } from './webhook-signing.ts'
import { checkWebhookUrl } from './webhook-url.ts'

/**
 * An account's webhook endpoints and their delivery logs (issue 41 item 3): create (the URL
 * judged, the secret answered once), list, delete, the deliveries, and redeliver. Only the
 * endpoint's owner sees it; anyone else gets 404, as for an id that does not exist.
 */

/** The answer to a webhook that does not exist and to another account's. */
export function webhookNotFound(): AppError {
  return new AppError('NOT_FOUND', 'This webhook does not exist, or it is not yours.')
}

/** The answer to a delivery that does not exist (or is not of this webhook). */
export function deliveryNotFound(): AppError {
  return new AppError('NOT_FOUND', 'This delivery does not exist, or it is not yours.')
}

/** An endpoint as the api answers it (never its secret). */
export function toWebhookJson(row: Omit<WebhookEndpointRow, 'secret'>): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEventType[],
    projectId: row.project_id,
    createdAt: row.created_at.toISOString(),
    disabledAt: row.disabled_at?.toISOString() ?? null,
    consecutiveFailures: row.consecutive_failures,
  }
}

/** A delivery as the log shows it. */
export function toDeliveryJson(row: WebhookDeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    eventType: row.event_type as WebhookEventType,
    messageId: row.message_id,
    status: row.status,
    attempts: row.attempts,
    responseCode: row.last_response_code,
    error: row.last_error,
    lastAttemptAt: row.last_attempt_at?.toISOString() ?? null,
    nextAttemptAt: row.next_attempt_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
  }
}

/** Why a project-limited API token cannot add an account-wide webhook. */
const WEBHOOK_LIMITED_TOKEN_MESSAGE =
  'This token is limited to some projects: give the webhook a projectId among them, or use a token for all projects.'

/**
 * The endpoints the current request may reach: all of the account's, or under an API token
 * limited to some projects (`project-limit.ts`), those of these projects only (an
 * account-wide endpoint hears the other projects too).
 */
function withinTokenLimit(eb: ExpressionBuilder<DB, 'webhook_endpoints'>) {
  const allowed = allowedProjectIds()
  if (allowed === null) return eb.lit(true)
  if (allowed.length === 0) return eb.lit(false)
  return eb('project_id', 'in', allowed)
}

/**
 * Creates an endpoint for `userId`: the URL judged by the outbound guard's rules under the
 * operator's `allow` list, a project the user is a member of (or none: every project), a new
 * signing secret.
 * @returns the endpoint and its secret (answered this once)
 * @throws AppError 400 for a URL refused in words or an account at WEBHOOKS_PER_USER_MAX; 404
 *   for a project the user is not a member of.
 * @see issue 41 item 3
 */
export async function createWebhook(
  db: Kysely<DB>,
  { userId, input, allow }: { userId: number; input: CreateWebhookInput; allow: AllowList },
): Promise<CreatedWebhook> {
  // An API token limited to some projects hears only those (issue 41 item 1).
  if (input.projectId === undefined && allowedProjectIds() !== null) {
    throw new AppError('FORBIDDEN', WEBHOOK_LIMITED_TOKEN_MESSAGE)
  }
  if (input.projectId !== undefined) {
    await requireProjectRole(db, { userId, projectId: input.projectId, needed: 'member' })
  }
  const url = await checkWebhookUrl(input.url, allow)
  const { count } = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow()
  if (Number(count) >= WEBHOOKS_PER_USER_MAX) {
    throw new AppError(
      'BAD_REQUEST',
      `An account may have ${WEBHOOKS_PER_USER_MAX} webhooks: delete one you no longer use first.`,
    )
  }
  const row = await db
    .insertInto('webhook_endpoints')
    .values({
      id: randomUUID(),
      user_id: userId,
      project_id: input.projectId ?? null,
      url: url.href,
      // Arrays go in as text (PGlite and pg take it alike); event names hold no comma.
      events: sql<string[]>`string_to_array(${input.events.join(',')}, ',')::text[]`,
      secret: newSigningSecret(),
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  return { ...toWebhookJson(row), secret: row.secret }
}

/** The user's endpoints, newest first, without their secrets. */
export async function listWebhooks(db: Kysely<DB>, userId: number): Promise<Webhook[]> {
  const rows = await db
    .selectFrom('webhook_endpoints')
    .select([
      'id',
      'user_id',
      'project_id',
      'url',
      'events',
      'created_at',
      'disabled_at',
      'consecutive_failures',
    ])
    .where('user_id', '=', userId)
    .where(withinTokenLimit)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute()
  return rows.map(toWebhookJson)
}

/**
 * Deletes the user's endpoint `webhookId` with its delivery log; a delivery waiting for a
 * retry is not sent.
 * @throws AppError 404 when it is not the user's.
 */
export async function deleteWebhook(
  db: Kysely<DB>,
  { userId, webhookId }: { userId: number; webhookId: string },
): Promise<void> {
  const deleted = await db
    .deleteFrom('webhook_endpoints')
    .where('id', '=', webhookId)
    .where('user_id', '=', userId)
    .where(withinTokenLimit)
    .executeTakeFirst()
  if (deleted.numDeletedRows === 0n) throw webhookNotFound()
}

/**
 * Checks that endpoint `webhookId` is the user's.
 * @throws AppError 404 when it is not (a stranger's and a missing one answer alike).
 */
async function requireOwnEndpoint(
  db: Kysely<DB>,
  { userId, webhookId }: { userId: number; webhookId: string },
): Promise<void> {
  const endpoint = await db
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('id', '=', webhookId)
    .where('user_id', '=', userId)
    .where(withinTokenLimit)
    .executeTakeFirst()
  if (!endpoint) throw webhookNotFound()
}

/**
 * The newest WEBHOOK_DELIVERIES_LISTED deliveries of the user's endpoint `webhookId`.
 * @throws AppError 404 when it is not the user's.
 */
export async function listDeliveries(
  db: Kysely<DB>,
  { userId, webhookId }: { userId: number; webhookId: string },
): Promise<WebhookDelivery[]> {
  await requireOwnEndpoint(db, { userId, webhookId })
  const rows = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('endpoint_id', '=', webhookId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(WEBHOOK_DELIVERIES_LISTED)
    .execute()
  return rows.map(toDeliveryJson)
}

/**
 * Sends delivery `deliveryId` of the user's endpoint `webhookId` once more, at once: the same
 * `webhook-id` and body, a new timestamp and signature. One attempt, without retries; to a
 * disabled endpoint too, and a success there turns it back on (the receiver works again).
 * @returns the delivery, pending
 * @throws AppError 404 when the endpoint or the delivery is not the user's; 409
 *   DUPLICATE_REQUEST while the delivery is still pending (being attempted or retried).
 * @see issue 41 item 3
 */
export async function redeliver(
  deps: { db: Kysely<DB>; jobs: { queue: GenerationQueue; start(): Promise<void> } },
  { userId, webhookId, deliveryId }: { userId: number; webhookId: string; deliveryId: string },
): Promise<WebhookDelivery> {
  const { db, jobs } = deps
  await requireOwnEndpoint(db, { userId, webhookId })
  await jobs.start()
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', '=', deliveryId)
      .where('endpoint_id', '=', webhookId)
      .forUpdate()
      .executeTakeFirst()
    if (!row) throw deliveryNotFound()
    if (row.status === 'pending') {
      throw new AppError(
        'DUPLICATE_REQUEST',
        'This delivery is still being sent (or waiting for its next retry): redeliver it once it has succeeded or failed.',
      )
    }
    const pending = await trx
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', next_attempt_at: new Date() })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await jobs.queue.sendTask(trx, WEBHOOK_DELIVERY_QUEUE, {
      deliveryId: row.id,
      attempt: row.attempts + 1,
      manual: true,
    } satisfies QueuedDelivery)
    return toDeliveryJson(pending)
  })
}
