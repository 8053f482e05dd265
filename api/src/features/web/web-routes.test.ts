import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import { INVITATION_PATH, isWebAppPath, WEB_PATHS } from '@reelgraph/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../app.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'

const [pglite] = testDatabaseKinds()
const INDEX_HTML = '<!doctype html><title>Reelgraph</title><div id="root"></div>'

describe('the built web app (issue 11 item 10)', () => {
  let t: TestApp
  let distDir: string
  let app: ReturnType<typeof createApp>

  beforeAll(async () => {
    if (!pglite) throw new Error('no test database')
    t = await createTestApp(pglite)
    distDir = await mkdtemp(join(tmpdir(), 'reelgraph-dist-'))
    await mkdir(join(distDir, 'assets'))
    await writeFile(join(distDir, 'index.html'), INDEX_HTML)
    await writeFile(join(distDir, 'assets', 'app-1234.js'), 'console.log(1)')
    app = createApp(t.deps, { webDistDir: distDir })
  })
  afterAll(async () => {
    await t.close()
    await rm(distDir, { recursive: true, force: true })
  })

  it('answers every page of the router with index.html and 200', async () => {
    const pages = [
      // A path parameter stands for digits: `/batches/:id` is asked as `/batches/1`.
      ...Object.values(WEB_PATHS).map((path) => path.replace(/:\w+/g, '1')),
      '/reset-password?token=abc',
      '/verify-email?token=abc',
      `${INVITATION_PATH}?token=abc`,
      '/projects/',
      '/Subscription',
    ]
    for (const path of pages) {
      const res = await app.request(path)
      expect({ path, status: res.status }).toEqual({ path, status: 200 })
      expect(await res.text()).toBe(INDEX_HTML)
      expect(res.headers.get('cache-control')).toBe('no-cache')
    }
  })

  it('answers any other path with index.html (the not-found page) and 404', async () => {
    for (const path of ['/no-such-page', '/projects/7', '/auth/extra', '/favicon.ico', '/sync']) {
      const res = await app.request(path)
      expect({ path, status: res.status }).toEqual({ path, status: 404 })
      expect(res.headers.get('content-type')).toMatch(/^text\/html/)
      expect(await res.text()).toBe(INDEX_HTML)
    }
  })

  it('serves build files as they are, and unknown API paths as JSON 404', async () => {
    const asset = await app.request('/assets/app-1234.js')
    expect(asset.status).toBe(200)
    expect(asset.headers.get('cache-control')).toMatch(/immutable/)
    const api = await app.request('/api/no-such-route')
    expect(api.status).toBe(404)
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND')
  })
})

describe('isWebAppPath', () => {
  it('matches as the router does: whole path, any case, one trailing slash', () => {
    expect(isWebAppPath('/')).toBe(true)
    expect(isWebAppPath('/auth')).toBe(true)
    expect(isWebAppPath('/AUTH/')).toBe(true)
    expect(isWebAppPath('/subscription/success')).toBe(true)
    expect(isWebAppPath('/auth//')).toBe(false)
    expect(isWebAppPath('/authx')).toBe(false)
    expect(isWebAppPath('/subscription/other')).toBe(false)
    // A path with a parameter: one segment of digits (issue 42 item 3: a batch's page).
    expect(isWebAppPath('/batches/12')).toBe(true)
    expect(isWebAppPath('/batches/12/')).toBe(true)
    expect(isWebAppPath('/batches/')).toBe(false)
    expect(isWebAppPath('/batches/x1')).toBe(false)
    expect(isWebAppPath('/batches/1/2')).toBe(false)
  })

  it('lists exactly the routes of web/src/app/router.tsx', async () => {
    // Until the router imports WEB_PATHS, this keeps the two lists from drifting apart.
    const router = await readFile(
      new URL('../../../../web/src/app/router.tsx', import.meta.url),
      'utf8',
    )
    const literal = [...router.matchAll(/<Route\s+path="([^"]+)"/g)].map((m) => m[1])
    const constants = [...router.matchAll(/<Route\s+path=\{(\w+)\}/g)].map((m) => m[1])
    expect(constants).toEqual(['INVITATION_PATH'])
    expect([...literal, INVITATION_PATH].sort()).toEqual(Object.values(WEB_PATHS).sort())
  })
})
