import { randomUUID } from 'node:crypto'
import type { DB } from '@reelgraph/db'
import type { BatchCompletedEvent, WebhookEvent } from '@reelgraph/shared'
import type { Transaction } from 'kysely'
import type { GenerationQueue } from '../jobs/job-queue.ts'
import { type QueuedDelivery, WEBHOOK_DELIVERY_QUEUE } from './webhook-delivery.ts'
import { newMessageId } from './webhook-signing.ts'

/**
 * Records `batch.completed` (issue 42 item 3) for the batch's owner `userId`, inside `trx` (the
 * transaction that ends the batch's last row): a delivery row per enabled endpoint of every
 * project (a batch spans projects: an endpoint of one project does not get it) that asked for
 * the event, each with its first attempt queued in the same transaction, as job events are.
 * @param data the event's body (absolute URLs)
 * @param at when the last row ended
 * @returns how many deliveries were recorded
 */
export async function recordBatchCompleted(
  trx: Transaction<DB>,
  queue: GenerationQueue,
  { userId, data, at }: { userId: number; data: BatchCompletedEvent; at: Date },
): Promise<number> {
  const endpoints = await trx
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('user_id', '=', userId)
    .where('disabled_at', 'is', null)
    .where('project_id', 'is', null)
    .where((eb) => eb(eb.val('batch.completed'), '=', eb.fn.any('events')))
    .execute()
  if (endpoints.length === 0) return 0
  const event: WebhookEvent = { type: 'batch.completed', timestamp: at.toISOString(), data }
  const rows = endpoints.map((endpoint) => ({
    id: randomUUID(),
    endpoint_id: endpoint.id,
    event_type: event.type,
    message_id: newMessageId(),
    payload: JSON.stringify(event),
    next_attempt_at: new Date(),
  }))
  await trx.insertInto('webhook_deliveries').values(rows).execute()
  for (const { id } of rows) {
    await queue.sendTask(trx, WEBHOOK_DELIVERY_QUEUE, {
      deliveryId: id,
      attempt: 1,
      manual: false,
    } satisfies QueuedDelivery)
  }
  return rows.length
}
