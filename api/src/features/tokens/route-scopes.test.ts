import { testDatabaseKinds } from '@reelgraph/db/testing'
import { TOKEN_MESSAGES, TOKEN_SCOPES } from '@reelgraph/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../app.ts'
import { addUser } from '../../testing/members.ts'
import { createTestApp, type TestApp, type TestResponse } from '../../testing/test-app.ts'
import { ROUTE_SCOPES, routeKey } from './route-scopes.ts'
import { createApiToken } from './token-service.ts'

const [pglite] = testDatabaseKinds()

/** Path parameters no validator accepts, and a query string every query schema refuses. */
const BAD_PARAM = '2147483648'
const BAD_QUERY = '?projectId=abc&nodeId=&kind=nope&limit=-1'

describe('the scope of every API route (issue 41 item 1)', () => {
  let t: TestApp
  let app: ReturnType<typeof createApp>
  const routes: { method: string; path: string }[] = []

  beforeAll(async () => {
    if (!pglite) throw new Error('no test database')
    t = await createTestApp(pglite)
    app = createApp(t.deps)
    const seen = new Set<string>()
    for (const { method, path } of app.routes) {
      const key = routeKey(method, path)
      if (method === 'ALL' || path.includes('*') || seen.has(key)) continue
      if (!path.startsWith('/api/') || path.startsWith('/api/billing-sandbox/')) continue
      // Stripe's webhook is answered before any authentication: its signature is its check.
      if (key === 'POST /api/stripe/webhook') continue
      seen.add(key)
      routes.push({ method, path })
    }
  })
  afterAll(() => t.close())

  it('names only routes the app has', () => {
    const found = new Set(routes.map(({ method, path }) => routeKey(method, path)))
    expect(Object.keys(ROUTE_SCOPES).filter((key) => !found.has(key))).toEqual([])
    expect(routes.length).toBeGreaterThan(45)
  })

  it('lets a token of every scope through to each route of the map, and refuses it on every other', async () => {
    const user = await addUser(t, 'Program')
    const { token } = await createApiToken(t.deps.db, {
      userId: user.id,
      name: 'All',
      scopes: [...TOKEN_SCOPES],
    })
    const answers: string[] = []
    const expected: string[] = []
    for (const { method, path } of routes) {
      const key = routeKey(method, path)
      const upload = path === '/api/assets/audio'
      const body =
        method === 'GET' || method === 'DELETE'
          ? undefined
          : upload
            ? 'not audio at all'
            : JSON.stringify({ projectId: 'abc', nodeId: 12, format: 'zip', topic: null })
      const res = await app.request(path.replace(/:[A-Za-z]+/g, BAD_PARAM) + BAD_QUERY, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined
            ? {}
            : {
                'content-type': upload ? 'audio/mpeg' : 'application/json',
                'content-length': String(Buffer.byteLength(body)),
              }),
        },
        body,
      })
      const answer = (await res.json().catch(() => null)) as { error?: { code: string } } | null
      const refused = res.status === 403 && answer?.error?.code === 'SESSION_REQUIRED'
      const unauthenticated = res.status === 401
      answers.push(`${key} -> ${refused ? 'session only' : unauthenticated ? '401' : 'token'}`)
      expected.push(`${key} -> ${key in ROUTE_SCOPES ? 'token' : 'session only'}`)
    }
    expect(answers).toEqual(expected)
    // Those the issue names, so the map cannot quietly shrink.
    expect(ROUTE_SCOPES).toMatchObject({
      'GET /api/projects': 'projects:read',
      'POST /api/projects': 'projects:write',
      'POST /api/video/make': 'generate',
      'GET /api/user/credits': 'billing:read',
    })
    for (const sessionOnly of ['GET /api/tokens', 'POST /api/tokens', 'DELETE /api/tokens/:id']) {
      expect(expected).toContain(`${sessionOnly} -> session only`)
    }
    expect(TOKEN_MESSAGES.sessionOnly).toMatch(/session/)
  })

  it('publishes the bearer scheme and each route’s scope in the OpenAPI document', async () => {
    const doc = await ((await app.request('/api/openapi.json')) as TestResponse).json()
    expect(doc.components.securitySchemes.bearerToken).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    })
    expect(doc.paths['/projects'].get.security).toEqual([
      { session: [] },
      { bearerToken: ['projects:read'] },
    ])
    expect(doc.paths['/ai/generate-script'].post['x-token-scope']).toBe('generate')
    expect(doc.paths['/jobs/{id}/cancel'].post.security).toContainEqual({
      bearerToken: ['generate'],
    })
    expect(doc.paths['/tokens'].post.security).toBeUndefined()
    expect(doc.paths['/tokens'].get).toBeDefined()
  })
})
