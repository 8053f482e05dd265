import { randomUUID } from 'node:crypto'
import { videoRenderResult, type WebhookEvent } from '@reelgraph/shared'
import type { JobOutcomes } from '../jobs/job-outcomes.ts'
import type { JobRow } from '../jobs/job-store.ts'
import { type QueuedDelivery, WEBHOOK_DELIVERY_QUEUE } from './webhook-delivery.ts'
import { newMessageId } from './webhook-signing.ts'

/**
 * The events of a job's end (issue 41 item 3): `job.succeeded` or `job.failed`, and
 * `video.rendered` when what succeeded is a render (its result is a render's: a `video` or
 * `make-video` job). Recorded in the transaction that records the job's outcome (the job
 * system's `outcomes`): one delivery row per endpoint that asked for the event, each sent to
 * the delivery queue in the same transaction, so an event exists exactly when the outcome does.
 */

/** Makes `path` (`/api/...`) absolute on the app's public URL. */
function absolute(appUrl: string, path: string): string {
  return new URL(path, `${appUrl}/`).href
}

/**
 * The events `job`'s end raises, each with its body: ids, the status and URLs the receiver can
 * fetch with its API token; never a secret, a charge or another account's data.
 * @param appUrl the app's public URL (`APP_URL`, no trailing slash)
 * @see issue 41 item 3
 */
export function jobEvents(job: JobRow, appUrl: string): WebhookEvent[] {
  const timestamp = job.updated_at.toISOString()
  const data = {
    jobId: job.id,
    projectId: job.project_id,
    nodeId: job.node_id,
    kind: job.kind,
    status: job.status,
    jobUrl: absolute(appUrl, `/api/jobs/${job.id}`),
  }
  if (job.status === 'failed') {
    return [
      {
        type: 'job.failed',
        timestamp,
        data: { ...data, errorCode: job.error_code, message: job.message },
      },
    ]
  }
  if (job.status !== 'succeeded') return []
  const events: WebhookEvent[] = [{ type: 'job.succeeded', timestamp, data }]
  const render = videoRenderResult.safeParse(job.result)
  if (render.success) {
    events.push({
      type: 'video.rendered',
      timestamp,
      data: {
        ...data,
        mp4Url: absolute(appUrl, render.data.mp4Url),
        srtUrl: absolute(appUrl, render.data.srtUrl),
        vttUrl: absolute(appUrl, render.data.vttUrl),
        durationMs: render.data.durationMs,
      },
    })
  }
  return events
}

/**
 * The job system's outcome listener for webhooks: for each event of the job's end, the
 * endpoints of the job's owner (the user who started it) that are enabled, asked for the event
 * and cover the job's project (every project, or that one while the owner is still its member)
 * get a delivery row and a queued first attempt, in the job's own transaction.
 * @param appUrl the app's public URL, for the payloads' URLs
 * @see issue 41 item 3
 */
export function webhookOutcomes({ appUrl }: { appUrl: string }): JobOutcomes {
  return {
    async settled({ trx, job, queue }) {
      const events = jobEvents(job, appUrl)
      if (events.length === 0) return
      const projectId = job.project_id
      const endpoints = await trx
        .selectFrom('webhook_endpoints')
        .select(['id', 'events'])
        .where('user_id', '=', job.user_id)
        .where('disabled_at', 'is', null)
        .where((eb) =>
          projectId === null
            ? eb('project_id', 'is', null)
            : eb.or([
                eb('project_id', 'is', null),
                eb.and([
                  eb('project_id', '=', projectId),
                  eb.exists(
                    eb
                      .selectFrom('project_members')
                      .select('project_members.user_id')
                      .where('project_members.project_id', '=', projectId)
                      .where('project_members.user_id', '=', job.user_id),
                  ),
                ]),
              ]),
        )
        .execute()
      const rows = endpoints.flatMap((endpoint) =>
        events
          .filter((event) => endpoint.events.includes(event.type))
          .map((event) => ({
            id: randomUUID(),
            endpoint_id: endpoint.id,
            event_type: event.type,
            message_id: newMessageId(),
            payload: JSON.stringify(event),
            next_attempt_at: new Date(),
          })),
      )
      if (rows.length === 0) return
      await trx.insertInto('webhook_deliveries').values(rows).execute()
      for (const { id } of rows) {
        await queue.sendTask(trx, WEBHOOK_DELIVERY_QUEUE, {
          deliveryId: id,
          attempt: 1,
          manual: false,
        } satisfies QueuedDelivery)
      }
    },
  }
}
