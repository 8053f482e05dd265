import {
  BATCH_CSV_MAX_BYTES,
  BATCH_MAX_ROWS,
  batchCsvQuerySchema,
  batchIdTextSchema,
  batchListSchema,
  batchSchema,
  createBatchInput,
  TOKEN_MESSAGES,
} from '@reelgraph/shared'
import { Hono } from 'hono'
import { createMiddleware } from 'hono/factory'
import { z } from 'zod'
import type { AppEnv } from '../../app-env.ts'
import { AppError } from '../../lib/app-error.ts'
import { attachmentDisposition } from '../../lib/content-disposition.ts'
import { docs } from '../../lib/openapi.ts'
import { validate } from '../../lib/validate.ts'
import { requireAuth, requireSignedIn } from '../../middleware/session.ts'
import { allowedProjectIds } from '../access/project-limit.ts'
import { isCsvRequest, unlessCsv } from './batch-body.ts'
import { batchFiles } from './batch-files.ts'
import {
  batchNotFound,
  cancelBatch,
  createBatch,
  createBatchFromCsv,
  getBatch,
  listBatches,
  retryBatch,
  startBatch,
} from './batch-service.ts'

const TAG = 'Batches'

/** `/api/batches/:id`: an id that is not a batch id is a batch that does not exist. */
const validateBatchParams = () =>
  validate('param', z.object({ id: batchIdTextSchema }), { onInvalid: () => batchNotFound() })

/**
 * A batch makes projects in the account: a token limited to some projects may not run or read
 * batches (as it may not create projects).
 */
const refuseProjectLimited = createMiddleware<AppEnv>(async (_c, next) => {
  if (allowedProjectIds() !== null) throw new AppError('FORBIDDEN', TOKEN_MESSAGES.projectLimited)
  return next()
})

/**
 * `/api/batches` (issue 42 item 3): quote a batch from rows of values (JSON) or a CSV table,
 * start it, follow it, cancel it, retry its failed rows, download its files. The owner only
 * (anyone else: 404).
 */
export const batchRoutes = new Hono<AppEnv>()
  // Signed-out callers get 401 before any validator reads the path, query or body (issue 40 item 7).
  .use(requireSignedIn)
  .use(refuseProjectLimited)
  .get(
    '/',
    docs({
      summary: 'Your batches, newest first, without their rows',
      tag: TAG,
      response: batchListSchema,
    }),
    async (c) => c.json(await listBatches(c.var.db, { userId: requireAuth(c).user.id })),
  )
  .post(
    '/',
    docs({
      summary: 'Quote a batch: a template and rows of values (JSON), or a CSV table',
      description: `Answers the batch (201, status \`quoted\`) with its quote: the credits of every row's Make video and an estimate of the time; nothing runs or is charged until \`POST /api/batches/:id/start\`. Send JSON \`{ templateId, rows }\`, or a CSV table with \`Content-Type: text/csv\` and \`?templateId=\` (at most ${BATCH_CSV_MAX_BYTES / 1024 / 1024} MiB): its header names the template's variables, each line below is a row. At most ${BATCH_MAX_ROWS} rows. A table with a missing or unknown column, too many rows, or a bad row (a value missing, empty, too long, no picture for an image) is refused with 400 naming the column, the limit or the row ("Row 3: …"), and nothing is stored. 404 for a template you cannot use.`,
      tag: TAG,
      response: batchSchema,
      status: 201,
      requestFile: ['text/csv'],
      parameters: [
        {
          in: 'query',
          name: 'templateId',
          description: 'With a text/csv body: the template whose variables the header names.',
        },
      ],
    }),
    unlessCsv(validate('json', createBatchInput)),
    async (c) => {
      const { user } = requireAuth(c)
      if (isCsvRequest(c)) {
        const query = batchCsvQuerySchema.safeParse(c.req.query())
        if (!query.success) {
          throw new AppError('VALIDATION_FAILED', query.error.issues[0]!.message, {
            fields: { templateId: query.error.issues[0]!.message },
          })
        }
        const batch = await createBatchFromCsv(c.var.deps, {
          userId: user.id,
          templateId: query.data.templateId,
          body: new Uint8Array(await c.req.arrayBuffer()),
        })
        return c.json(batch, 201)
      }
      const input = c.req.valid('json')
      return c.json(await createBatch(c.var.deps, { userId: user.id, ...input }), 201)
    },
  )
  .get(
    '/:id',
    docs({
      summary: 'A batch: its quote, its state, what it spent, and every row',
      description:
        'Each row: its state, progress (0..1) and stage, its credits after refunds, its project and job, and once it succeeded its MP4, SRT and the first scene’s picture; a failed row says why.',
      tag: TAG,
      response: batchSchema,
    }),
    validateBatchParams(),
    async (c) =>
      c.json(
        await getBatch(c.var.deps, {
          userId: requireAuth(c).user.id,
          batchId: c.req.valid('param').id,
        }),
      ),
  )
  .post(
    '/:id/start',
    docs({
      summary: 'Start a quoted batch: its rows run, a few at a time',
      description:
        'Each row becomes a project named from its values and a Make video job, charged when it is submitted. 402 when your balance is below the quote; 400 when the batch has already started.',
      tag: TAG,
      response: batchSchema,
    }),
    validateBatchParams(),
    async (c) =>
      c.json(
        await startBatch(c.var.deps, {
          userId: requireAuth(c).user.id,
          batchId: c.req.valid('param').id,
        }),
      ),
  )
  .post(
    '/:id/cancel',
    docs({
      summary: 'Cancel a batch: rows not started are cancelled, running rows’ jobs cancelled',
      description:
        'The job system refunds what each cancelled job did not deliver. Finished rows stay as they are.',
      tag: TAG,
      response: batchSchema,
    }),
    validateBatchParams(),
    async (c) =>
      c.json(
        await cancelBatch(c.var.deps, {
          userId: requireAuth(c).user.id,
          batchId: c.req.valid('param').id,
        }),
      ),
  )
  .post(
    '/:id/retry',
    docs({
      summary: 'Run the failed rows again, each charged again',
      description:
        '402 when your balance is below what the failed rows cost; 400 when no row failed, or the batch was cancelled or has not started.',
      tag: TAG,
      response: batchSchema,
    }),
    validateBatchParams(),
    async (c) =>
      c.json(
        await retryBatch(c.var.deps, {
          userId: requireAuth(c).user.id,
          batchId: c.req.valid('param').id,
        }),
      ),
  )
  .get(
    '/:id/files.zip',
    docs({
      summary: 'A ZIP of every succeeded row’s MP4 and SRT',
      description:
        'Named from the rows’ project names. 409 NOT_RENDERED while no row has succeeded.',
      tag: TAG,
      file: 'application/zip',
    }),
    validateBatchParams(),
    async (c) => {
      const files = await batchFiles(c.var.deps, {
        userId: requireAuth(c).user.id,
        batchId: c.req.valid('param').id,
      })
      return c.body(files.zip, 200, {
        'Content-Type': 'application/zip',
        'Content-Disposition': attachmentDisposition(files.fileName),
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
      })
    },
  )
