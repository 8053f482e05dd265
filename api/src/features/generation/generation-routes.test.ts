import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, addUser, createProjectAs } from '../../testing/members.ts'
import { createTestApp, sessionCookieFrom, type TestApp } from '../../testing/test-app.ts'

const SCRIPT = { style: 'Casual', tone: 'Enthusiastic', format: 'Tutorial', topic: 'Tide pools' }
const IMAGE = {
  modelVersionId: 'storyboard-v1',
  prompt: 'A crab in a tide pool at dawn',
  negativePrompt: '',
  width: 256,
  height: 128,
  numInferenceSteps: 25,
  guidanceScale: 7.5,
  seed: 42,
}

describe.each(testDatabaseKinds())('generation endpoints on $name (builtin providers)', (kind) => {
  let t: TestApp
  let counter = 0

  async function signUp() {
    const res = await t.request('POST', '/api/register', {
      body: {
        name: 'Maker',
        email: `g${++counter}-${Date.now()}@example.com`,
        password: 'paper lantern river',
      },
    })
    return sessionCookieFrom(res)
  }
  const credits = async (cookie: string | undefined) =>
    (await (await t.request('GET', '/api/user/credits', { cookie })).json()).credits as number

  beforeAll(async () => {
    t = await createTestApp(kind)
  })
  afterAll(() => t.close())

  it('tells the UI which providers are active and what each action costs', async () => {
    const cookie = await signUp()
    const body = await (await t.request('GET', '/api/ai/providers', { cookie })).json()
    expect(body.text).toMatchObject({ id: 'builtin', offline: true })
    expect(body.image).toMatchObject({ id: 'builtin', offline: true })
    expect(body.costs).toEqual({ script: 1, scenes: 1, image: 2, voice: 1, video: 5 })
    expect((await t.request('GET', '/api/ai/providers')).status).toBe(401)
  })

  it('drafts another script and other scenes on each call, seeded per call (issue 14 item 10)', async () => {
    const cookie = await signUp()
    const draft = async () => {
      const res = await t.request('POST', '/api/ai/generate-script', { body: SCRIPT, cookie })
      expect(res.status).toBe(200)
      return ((await res.json()) as { script: string }).script
    }
    // At the default length (60 s) the builtin drafter has 12 wordings of this input (a
    // longer video keeps more of them: 138 at 90 s), about evenly drawn, so three calls all
    // agree 1 time in 140 by chance; five that all agree (about 1 in 20,000) mean the seed is
    // not drawn per call.
    const drafts = []
    for (let i = 0; i < 5; i++) drafts.push(await draft())
    expect(new Set(drafts).size).toBeGreaterThan(1)
    const [first] = drafts
    // A given seed is the same draft.
    const seeded = async () =>
      (
        await t.request('POST', '/api/ai/generate-scenes', {
          body: { script: first, sceneCount: 4, seed: 42 },
          cookie,
        })
      ).json()
    expect(await seeded()).toEqual(await seeded())
  })

  it('runs the main job: script, exactly N scenes, an image served to its owner only', async () => {
    const cookie = await signUp()
    const scriptRes = await t.request('POST', '/api/ai/generate-script', { body: SCRIPT, cookie })
    expect(scriptRes.status).toBe(200)
    const { script } = await scriptRes.json()
    expect(script).toMatch(/tide pool/i)

    const scenesRes = await t.request('POST', '/api/ai/generate-scenes', {
      body: { script, sceneCount: 3 },
      cookie,
    })
    const { scenes } = await scenesRes.json()
    expect(scenes).toHaveLength(3)
    for (const scene of scenes) {
      expect(scene.narration.length).toBeGreaterThan(0)
      expect(scene.visuals.length).toBeGreaterThan(0)
    }

    const models = await (await t.request('GET', '/api/csas/models?limit=10', { cookie })).json()
    expect(models.items[0].modelVersions[0].id).toBeDefined()

    const { id: projectId } = await (
      await t.request('POST', '/api/projects', { body: { name: 'P' }, cookie })
    ).json()
    const imageRes = await t.request('POST', '/api/csas/generate-image', {
      body: { ...IMAGE, projectId },
      cookie,
    })
    expect(imageRes.status).toBe(200)
    const image = await imageRes.json()
    expect(image).toMatchObject({ imageUrl: `/api/assets/${image.assetId}`, seed: 42 })
    const asset = await t.request('GET', image.imageUrl, { cookie })
    expect(asset.status).toBe(200)
    expect(asset.headers.get('content-type')).toMatch(/^image\//)
    const stranger = await signUp()
    expect((await t.request('GET', image.imageUrl, { cookie: stranger })).status).toBe(404)
    const row = await t.deps.db
      .selectFrom('assets')
      .select('storage_key')
      .where('id', '=', image.assetId)
      .executeTakeFirstOrThrow()
    expect(await t.deps.assets.get(row.storage_key)).not.toBeNull()

    expect(await credits(cookie)).toBe(20 - 1 - 1 - 2)
    const ledger = await t.deps.db
      .selectFrom('credit_transactions')
      .innerJoin('users', 'users.id', 'credit_transactions.user_id')
      .select(['transaction_type', 'amount'])
      .where('users.id', '=', (await (await t.request('GET', '/api/user', { cookie })).json()).id)
      .orderBy('credit_transactions.id')
      .execute()
    expect(ledger.map((r) => [r.transaction_type, r.amount])).toEqual([
      ['account_creation', 20],
      ['script_generation', -1],
      ['scene_generation', -1],
      ['image_generation', -2],
    ])

    // Deleting the project deletes its generated files too.
    expect((await t.request('DELETE', `/api/projects/${projectId}`, { cookie })).status).toBe(200)
    expect((await t.request('GET', image.imageUrl, { cookie })).status).toBe(404)
    expect(await t.deps.assets.get(row.storage_key)).toBeNull()
  })

  it.each<[string, string, Record<string, unknown>, string, RegExp]>([
    [
      'missing topic',
      '/api/ai/generate-script',
      { ...SCRIPT, topic: '  ' },
      'topic',
      /Please enter a topic for your video/,
    ],
    [
      'unknown style',
      '/api/ai/generate-script',
      { ...SCRIPT, style: 'Gothic' },
      'style',
      /Style must be one of/,
    ],
    [
      'sceneCount 0',
      '/api/ai/generate-scenes',
      { script: 'A script.', sceneCount: 0 },
      'sceneCount',
      /at least 1/,
    ],
    [
      'sceneCount 26',
      '/api/ai/generate-scenes',
      { script: 'A script.', sceneCount: 26 },
      'sceneCount',
      /at most 25/,
    ],
    [
      'empty script',
      '/api/ai/generate-scenes',
      { script: '', sceneCount: 3 },
      'script',
      /Please enter content before generating scenes/,
    ],
    [
      'width 65',
      '/api/csas/generate-image',
      { ...IMAGE, projectId: 1, width: 65 },
      'width',
      /multiple of 8/,
    ],
    [
      'steps 101',
      '/api/csas/generate-image',
      { ...IMAGE, projectId: 1, numInferenceSteps: 101 },
      'numInferenceSteps',
      /at most 100/,
    ],
    [
      'guidance 0.5',
      '/api/csas/generate-image',
      { ...IMAGE, projectId: 1, guidanceScale: 0.5 },
      'guidanceScale',
      /at least 1/,
    ],
    [
      'huge prompt',
      '/api/csas/generate-image',
      { ...IMAGE, projectId: 1, prompt: 'x'.repeat(5000) },
      'prompt',
      /at most 4000/,
    ],
    [
      'missing prompt',
      '/api/csas/generate-image',
      { ...IMAGE, projectId: 1, prompt: '' },
      'prompt',
      /Please enter a prompt for image generation/,
    ],
  ])('rejects %s with 400 and charges nothing', async (_label, path, body, field, message) => {
    const cookie = await signUp()
    const res = await t.request('POST', path, { body, cookie })
    expect(res.status).toBe(400)
    expect((await res.json()).error.fields[field]).toMatch(message)
    expect(await credits(cookie)).toBe(20)
  })

  it('refuses an image for a project that is not the user’s, without charging', async () => {
    const owner = await signUp()
    const { id: projectId } = await (
      await t.request('POST', '/api/projects', { body: { name: 'Mine' }, cookie: owner })
    ).json()
    const other = await signUp()
    const res = await t.request('POST', '/api/csas/generate-image', {
      body: { ...IMAGE, projectId },
      cookie: other,
    })
    expect(res.status).toBe(404)
    expect(await credits(other)).toBe(20)
  })

  it('generates into a shared project for an editor, charging them; refuses a viewer free', async () => {
    const owner = await addUser(t, 'Olive', { credits: 10 })
    const editor = await addUser(t, 'Eddie', { credits: 10 })
    const viewer = await addUser(t, 'Vera', { credits: 10 })
    const projectId = await createProjectAs(t, owner)
    await addMember(t, projectId, editor.id, 'editor')
    await addMember(t, projectId, viewer.id, 'viewer')

    const refused = await t.request('POST', '/api/csas/generate-image', {
      body: { ...IMAGE, projectId },
      cookie: viewer.cookie,
    })
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({
      error: {
        code: 'FORBIDDEN',
        message: 'You can view this project but not change it. Ask its owner for edit access.',
      },
    })
    expect(await credits(viewer.cookie)).toBe(10)
    // Refused before charging: not even a charge and its refund in the ledger.
    const ledger = await t.deps.db
      .selectFrom('credit_transactions')
      .select('id')
      .where('user_id', '=', viewer.id)
      .execute()
    expect(ledger).toEqual([])

    const made = await t.request('POST', '/api/csas/generate-image', {
      body: { ...IMAGE, projectId },
      cookie: editor.cookie,
    })
    expect(made.status).toBe(200)
    const { imageUrl } = await made.json()
    expect(await credits(editor.cookie)).toBe(8)
    expect(await credits(owner.cookie)).toBe(10)
    for (const member of [owner, viewer]) {
      expect((await t.request('GET', imageUrl, { cookie: member.cookie })).status).toBe(200)
    }
    const assets = await t.deps.db
      .selectFrom('assets')
      .select('user_id')
      .where('project_id', '=', projectId)
      .execute()
    expect(assets).toEqual([{ user_id: editor.id }])
  })

  it('with 20 credits, 50 concurrent script requests at cost 1 give exactly 20 successes', async () => {
    const cookie = await signUp()
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        t.request('POST', '/api/ai/generate-script', { body: SCRIPT, cookie }),
      ),
    )
    const statuses = responses.map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(20)
    expect(statuses.filter((s) => s === 402)).toHaveLength(30)
    const refused = await responses.find((r) => r.status === 402)?.json()
    expect(refused.error.message).toMatch(/^This needs 1 credit; you have 0\./)
    expect(await credits(cookie)).toBe(0)
  })

  it('charges a repeated Idempotency-Key once and answers the original result (issue 12)', async () => {
    const cookie = await signUp()
    const headers = { 'idempotency-key': 'retry-key-0001' }
    const first = await t.request('POST', '/api/ai/generate-script', {
      body: SCRIPT,
      cookie,
      headers,
    })
    const second = await t.request('POST', '/api/ai/generate-script', {
      body: SCRIPT,
      cookie,
      headers,
    })
    expect([first.status, second.status]).toEqual([200, 200])
    expect(await second.json()).toEqual(await first.json())
    expect(await credits(cookie)).toBe(19)
  })
})

describe.each(testDatabaseKinds())('a failing provider on $name', (kind) => {
  let t: TestApp
  let server: Server
  beforeAll(async () => {
    // An OpenAI-compatible server that always fails.
    server = createServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: { message: 'model overloaded', type: 'server_error' } }))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    t = await createTestApp(kind, undefined, {
      AI_TEXT_PROVIDER: 'openai',
      OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
      OPENAI_API_KEY: 'test-key',
      // A 500 is transient: the job is retried (issue 12) once here before it fails.
      JOB_RETRY_LIMIT: '1',
    })
  })
  afterAll(async () => {
    await t.close()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })

  it('refunds the charge with a generation_refund row and answers 502 with the reason', async () => {
    const res = await t.request('POST', '/api/register', {
      body: { name: 'A', email: `fail-${Date.now()}@example.com`, password: 'paper lantern river' },
    })
    const cookie = sessionCookieFrom(res)
    const userId = (await res.json()).id
    const gen = await t.request('POST', '/api/ai/generate-script', { body: SCRIPT, cookie })
    expect(gen.status).toBe(502)
    expect((await gen.json()).error.message).toMatch(/refunded/)
    expect((await (await t.request('GET', '/api/user/credits', { cookie })).json()).credits).toBe(
      20,
    )
    const types = await t.deps.db
      .selectFrom('credit_transactions')
      .select(['transaction_type', 'amount'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute()
    expect(types.map((r) => [r.transaction_type, r.amount])).toEqual([
      ['account_creation', 20],
      ['script_generation', -1],
      ['generation_refund', 1],
    ])
  })
})
