import type { TokenScope } from '@reelgraph/shared'

/**
 * Which API routes take a bearer token, and the scope each needs (issue 41 item 1, decision
 * 027): the one map. A route missing here takes only a signed-in session, and a token sent
 * to it is a 403 SESSION_REQUIRED (the account, sharing, billing changes, the tokens
 * themselves, and every route added later until it is listed). `null`: a public route, where
 * a token is checked but needs no scope. `route-scopes.test.ts` calls every private route of
 * the app with a token of every scope; the OpenAPI document lists each route's scope.
 *
 * Keys are `METHOD path` as the app registers the route (`createApp(deps).routes`).
 */
export const ROUTE_SCOPES: Readonly<Record<string, TokenScope | null>> = {
  // Projects (spec §7) and who is on them.
  'GET /api/projects': 'projects:read',
  'GET /api/projects/:id': 'projects:read',
  'GET /api/projects/:id/members': 'projects:read',
  // The graph file (issue 42 item 2): any member exports; an import makes a project.
  'GET /api/projects/:id/export.json': 'projects:read',
  'POST /api/projects': 'projects:write',
  'POST /api/projects/import': 'projects:write',
  'PATCH /api/projects/:id': 'projects:write',
  'DELETE /api/projects/:id': 'projects:write',
  // Files, jobs, the models and voices a program picks from.
  'GET /api/assets/:id': 'projects:read',
  'POST /api/assets/audio': 'projects:write',
  'GET /api/jobs/:id': 'projects:read',
  'GET /api/ai/providers': 'projects:read',
  'GET /api/ai/models': 'projects:read',
  'GET /api/csas/models': 'projects:read',
  'GET /api/video/voices': 'projects:read',
  'GET /api/video/narrations': 'projects:read',
  'GET /api/video/render-quote': 'projects:read',
  // The export for an editor reads a render (viewers may), spends nothing.
  'POST /api/video/export': 'projects:read',
  // Generation: spends credits (or runs a provider), and stops it.
  'POST /api/ai/generate-script': 'generate',
  'POST /api/ai/generate-scenes': 'generate',
  'POST /api/ai/generate-video': 'generate',
  'POST /api/csas/generate-image': 'generate',
  'POST /api/video/render': 'generate',
  'POST /api/video/make': 'generate',
  'POST /api/video/narration-preview': 'generate',
  'POST /api/jobs/:id/cancel': 'generate',
  // Runs of a project's stale generators (issue 42 item 4): the quote reads, the run spends.
  'GET /api/projects/:id/run-quote': 'projects:read',
  'POST /api/projects/:id/run': 'generate',
  // Webhooks (issue 41 item 3): a program hears its jobs; a project-limited token only its
  // projects' endpoints.
  'GET /api/webhooks': 'projects:read',
  'GET /api/webhooks/:id/deliveries': 'projects:read',
  'POST /api/webhooks': 'projects:write',
  'DELETE /api/webhooks/:id': 'projects:write',
  'POST /api/webhooks/:id/deliveries/:deliveryId/redeliver': 'projects:write',
  // Templates (issue 42 item 2): reading them; saving, deleting, and a project made from one.
  'GET /api/templates': 'projects:read',
  'GET /api/templates/:id/preview': 'projects:read',
  'POST /api/templates': 'projects:write',
  'DELETE /api/templates/:id': 'projects:write',
  'POST /api/projects/from-template': 'projects:write',
  // Batch runs (issue 42 item 3): reading them; quoting stores a quote; starting and retrying
  // spend credits, cancelling stops jobs. Refused to project-limited tokens (they make projects).
  'GET /api/batches': 'projects:read',
  'GET /api/batches/:id': 'projects:read',
  'GET /api/batches/:id/files.zip': 'projects:read',
  'POST /api/batches': 'projects:write',
  'POST /api/batches/:id/start': 'generate',
  'POST /api/batches/:id/retry': 'generate',
  'POST /api/batches/:id/cancel': 'generate',
  // Reads of the account's money and storage; never a change.
  'GET /api/user/credits': 'billing:read',
  'GET /api/user/storage': 'billing:read',
  'GET /api/subscription/status': 'billing:read',
  // Public: anyone may call them; a token sent along must still be valid.
  'GET /api/subscription/plans': null,
  'GET /api/credit-packages': null,
  'GET /api/openapi.json': null,
}

/** The key of a route in {@link ROUTE_SCOPES}: `GET /api/projects/:id`. */
export function routeKey(method: string, path: string): string {
  return `${method} ${path}`
}
