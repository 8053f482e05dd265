import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { isAllowedOrigin } from '@reelgraph/shared'
import { Hono } from 'hono'
import type { AppEnv } from '../../app-env.ts'
import { PROJECT_BODY_LIMIT_BYTES } from '../../config.ts'
import { AppError } from '../../lib/app-error.ts'
import { acceptsGzip } from '../../lib/gzip-pieces.ts'
import { limitBody } from '../../middleware/body-limit.ts'
import { authenticateAuthorization } from '../tokens/token-service.ts'
import { JsonSplices } from './json-splice.ts'
import { createMcpServer } from './mcp-server.ts'

/**
 * `/mcp`: the MCP server over Streamable HTTP (issue 41 item 2, decision 030), stateless: each
 * POST carries its JSON-RPC message with `Authorization: Bearer rg_…` and is answered as JSON
 * by a server made for it, so any api process answers any call and nothing is kept between
 * calls. There is no session to resume and no server-sent stream: `GET` and `DELETE` are 405,
 * as the transport's specification allows. Programs send no cookie; a request that carries an
 * `Origin` (a browser page) must come from the app's own origins (the specification's guard
 * against DNS rebinding).
 */
export const mcpRoutes = new Hono<AppEnv>()
  .post('/', limitBody(PROJECT_BODY_LIMIT_BYTES), async (c) => {
    const origin = c.req.header('origin')
    if (origin && !isAllowedOrigin(origin, c.req.header('host'), c.var.deps.env.allowedOrigins)) {
      throw new AppError(
        'FORBIDDEN_ORIGIN',
        'The MCP server does not take requests from other web pages. Call it from a program or an MCP client.',
      )
    }
    const actor = await authenticateAuthorization(c.var.db, {
      authorization: c.req.header('authorization'),
    })
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: PROJECT_BODY_LIMIT_BYTES,
    })
    const splices = new JsonSplices()
    const server = createMcpServer({
      deps: c.var.deps,
      actor,
      origin: new URL(c.req.url).origin,
      logger: c.var.logger,
      splices,
    })
    await server.connect(transport)
    try {
      return await splices.apply(await transport.handleRequest(c.req.raw), {
        gzip: acceptsGzip(c.req.header('accept-encoding')),
      })
    } finally {
      await server.close()
    }
  })
  .on(['GET', 'DELETE'], '/', (c) =>
    c.json(
      {
        jsonrpc: '2.0',
        error: {
          code: -32000,
          message: 'Method not allowed: this MCP server is stateless; send each message as a POST.',
        },
        id: null,
      },
      405,
      { Allow: 'POST' },
    ),
  )
