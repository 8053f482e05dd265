import { z } from 'zod'
import { JOB_ID_PATTERN, projectIdSchema } from './ids.ts'
import { JOB_STATUSES } from './jobs.ts'
import { batchCompletedEventSchema } from './batches.ts'

/**
 * Signed webhooks (issue 41 item 3, decision 028): a program names a URL and the events it
 * wants; Reelgraph POSTs each event there as the Standard Webhooks specification says
 * (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`), retries
 * with growing gaps, keeps a delivery log with redeliver, and disables an endpoint that keeps
 * failing.
 */

/**
 * The events an endpoint may ask for. A job of the endpoint owner's that succeeded or failed
 * (cancels are the owner's own doing: none), and a render's MP4 that is ready (a `video` or
 * `make-video` job). `batch.completed` (issue 42 item 3): every row of one of the account's
 * batches is final; only endpoints of every project get it (a batch spans projects).
 * Receivers must ignore types they do not know.
 */
export const WEBHOOK_EVENT_TYPES = [
  'job.succeeded',
  'job.failed',
  'video.rendered',
  'batch.completed',
] as const
/** The events of a job's end. */
export const JOB_WEBHOOK_EVENT_TYPES = ['job.succeeded', 'job.failed', 'video.rendered'] as const
export const webhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES, {
  error: `Each event must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}.`,
})
export type WebhookEventType = z.infer<typeof webhookEventTypeSchema>

/** A delivery's life: pending (being attempted or waiting for a retry), then one of the two. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number]

/** Endpoints an account may hold at once. */
export const WEBHOOKS_PER_USER_MAX = 20
/** Longest endpoint URL, in characters. */
export const WEBHOOK_URL_MAX_LENGTH = 2048
/** Deliveries `GET /api/webhooks/:id/deliveries` answers: the newest ones. */
export const WEBHOOK_DELIVERIES_LISTED = 100
/** The signing secret's prefix (Standard Webhooks: `whsec_` and the base64 of the key). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_'

/**
 * A webhook's or a delivery's id in a URL path: a UUID; anything else is answered as a webhook
 * that does not exist (404).
 */
export const webhookIdSchema = z.string().regex(JOB_ID_PATTERN, 'Not a webhook id.')

/** `POST /api/webhooks`: where to send which events, for one project or every one. */
export const createWebhookInput = z.object({
  url: z
    .string({ error: 'Give the URL Reelgraph should send events to.' })
    .trim()
    .min(1, { error: 'Give the URL Reelgraph should send events to.' })
    .max(WEBHOOK_URL_MAX_LENGTH, {
      error: `A webhook URL is at most ${WEBHOOK_URL_MAX_LENGTH} characters.`,
    })
    .refine((url) => URL.canParse(url), {
      error: 'The URL must be a full web address, such as https://example.com/hooks/reelgraph.',
    }),
  events: z
    .array(webhookEventTypeSchema, { error: 'Choose at least one event.' })
    .min(1, { error: 'Choose at least one event.' })
    .transform((events) => WEBHOOK_EVENT_TYPES.filter((e) => events.includes(e))),
  /** Only events of this project (the caller must be a member); absent: every project. */
  projectId: projectIdSchema.optional(),
})
export type CreateWebhookInput = z.infer<typeof createWebhookInput>

/** An endpoint as `GET /api/webhooks` lists it: never its secret. */
export const webhookSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(webhookEventTypeSchema),
    projectId: z.number().int().nullable(),
    createdAt: z.string(),
    /** When it was disabled after failing deliveries in a row, or null. */
    disabledAt: z.string().nullable(),
    /** Deliveries in a row that failed for good (a success resets it). */
    consecutiveFailures: z.number().int().min(0),
  })
  .meta({ id: 'Webhook' })
export type Webhook = z.infer<typeof webhookSchema>

/** `POST /api/webhooks`'s answer (201): the endpoint and its signing secret, shown this once. */
export const createdWebhookSchema = webhookSchema
  .extend({
    /** `whsec_` + base64 of 32 random bytes: give it to a Standard Webhooks verifier. */
    secret: z.string(),
  })
  .meta({ id: 'CreatedWebhook' })
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>

/** One event sent (or being sent) to one endpoint, as the delivery log shows it. */
export const webhookDeliverySchema = z
  .object({
    id: z.string(),
    eventType: webhookEventTypeSchema,
    /** The `webhook-id` header: the same on every attempt and redelivery (receivers dedupe on it). */
    messageId: z.string(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    /** Attempts made so far (redeliveries included). */
    attempts: z.number().int().min(0),
    /** The HTTP status of the last attempt, or null (none yet, refused, unreachable, timed out). */
    responseCode: z.number().int().nullable(),
    /** Why the last attempt failed, in words, or null. */
    error: z.string().nullable(),
    lastAttemptAt: z.string().nullable(),
    /** When the next retry is due, or null (none scheduled). */
    nextAttemptAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'WebhookDelivery' })
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>

/**
 * The JSON body of a job's event (Standard Webhooks' `type`, `timestamp`, `data`): ids, the
 * job's status and URLs the receiver can fetch with its API token; never a secret.
 */
export const jobWebhookEventSchema = z
  .object({
    type: z.enum(JOB_WEBHOOK_EVENT_TYPES),
    /** When the event happened (ISO 8601). */
    timestamp: z.string(),
    data: z.object({
      jobId: z.string(),
      /** The job's project, or null for a project-less job. */
      projectId: z.number().int().nullable(),
      /** The node that started it, when it has one. */
      nodeId: z.string().nullable(),
      /** The job's kind (`script`, `video`, `make-video`...). */
      kind: z.string(),
      status: z.enum(JOB_STATUSES),
      /** `GET /api/jobs/:id`, absolute. */
      jobUrl: z.string(),
      /** job.failed: the api error code and why, in words. */
      errorCode: z.string().nullable().optional(),
      message: z.string().nullable().optional(),
      /** video.rendered: the MP4's, SRT's and VTT's asset URLs, absolute, and its length. */
      mp4Url: z.string().optional(),
      srtUrl: z.string().optional(),
      vttUrl: z.string().optional(),
      durationMs: z.number().optional(),
    }),
  })
  .meta({ id: 'JobWebhookEvent' })

/** The JSON body of `batch.completed` (issue 42 item 3). */
export const batchWebhookEventSchema = z
  .object({
    type: z.literal('batch.completed'),
    /** When the batch's last row ended (ISO 8601). */
    timestamp: z.string(),
    data: batchCompletedEventSchema,
  })
  .meta({ id: 'BatchWebhookEvent' })

/** The JSON body of every delivery: a job's event or a batch's. */
export const webhookEventSchema = z
  .discriminatedUnion('type', [jobWebhookEventSchema, batchWebhookEventSchema])
  .meta({ id: 'WebhookEvent' })
export type WebhookEvent = z.infer<typeof webhookEventSchema>
