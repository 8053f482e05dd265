import { sessionCookieName } from '@reelgraph/shared'
import { ROUTE_SCOPES, routeKey } from './route-scopes.ts'

/**
 * The OpenAPI document's security (issue 41 items 1 and 4): the session cookie and the
 * bearer token as schemes, and on each operation that takes a token, the scope it needs,
 * read from `ROUTE_SCOPES` (the same map the bearer middleware enforces).
 */

/** The two ways to call the API, as OpenAPI security schemes. */
export const SECURITY_SCHEMES = {
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: sessionCookieName(false),
    description: `The web app's session cookie (\`${sessionCookieName(true)}\` under https), from POST /api/login. State-changing calls also need the app's Origin.`,
  },
  bearerToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'A personal access token (`rg_…`) made under Settings → API tokens: `Authorization: Bearer rg_…`. Each operation lists the scope it needs; one without a bearer option takes only a session.',
  },
} as const

/** The parts of an OpenAPI document this reads and writes. */
interface OpenApiDocument {
  paths?: Record<string, Record<string, unknown> | undefined>
  components?: Record<string, unknown>
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])

/**
 * `doc` with {@link SECURITY_SCHEMES} and, on each operation of `ROUTE_SCOPES`, `security`:
 * the session, or a bearer token with the route's scope (`x-token-scope` names it too). The
 * paths are as the document writes them under the `/api` server (`/projects/{id}`).
 * @returns the same document, changed in place.
 */
export function withTokenSecurity<T extends object>(doc: T): T {
  const target = doc as unknown as OpenApiDocument
  target.components = { ...target.components, securitySchemes: SECURITY_SCHEMES }
  for (const [path, item] of Object.entries(target.paths ?? {})) {
    for (const [method, operation] of Object.entries(item ?? {})) {
      if (!METHODS.has(method) || typeof operation !== 'object' || operation === null) continue
      const key = routeKey(method.toUpperCase(), `/api${path.replace(/\{(\w+)\}/g, ':$1')}`)
      const scope = ROUTE_SCOPES[key]
      if (scope === undefined) continue
      Object.assign(operation, {
        security:
          scope === null ? [{}, { bearerToken: [] }] : [{ session: [] }, { bearerToken: [scope] }],
        'x-token-scope': scope,
      })
    }
  }
  return doc
}
