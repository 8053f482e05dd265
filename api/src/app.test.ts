import { testDatabaseKinds } from '@reelgraph/db/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { webSocketSources } from './app.ts'
import { createTestApp, type TestApp } from './testing/test-app.ts'

const [pglite] = testDatabaseKinds()

describe('the HTTP app', () => {
  let t: TestApp
  beforeAll(async () => {
    if (!pglite) throw new Error('no test database')
    t = await createTestApp(pglite)
  })
  afterAll(() => t.close())

  it('answers /healthz and /readyz', async () => {
    expect(await (await t.request('GET', '/healthz')).json()).toEqual({ status: 'ok' })
    expect(await (await t.request('GET', '/readyz')).json()).toEqual({ status: 'ready' })
  })

  it('answers unknown /api paths with a JSON 404', async () => {
    const res = await t.request('GET', '/api/does-not-exist')
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'There is no API route GET /api/does-not-exist.' },
    })
  })

  it('answers GET /api/user with 401 when anonymous', async () => {
    const res = await t.request('GET', '/api/user')
    expect(res.status).toBe(401)
    expect((await res.json()).error.code).toBe('UNAUTHENTICATED')
  })

  it('sends security headers and a request id', async () => {
    const res = await t.request('GET', '/healthz')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'/)
    expect(res.headers.get('x-request-id')).toMatch(/.+/)
  })

  it('lets pages open WebSockets only to the app’s own origins (issue 11 item 10)', async () => {
    const csp = (await t.request('GET', '/healthz')).headers.get('content-security-policy') ?? ''
    const connectSrc = csp.split(';').find((d) => d.trim().startsWith('connect-src'))
    expect(connectSrc?.trim()).toBe("connect-src 'self' ws://localhost:3000")
    expect(csp).not.toMatch(/(^|\s)wss?:(\s|;|$)/)
    expect(
      webSocketSources([
        'http://localhost:3000',
        'https://reelgraph.example',
        'https://b.example:8443',
      ]),
    ).toEqual(['ws://localhost:3000', 'wss://reelgraph.example', 'wss://b.example:8443'])
  })

  it('publishes an OpenAPI document generated from the zod schemas', async () => {
    const doc = await (await t.request('GET', '/api/openapi.json')).json()
    expect(doc.openapi).toMatch(/^3\./)
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/register',
        '/login',
        '/logout',
        '/request-password-reset',
        '/reset-password',
        '/user',
        '/projects/{id}/members',
        '/projects/{id}/members/{userId}',
        '/projects/{id}/invitations',
        '/invitations/accept',
        '/invitations/{token}',
        '/jobs/{id}',
        '/jobs/{id}/cancel',
      ]),
    )
    const register = doc.components.schemas.RegisterInput
    expect(register.properties.password.minLength).toBe(8)
    // The autosave body is parsed in its handler (issue 23) and still documented.
    const patch = doc.paths['/projects/{id}'].patch.requestBody.content['application/json']
    expect(JSON.stringify(patch.schema)).toContain('PatchProjectInput')
    expect(doc.components.schemas.PatchProjectInput.properties.nodes.type).toBe('array')
    // Generation calls answer their result, or 202 with the job to follow (issue 12).
    const script = doc.paths['/ai/generate-script'].post
    expect(Object.keys(script.responses)).toEqual(expect.arrayContaining(['200', '202']))
    expect(doc.components.schemas.Job.properties.status.enum).toContain('cancelled')
    expect(doc.components.schemas.GenerateScriptInput.properties).toHaveProperty('nodeId')
  })

  it('becomes not ready when the database is gone', async () => {
    const kind = testDatabaseKinds()[0]
    if (!kind) throw new Error('no test database')
    const broken = await createTestApp(kind)
    await broken.deps.db.destroy()
    const res = await broken.request('GET', '/readyz')
    expect(res.status).toBe(503)
    expect((await res.json()).error.code).toBe('NOT_READY')
    await broken.close().catch(() => {}) // its database is already closed
  })
})
