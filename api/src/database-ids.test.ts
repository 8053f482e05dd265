import { testDatabaseKinds } from '@reelgraph/db/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, type TestUser } from './testing/members.ts'
import { createTestApp, type TestApp } from './testing/test-app.ts'

/**
 * Ids that are no database id: past Postgres' `integer` (2^31), far past it, negative,
 * fractional, text. Each must be a 400 in words or a 404, never a 500 from Postgres.
 */
const NOT_IDS: unknown[] = [2 ** 31, 1e20, -1, 0, 1.5, 'abc']

/** The same ids as they appear in a query string. */
const NOT_ID_TEXTS = ['2147483648', '100000000000000000000', '1e20', '-1', '0', '1.5', 'abc', '']

describe.each(testDatabaseKinds())(
  'database ids in requests on $name (issue 40 item 7)',
  (kind) => {
    let t: TestApp
    let user: TestUser

    beforeAll(async () => {
      t = await createTestApp(kind)
      user = await addUser(t, 'Ids')
    })
    afterAll(() => t.close())

    /** The status and the error of an answer, for the assertion message. */
    async function answer(res: Awaited<ReturnType<TestApp['request']>>) {
      const body = await res.json().catch(() => null)
      return {
        status: res.status,
        code: body?.error?.code,
        message: body?.error?.message,
        fields: body?.error?.fields,
      }
    }

    /** A 400 that names the field in words, or a 404: anything but a 500. */
    function expectRefused(got: { status: number; fields?: Record<string, string> }, what: string) {
      expect([400, 404], `${what}: ${JSON.stringify(got)}`).toContain(got.status)
      if (got.status === 400) expect(got.fields?.projectId, what).toMatch(/projectId .+\./)
    }

    const bodies: [string, string, (projectId: unknown) => Record<string, unknown>][] = [
      ['POST', '/api/video/export', (projectId) => ({ projectId, nodeId: 'v1', format: 'otio' })],
      [
        'POST',
        '/api/ai/generate-video',
        (projectId) => ({
          projectId,
          nodeId: 'c1',
          modelId: 'builtin:motion-draft',
          prompt: 'Waves roll into a rocky cove at dusk',
          durationSeconds: 5,
          aspectRatio: '16:9',
        }),
      ],
      ['POST', '/api/video/render', (projectId) => ({ projectId, nodeId: 'v1' })],
      [
        'POST',
        '/api/video/make',
        (projectId) => ({ projectId, nodeId: 's1', sceneCount: 3, preset: '16:9' }),
      ],
      ['POST', '/api/video/narration-preview', (projectId) => ({ projectId, nodeId: 's1' })],
      [
        'POST',
        '/api/ai/generate-script',
        (projectId) => ({
          projectId,
          nodeId: 'g1',
          topic: 'Tides',
          style: 'Casual',
          tone: 'Conversational',
          format: 'Story',
        }),
      ],
    ]

    it.each(bodies)(
      '%s %s refuses a projectId that is no database id',
      async (method, path, body) => {
        for (const projectId of NOT_IDS) {
          const got = await answer(
            await t.request(method, path, { body: body(projectId), cookie: user.cookie }),
          )
          expectRefused(got, `${path} ${String(projectId)}`)
        }
      },
    )

    it.each([
      ['POST', '/api/assets/audio'],
      ['GET', '/api/video/narrations'],
      ['GET', '/api/video/render-quote'],
    ])('%s %s refuses a projectId in the query that is no database id', async (method, path) => {
      for (const projectId of NOT_ID_TEXTS) {
        const res = await t.request(method, `${path}?projectId=${projectId}&nodeId=v1`, {
          cookie: user.cookie,
          ...(method === 'POST' && {
            rawBody: new TextEncoder().encode('ID3 not really audio'),
            headers: { 'content-type': 'audio/mpeg' },
          }),
        })
        expectRefused(await answer(res), `${path} ${projectId}`)
      }
    })

    it('answers a path id past the int4 range as a 404 of what it names', async () => {
      for (const path of [
        '/api/projects/2147483648',
        '/api/projects/2147483648/members',
        '/api/projects/1/members/2147483648',
      ]) {
        const method = path.endsWith('/members')
          ? 'GET'
          : path.includes('/members/')
            ? 'DELETE'
            : 'GET'
        const got = await answer(await t.request(method, path, { cookie: user.cookie }))
        expect(got.status, `${path}: ${JSON.stringify(got)}`).toBe(404)
      }
    })
  },
)
