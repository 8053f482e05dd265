import { testDatabaseKinds } from '@reelgraph/db/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from './app.ts'
import { createTestApp, type TestApp } from './testing/test-app.ts'

const [pglite] = testDatabaseKinds()

/**
 * The API routes anyone may call without a session (spec §5 accounts, §6 the public plans
 * and packages, an invitation link's page, the OpenAPI document); Stripe's webhook is
 * authenticated by its signature. Every other `/api` route is private.
 */
const PUBLIC_ROUTES = new Set([
  'POST /api/register',
  'POST /api/login',
  'POST /api/logout',
  'POST /api/request-password-reset',
  'POST /api/reset-password',
  'POST /api/verify-email',
  'GET /api/subscription/plans',
  'GET /api/credit-packages',
  'GET /api/invitations/:token',
  'GET /api/openapi.json',
  'POST /api/stripe/webhook',
])

/** Path parameters no validator accepts: a validator that ran first would answer 404 or 400. */
const BAD_PARAM = '2147483648'

/** A query string every route's query schema refuses. */
const BAD_QUERY = '?projectId=abc&nodeId=&kind=nope&limit=-1'

describe('signed-out callers (issue 40 item 7: 401 before any validation message)', () => {
  let t: TestApp
  const privateRoutes: { method: string; path: string }[] = []

  beforeAll(async () => {
    if (!pglite) throw new Error('no test database')
    t = await createTestApp(pglite)
    const seen = new Set<string>()
    for (const { method, path } of createApp(t.deps).routes) {
      const key = `${method} ${path}`
      // `ALL` and `*` are middleware and the 404 catch-all; the sandbox pages are HTML forms
      // outside the JSON API (their own test covers them).
      if (method === 'ALL' || path.includes('*') || seen.has(key)) continue
      if (!path.startsWith('/api/') || path.startsWith('/api/billing-sandbox/')) continue
      seen.add(key)
      if (!PUBLIC_ROUTES.has(key)) privateRoutes.push({ method, path })
    }
  })
  afterAll(() => t.close())

  it('finds the private routes of the app’s route list, and every public one', () => {
    const found = new Set(createApp(t.deps).routes.map(({ method, path }) => `${method} ${path}`))
    for (const route of PUBLIC_ROUTES) expect(found, route).toContain(route)
    // Those the issue names, so the list cannot quietly go empty.
    expect(privateRoutes).toEqual(
      expect.arrayContaining([
        { method: 'POST', path: '/api/video/export' },
        { method: 'POST', path: '/api/assets/audio' },
        { method: 'POST', path: '/api/ai/generate-video' },
        { method: 'PATCH', path: '/api/projects/:id' },
        { method: 'GET', path: '/api/jobs/:id' },
      ]),
    )
    expect(privateRoutes.length).toBeGreaterThan(35)
  })

  it('answers 401 UNAUTHENTICATED to every private route called with no session, bad ids and a bad body', async () => {
    const answers: string[] = []
    for (const { method, path } of privateRoutes) {
      const url = path.replace(/:[A-Za-z]+/g, BAD_PARAM) + BAD_QUERY
      const upload = path === '/api/assets/audio'
      const res = await t.request(
        method,
        url,
        method === 'GET' || method === 'DELETE'
          ? {}
          : upload
            ? {
                rawBody: new TextEncoder().encode('not audio at all'),
                headers: { 'content-type': 'audio/mpeg' },
              }
            : { body: { projectId: 'abc', nodeId: 12, format: 'zip', topic: null } },
      )
      const body = await res.json().catch(() => null)
      answers.push(`${method} ${path} -> ${res.status} ${body?.error?.code ?? ''}`)
    }
    expect(answers).toEqual(
      privateRoutes.map(({ method, path }) => `${method} ${path} -> 401 UNAUTHENTICATED`),
    )
  })

  it('keeps answering unknown API paths with 404', async () => {
    expect((await t.request('GET', '/api/does-not-exist')).status).toBe(404)
  })
})
