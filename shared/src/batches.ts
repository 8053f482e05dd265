import { z } from 'zod'
import { databaseIdTextSchema } from './ids.ts'
import { templateIdSchema, templateValuesSchema } from './templates.ts'

/**
 * Batch runs from a table (issue 42 item 3): a template times rows of values. `POST
 * /api/batches` (JSON rows, or a CSV body with `?templateId=`) answers a quote (the credits
 * and an estimate of the time) and stores nothing runnable until `POST /api/batches/:id/start`
 * confirms; each row then becomes a project named from its values and a Make video job. What
 * the api, the web's batch page, MCP and the webhook agree on.
 */

/** The most rows one batch may have. */
export const BATCH_MAX_ROWS = 500
/** The largest CSV body `POST /api/batches?templateId=` reads, in bytes (500 rows of 500 characters and more). */
export const BATCH_CSV_MAX_BYTES = 1024 * 1024

/** A batch's state: quoted (not started), running, done (every row finished), cancelled. */
export const BATCH_STATUSES = ['quoted', 'running', 'done', 'cancelled'] as const
export type BatchStatus = (typeof BATCH_STATUSES)[number]

/** A row's state. `failed` rows are refunded; `retry` queues them again. */
export const BATCH_ROW_STATUSES = [
  'quoted',
  'queued',
  'running',
  'succeeded',
  'failed',
  'cancelled',
] as const
export type BatchRowStatus = (typeof BATCH_ROW_STATUSES)[number]

/** Row states that are final. */
export const BATCH_ROW_FINAL: ReadonlySet<BatchRowStatus> = new Set([
  'succeeded',
  'failed',
  'cancelled',
])

/** `POST /api/batches` with JSON: the template and its rows of values. */
export const createBatchInput = z
  .object({
    templateId: templateIdSchema,
    rows: z
      .array(templateValuesSchema)
      .min(1, 'Give at least one row.')
      .max(BATCH_MAX_ROWS, `A batch has at most ${BATCH_MAX_ROWS} rows.`),
  })
  .meta({ id: 'CreateBatchInput' })
export type CreateBatchInput = z.infer<typeof createBatchInput>

/** `?templateId=` of a CSV `POST /api/batches`. */
export const batchCsvQuerySchema = z.object({
  templateId: databaseIdTextSchema('templateId must be the id of a template you can use.'),
})

/** A batch id in a path. */
export const batchIdTextSchema = databaseIdTextSchema('Not a batch id.')

/** What a table is refused for, in words that name the row (1 is the first row of values). */
export const BATCH_MESSAGES = {
  tooManyRows: (count: number) =>
    `This table has ${count} rows; a batch has at most ${BATCH_MAX_ROWS}. Split it into several batches.`,
  noRows: 'The table has no rows of values under its header.',
  missingColumn: (name: string) =>
    `The table has no column "${name}": its header must name every variable of the template.`,
  unknownColumn: (name: string) =>
    `The template has no variable "${name}" for the column "${name}".`,
  row: (row: number, message: string) => `Row ${row}: ${message}`,
  notCsv: (detail: string) => `This is not a CSV table the batch can read: ${detail}`,
  notEnoughCredits: (needed: number, balance: number) =>
    `This batch costs ${needed} credits and you have ${balance}. Buy credits or remove rows.`,
  notQuoted: 'This batch has already started.',
  notFound: 'This batch does not exist.',
  /** More problems than a message lists: how many were left out. */
  moreProblems: (count: number) => `and ${count} more ${count === 1 ? 'problem' : 'problems'}`,
  nothingToRetry: 'No row of this batch failed, so there is nothing to retry.',
  retryCancelled: 'This batch was cancelled; start a new batch to run its rows again.',
  retryQuoted: 'This batch has not started yet: start it.',
  noMakeVideo: 'The template has no Script Generator to make a video from.',
} as const

/** The most row problems a refusal lists (the rest are counted). */
export const BATCH_PROBLEMS_LISTED = 10

/** The quote: what the whole batch costs and about how long it takes. */
export const batchQuoteSchema = z
  .object({
    /** Credits for every row's Make video. */
    credits: z.number().int(),
    /** Credits for one row. */
    creditsPerRow: z.number().int(),
    /** About how long the whole batch takes, in seconds, with its concurrency. */
    estimatedSeconds: z.number().int(),
    /** How many rows run at once for this account. */
    concurrency: z.number().int(),
  })
  .meta({ id: 'BatchQuote' })
export type BatchQuote = z.infer<typeof batchQuoteSchema>

/** One row of a batch as `GET /api/batches/:id` answers it. */
export const batchRowSchema = z
  .object({
    /** The row's number in the table: 1 for the first row of values. */
    row: z.number().int(),
    values: z.record(z.string(), z.string()),
    status: z.enum(BATCH_ROW_STATUSES),
    /** 0..1 while it runs; 1 when it succeeded. */
    progress: z.number(),
    /** What it is doing, in words ("Rendering video"), or ''. */
    stage: z.string(),
    /** The project the row made (null until it starts). */
    projectId: z.number().int().nullable(),
    projectName: z.string().nullable(),
    /** Its current Make video job. */
    jobId: z.string().nullable(),
    /** Credits it cost after refunds. */
    credits: z.number().int(),
    mp4Url: z.string().nullable(),
    srtUrl: z.string().nullable(),
    /** A picture of the video (its first scene's image) once done. */
    thumbnailUrl: z.string().nullable(),
    /** Why it failed, in words, or null. */
    error: z.string().nullable(),
  })
  .meta({ id: 'BatchRow' })
export type BatchRow = z.infer<typeof batchRowSchema>

/** A batch: its quote, its state, what it spent so far, and its rows. */
export const batchSchema = z
  .object({
    id: z.number().int(),
    templateId: z.number().int(),
    templateName: z.string(),
    status: z.enum(BATCH_STATUSES),
    quote: batchQuoteSchema,
    /** Credits spent so far, after refunds. */
    spentCredits: z.number().int(),
    counts: z.record(z.enum(BATCH_ROW_STATUSES), z.number().int()),
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    /** The ZIP of every MP4 and SRT (`/api/batches/:id/files.zip`), once a row succeeded. */
    zipUrl: z.string().nullable(),
    rows: z.array(batchRowSchema),
  })
  .meta({ id: 'Batch' })
export type Batch = z.infer<typeof batchSchema>

/** A batch as `GET /api/batches` lists it: without its rows. */
export const batchSummarySchema = batchSchema.omit({ rows: true }).meta({ id: 'BatchSummary' })
export type BatchSummary = z.infer<typeof batchSummarySchema>

/** `GET /api/batches`: the account's batches, newest first (at most {@link BATCHES_LISTED}). */
export const batchListSchema = z
  .object({ batches: z.array(batchSummarySchema) })
  .meta({ id: 'BatchList' })
export type BatchList = z.infer<typeof batchListSchema>

/** How many batches `GET /api/batches` answers: the newest. */
export const BATCHES_LISTED = 50

/**
 * The `batch.completed` webhook's `data`: sent once each time every row of a batch is final
 * (again after a retry's rows are final). URLs are absolute, for the receiver's API token.
 */
export const batchCompletedEventSchema = z.object({
  batchId: z.number().int(),
  templateId: z.number().int(),
  status: z.enum(BATCH_STATUSES),
  counts: z.record(z.enum(BATCH_ROW_STATUSES), z.number().int()),
  spentCredits: z.number().int(),
  /** `GET /api/batches/:id`, absolute. */
  batchUrl: z.string(),
  /** `GET /api/batches/:id/files.zip`, absolute, or null when no row succeeded. */
  zipUrl: z.string().nullable(),
})
export type BatchCompletedEvent = z.infer<typeof batchCompletedEventSchema>
