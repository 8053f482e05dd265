import {
  apiTokenListSchema,
  createdTokenSchema,
  createTokenInput,
  okSchema,
  serialIdSchema,
} from '@reelgraph/shared'
import { Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../app-env.ts'
import { docs } from '../../lib/openapi.ts'
import { validate } from '../../lib/validate.ts'
import { requireAuth, requireSignedIn } from '../../middleware/session.ts'
import { createApiToken, listApiTokens, revokeApiToken, tokenNotFound } from './token-service.ts'

const TAG = 'API tokens'

/**
 * `/api/tokens` (issue 41 item 1): a signed-in person makes, lists and revokes their
 * personal access tokens. Session only: a token cannot make or see tokens (these routes are
 * not in `ROUTE_SCOPES`, so a bearer request is a 403 SESSION_REQUIRED before it gets here).
 */
export const tokenRoutes = new Hono<AppEnv>()
  .use(requireSignedIn)
  .get(
    '/',
    docs({
      summary:
        'Your API tokens: name, scopes, projects, created, last used, expiry (never the secret)',
      tag: TAG,
      response: apiTokenListSchema,
    }),
    async (c) => c.json(await listApiTokens(c.var.db, { userId: requireAuth(c).user.id })),
  )
  .post(
    '/',
    docs({
      summary: 'Make an API token; the answer holds its secret, shown this once',
      description:
        'Send it as `Authorization: Bearer rg_…`. Scopes: projects:read, projects:write, generate (spends credits), billing:read. projectIds limits it to those projects; expiresInDays (1-366) ends it, left out it never expires.',
      tag: TAG,
      response: createdTokenSchema,
      status: 201,
    }),
    validate('json', createTokenInput),
    async (c) => {
      const { user } = requireAuth(c)
      const created = await createApiToken(c.var.db, { userId: user.id, ...c.req.valid('json') })
      return c.json(created, 201)
    },
  )
  .delete(
    '/:id',
    docs({ summary: 'Revoke an API token at once', tag: TAG, response: okSchema }),
    validate('param', z.object({ id: serialIdSchema }), { onInvalid: () => tokenNotFound() }),
    async (c) => {
      const { user } = requireAuth(c)
      await revokeApiToken(c.var.db, { userId: user.id, tokenId: c.req.valid('param').id })
      return c.json({ ok: true as const })
    },
  )
