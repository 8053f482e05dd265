import { readFile } from 'node:fs/promises'
import type { OpenAPI3, OperationObject } from 'openapi-typescript'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  API_SCHEMA_FILE,
  documentOnlyApp,
  openApiTypes,
  readOpenApiDocument,
} from './openapi-types.ts'

/**
 * Calls that take no body: a route missing here that documents none reads its body without
 * `validate` (issue 41 item 4: document it with `validate` or `docs({ requestFile })`).
 */
const BODILESS_CALLS = new Set([
  'POST /logout',
  'POST /resend-verification',
  'POST /jobs/{id}/cancel',
  'POST /webhooks/{id}/deliveries/{deliveryId}/redeliver',
  // A batch's start, cancel and retry (issue 42 item 3): the path names all they need.
  'POST /batches/{id}/start',
  'POST /batches/{id}/cancel',
  'POST /batches/{id}/retry',
  // Stripe's event, read raw for its signature: Stripe documents it, not this API.
  'POST /stripe/webhook',
])

/** The api's own routes that are not JSON API calls. */
const NOT_IN_DOCUMENT = [/^\/api\/openapi\.json$/, /^\/api\/billing-sandbox\//]

describe('the OpenAPI contract of the web (issue 41 item 4)', () => {
  const app = documentOnlyApp()
  let document: OpenAPI3
  beforeAll(async () => {
    document = await readOpenApiDocument(app)
  })

  it('is checked in as the document gives it today', async () => {
    const onDisk = await readFile(API_SCHEMA_FILE, 'utf8')
    expect(
      onDisk === (await openApiTypes(document)),
      `${API_SCHEMA_FILE} is not what the OpenAPI document gives: run npm run openapi -w api`,
    ).toBe(true)
  })

  it('lists every route under /api', () => {
    const listed = new Set(
      Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
        Object.keys(item).map((method) => `${method.toUpperCase()} /api${path}`),
      ),
    )
    const routes = app.routes
      .filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/'))
      .filter((r) => !NOT_IN_DOCUMENT.some((re) => re.test(r.path)))
      .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`)
    expect(routes.length).toBeGreaterThan(50)
    expect(routes.filter((route) => !listed.has(route))).toEqual([])
  })

  it('documents the body of every call that takes one', () => {
    const undocumented: string[] = []
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      for (const [method, operation] of Object.entries(item)) {
        if (!['post', 'put', 'patch'].includes(method)) continue
        const call = `${method.toUpperCase()} ${path}`
        if ((operation as OperationObject).requestBody === undefined && !BODILESS_CALLS.has(call)) {
          undocumented.push(call)
        }
      }
    }
    expect(undocumented).toEqual([])
  })
})
