import {
  createdWebhookSchema,
  createWebhookInput,
  okSchema,
  webhookDeliverySchema,
  webhookIdSchema,
  webhookSchema,
} from '@reelgraph/shared'
import { Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../app-env.ts'
import { docs } from '../../lib/openapi.ts'
import { outboundSettings } from '../../lib/outbound/guarded-fetch.ts'
import { validate } from '../../lib/validate.ts'
import { requireAuth, requireSignedIn } from '../../middleware/session.ts'
import {
  createWebhook,
  deleteWebhook,
  deliveryNotFound,
  listDeliveries,
  listWebhooks,
  redeliver,
  webhookNotFound,
} from './webhook-service.ts'

const TAG = 'Webhooks'

/** `/api/webhooks/:id`: an id that is not a webhook id is a webhook that does not exist. */
const validateWebhookParams = () =>
  validate('param', z.object({ id: webhookIdSchema }), { onInvalid: () => webhookNotFound() })

/** `/api/webhooks/:id/deliveries/:deliveryId`: a bad id is a 404 of what it names. */
const validateDeliveryParams = () =>
  validate('param', z.object({ id: webhookIdSchema, deliveryId: webhookIdSchema }), {
    onInvalid: (field) => (field === 'id' ? webhookNotFound() : deliveryNotFound()),
  })

/**
 * `/api/webhooks` (issue 41 item 3): an account's signed webhooks and their delivery logs, for
 * their owner only (anyone else: 404).
 */
export const webhookEndpointRoutes = new Hono<AppEnv>()
  // Signed-out callers get 401 before any validator reads the path, query or body (issue 40 item 7).
  .use(requireSignedIn)
  .get(
    '/',
    docs({
      summary: 'The account’s webhooks, newest first (never their secrets)',
      tag: TAG,
      response: z.array(webhookSchema),
    }),
    async (c) => c.json(await listWebhooks(c.var.db, requireAuth(c).user.id)),
  )
  .post(
    '/',
    docs({
      summary: 'Create a webhook: its signing secret is answered this once',
      description:
        'Events are POSTed to `url` as the Standard Webhooks specification says (webhook-id, webhook-timestamp, webhook-signature). The URL must be https to a public address, unless the operator allowed the host with OUTBOUND_ALLOW_HOSTS. With `projectId` (a project you are a member of), only that project’s events.',
      tag: TAG,
      response: createdWebhookSchema,
      status: 201,
    }),
    validate('json', createWebhookInput),
    async (c) => {
      const { user } = requireAuth(c)
      const created = await createWebhook(c.var.db, {
        userId: user.id,
        input: c.req.valid('json'),
        allow: outboundSettings(c.var.deps.env).allow,
      })
      return c.json(created, 201)
    },
  )
  .delete(
    '/:id',
    docs({ summary: 'Delete a webhook and its delivery log', tag: TAG, response: okSchema }),
    validateWebhookParams(),
    async (c) => {
      const { user } = requireAuth(c)
      await deleteWebhook(c.var.db, { userId: user.id, webhookId: c.req.valid('param').id })
      return c.json({ ok: true as const })
    },
  )
  .get(
    '/:id/deliveries',
    docs({
      summary: 'A webhook’s newest deliveries: status, attempts, last response code and time',
      tag: TAG,
      response: z.array(webhookDeliverySchema),
    }),
    validateWebhookParams(),
    async (c) => {
      const { user } = requireAuth(c)
      return c.json(
        await listDeliveries(c.var.db, { userId: user.id, webhookId: c.req.valid('param').id }),
      )
    },
  )
  .post(
    '/:id/deliveries/:deliveryId/redeliver',
    docs({
      summary:
        'Send a delivery again now (one attempt; a success turns a disabled webhook back on)',
      tag: TAG,
      response: webhookDeliverySchema,
    }),
    validateDeliveryParams(),
    async (c) => {
      const { user } = requireAuth(c)
      const { id: webhookId, deliveryId } = c.req.valid('param')
      return c.json(await redeliver(c.var.deps, { userId: user.id, webhookId, deliveryId }))
    },
  )
