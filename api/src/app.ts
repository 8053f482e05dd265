import { Hono } from 'hono'
import {
  MAX_AUDIO_UPLOAD_BYTES,
  MCP_PATH,
  TEMPLATE_PROJECT_BODY_MAX_BYTES,
} from '@reelgraph/shared'
import { requestId } from 'hono/request-id'
import { secureHeaders } from 'hono/secure-headers'
import { generateSpecs } from 'hono-openapi'
import type { AppDeps, AppEnv } from './app-env.ts'
import { BODY_LIMIT_BYTES, PROJECT_BODY_LIMIT_BYTES } from './config.ts'
import { assetRoutes } from './features/assets/asset-routes.ts'
import { BATCHES_PATH, requireJsonOrCsvBody } from './features/batches/batch-body.ts'
import { batchRoutes } from './features/batches/batch-routes.ts'
import { authRoutes } from './features/auth/auth-routes.ts'
import {
  creditPackageRoutes,
  purchaseCreditsRoutes,
  subscriptionRoutes,
} from './features/billing/billing-routes.ts'
import { sandboxRoutes } from './features/billing/sandbox-routes.ts'
import { webhookRoutes } from './features/billing/webhook-routes.ts'
import { aiRoutes, imageRoutes } from './features/generation/generation-routes.ts'
import { healthRoutes } from './features/health/health-routes.ts'
import { metricsRoutes } from './features/metrics/metrics-routes.ts'
import { jobRoutes } from './features/jobs/job-routes.ts'
import { mcpRoutes } from './features/mcp/mcp-routes.ts'
import { videoRoutes } from './features/video/video-routes.ts'
import { invitationRoutes } from './features/members/invitation-routes.ts'
import { memberRoutes } from './features/members/member-routes.ts'
import { projectRoutes } from './features/projects/project-routes.ts'
import { runRoutes } from './features/runs/run-routes.ts'
import { withTokenSecurity } from './features/tokens/openapi-security.ts'
import { tokenRoutes } from './features/tokens/token-routes.ts'
import { projectFromTemplateRoutes, templateRoutes } from './features/templates/template-routes.ts'
import { userRoutes } from './features/user/user-routes.ts'
import { webRoutes } from './features/web/web-routes.ts'
import { webhookEndpointRoutes } from './features/webhooks/webhook-routes.ts'
import { AppError } from './lib/app-error.ts'
import { errorHandler } from './middleware/error-handler.ts'
import { limitBody } from './middleware/body-limit.ts'
import { requireJsonBody } from './middleware/json-body.ts'
import { requireUploadBody, UPLOAD_PATHS } from './middleware/upload-body.ts'
import { requestContext } from './middleware/request-context.ts'
import { authenticateRequest } from './middleware/bearer-token.ts'

/** Options of {@link createApp}. */
export interface AppOptions {
  /** Serve this built web app for non-API paths (omit in dev, where Vite serves it). */
  webDistDir?: string | undefined
}

/**
 * The app's own origins as WebSocket sources: `http://host:port` -> `ws://host:port`,
 * `https://host` -> `wss://host`. Browsers of CSP 3 count same-origin ws(s) as `'self'`,
 * older ones do not, so the sync socket's origins are listed (issue 11 item 10).
 * @param allowedOrigins serialized http(s) origins (APP_URL's and ALLOWED_ORIGINS)
 */
export function webSocketSources(allowedOrigins: readonly string[]): string[] {
  const sources = allowedOrigins.map((origin) => origin.replace(/^http(s?):/, 'ws$1:'))
  return [...new Set(sources.filter((s) => /^wss?:\/\//.test(s)))]
}

/** The Content-Security-Policy: everything from the app itself, sockets to its own origins only. */
function contentSecurityPolicy(allowedOrigins: readonly string[]) {
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    // Radix positions popovers with inline styles.
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    connectSrc: ["'self'", ...webSocketSources(allowedOrigins)],
    fontSrc: ["'self'", 'data:'],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
  }
}

const defaultBodyLimit = limitBody(BODY_LIMIT_BYTES)
const projectBodyLimit = limitBody(PROJECT_BODY_LIMIT_BYTES)
const musicBodyLimit = limitBody(MAX_AUDIO_UPLOAD_BYTES)
// A project from a template may carry an uploaded picture as a data: URL (issue 42 item 2).
const fromTemplateBodyLimit = limitBody(TEMPLATE_PROJECT_BODY_MAX_BYTES)

/** The body limit of a request: music uploads and project bodies are larger than the rest. */
function bodyLimitOf(path: string) {
  if (UPLOAD_PATHS.has(path)) return musicBodyLimit
  if (path === '/api/projects/from-template') return fromTemplateBodyLimit
  return path.startsWith('/api/projects') ? projectBodyLimit : defaultBodyLimit
}

function buildApi() {
  return (
    new Hono<AppEnv>()
      .use('*', (c, next) => bodyLimitOf(c.req.path)(c, next))
      // Stripe's webhook is authenticated by its signature, not by Origin or session: it is
      // answered here, before those checks run.
      .route('/stripe', webhookRoutes)
      .use((c, next) =>
        UPLOAD_PATHS.has(c.req.path)
          ? requireUploadBody(c, next)
          : c.req.path === BATCHES_PATH // JSON rows or a CSV table (issue 42 item 3)
            ? requireJsonOrCsvBody(c, next)
            : requireJsonBody(c, next),
      )
      // A bearer token (issue 41 item 1), else the Origin check and the session cookie.
      .use(authenticateRequest)
      .route('/', authRoutes)
      .route('/user', userRoutes)
      .route('/projects/from-template', projectFromTemplateRoutes)
      .route('/projects', projectRoutes)
      .route('/projects/:id', memberRoutes)
      .route('/projects/:id', runRoutes)
      .route('/invitations', invitationRoutes)
      .route('/assets', assetRoutes)
      .route('/subscription', subscriptionRoutes)
      .route('/credit-packages', creditPackageRoutes)
      .route('/purchase-credits', purchaseCreditsRoutes)
      .route('/ai', aiRoutes)
      .route('/csas', imageRoutes)
      .route('/jobs', jobRoutes)
      .route('/video', videoRoutes)
      .route('/tokens', tokenRoutes)
      .route('/webhooks', webhookEndpointRoutes)
      .route('/templates', templateRoutes)
      .route('/batches', batchRoutes)
  )
}

/**
 * Builds the HTTP app: health checks, the JSON API under `/api`, its OpenAPI document at
 * `/api/openapi.json`, and (optionally) the built web app for every other path.
 * Errors anywhere are rendered by one `onError` as `{ "error": { "code", "message" } }`.
 */
export function createApp(deps: AppDeps, options: AppOptions = {}) {
  const api = buildApi()
  // The document with the session and bearer schemes and each route's token scope (issue 41).
  let openApiDocument: Promise<unknown> | undefined
  api.get('/openapi.json', async (c) => {
    openApiDocument ??= generateSpecs(
      api,
      {
        documentation: {
          info: {
            title: 'Reelgraph API',
            version: '0.1.0',
            description:
              'Accounts, credits, projects, billing and AI generation for Reelgraph. Programs call it with a personal access token, `Authorization: Bearer rg_…`, on the operations that list a bearer scope.',
          },
          servers: [{ url: '/api' }],
        },
        // A refused request answers the app's error body (`docs()`' default response), not
        // hono-openapi's own validation shape.
        defaultValidationErrorResponse: false,
      },
      c,
    )
      .then(withTokenSecurity)
      .catch((err: unknown) => {
        openApiDocument = undefined
        throw err
      })
    return c.json(await openApiDocument)
  })
  api.all('*', (c) => {
    throw new AppError('NOT_FOUND', `There is no API route ${c.req.method} ${c.req.path}.`)
  })

  const app = new Hono<AppEnv>()
  app.use(requestId())
  app.use(requestContext(deps))
  app.use(secureHeaders({ contentSecurityPolicy: contentSecurityPolicy(deps.env.allowedOrigins) }))
  app.route('/', healthRoutes)
  app.route('/', metricsRoutes)
  // Server-rendered pages posting forms, so outside the JSON API (and before its catch-all).
  app.route('/api/billing-sandbox', sandboxRoutes)
  app.route('/api', api)
  // The MCP server for agents (issue 41 item 2): bearer tokens only, outside the JSON API.
  app.route(MCP_PATH, mcpRoutes)
  if (options.webDistDir) app.route('/', webRoutes(options.webDistDir))
  app.notFound((c) => errorHandler(new AppError('NOT_FOUND', 'Not found.'), c))
  app.onError(errorHandler)
  return app
}
