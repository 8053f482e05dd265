import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import { catalogOutput, modelsOutput } from '@reelgraph/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser } from '../../../testing/members.ts'
import { createTestApp, type TestApp } from '../../../testing/test-app.ts'
import { solidPng } from '../providers/testing/images.ts'
import { FAL_TEST_KEY, type FalFake, startFalFake } from '../video-providers/testing/fal-fake.ts'
import { resultFile } from '../video-providers/testing/result-file.ts'

const IMAGE = {
  prompt: 'A crab in a tide pool at dawn',
  negativePrompt: '',
  width: 256,
  height: 128,
  numInferenceSteps: 25,
  guidanceScale: 7.5,
  seed: 42,
}

describe.each(testDatabaseKinds())('the model catalog’s routes on $name', (kind) => {
  let t: TestApp
  let fal: FalFake
  let dir: string

  beforeAll(async () => {
    fal = await startFalFake(new Uint8Array(0))
    dir = await mkdtemp(join(tmpdir(), 'catalog-routes-'))
    const catalogFile = join(dir, 'catalog.json')
    await writeFile(
      catalogFile,
      JSON.stringify({ costs: { 'fal:fal-ai/flux/schnell': { credits: 5, per: 'image' } } }),
    )
    t = await createTestApp(kind, undefined, {
      FAL_KEY: FAL_TEST_KEY,
      FAL_QUEUE_URL: fal.server.url,
      MODEL_CATALOG_FILE: catalogFile,
    })
  })
  afterAll(async () => {
    await t.close()
    await fal.server.close()
    await rm(dir, { recursive: true, force: true })
  })

  const credits = async (cookie: string) =>
    (await (await t.request('GET', '/api/user/credits', { cookie })).json()).credits as number
  const project = async (cookie: string) =>
    (await (await t.request('POST', '/api/projects', { body: { name: 'P' }, cookie })).json())
      .id as number

  it('answers GET /api/ai/models to the signed in: every kind, or one', async () => {
    const { cookie } = await addUser(t, 'Mia', { credits: 20 })
    expect((await t.request('GET', '/api/ai/models')).status).toBe(401)
    const all = catalogOutput.parse(
      await (await t.request('GET', '/api/ai/models', { cookie })).json(),
    )
    expect(all.items.map((m) => m.id)).toEqual(t.deps.catalog.list().map((m) => m.id))
    expect(all.items.some((m) => m.id === 'fal:fal-ai/veo3/fast')).toBe(true)
    const videos = await (await t.request('GET', '/api/ai/models?kind=video', { cookie })).json()
    expect(videos.items.length).toBeGreaterThan(0)
    expect(videos.items.every((m: { kind: string }) => m.kind === 'video')).toBe(true)
    expect(videos.items.at(-1)).toMatchObject({ id: 'builtin:motion-draft', offline: true })
    const images = await (await t.request('GET', '/api/ai/models?kind=image', { cookie })).json()
    expect(
      images.items.find((m: { id: string }) => m.id === 'fal:fal-ai/flux/schnell').cost,
    ).toEqual({
      credits: 5,
      per: 'image',
    })
    expect((await t.request('GET', '/api/ai/models?kind=audio', { cookie })).status).toBe(400)
  })

  it('lists the catalog’s image models on GET /api/csas/models in the spec’s shape', async () => {
    const { cookie } = await addUser(t, 'Noor', { credits: 20 })
    const body = modelsOutput.parse(
      await (await t.request('GET', '/api/csas/models?limit=50', { cookie })).json(),
    )
    // The active image provider (builtin here) first: the image generator picks the first.
    expect(body.items[0]).toEqual({
      id: 'builtin:storyboard',
      name: 'Storyboard frames (offline)',
      modelVersions: [{ id: 'builtin:storyboard', name: 'Built in (offline)' }],
    })
    expect(body.items.map((m) => m.id)).toContain('fal:fal-ai/flux/dev')
    const one = modelsOutput.parse(
      await (await t.request('GET', '/api/csas/models?limit=1', { cookie })).json(),
    )
    expect(one.items).toHaveLength(1)
  })

  it('draws with a catalog model’s own provider and charges its price', async () => {
    const { cookie } = await addUser(t, 'Omar', { credits: 20 })
    const projectId = await project(cookie)
    fal.reset(resultFile(await solidPng(256, 128), 'image/png'))
    // Finished at the first look, so the test does not wait for the 2 s poll.
    fal.queuePositions = []
    fal.progressLogs = []
    fal.response = {
      status: 200,
      body: { images: [{ url: `${fal.server.url}/files/image.png` }], has_nsfw_concepts: [false] },
    }
    const res = await t.request('POST', '/api/csas/generate-image', {
      body: { ...IMAGE, projectId, modelId: 'fal:fal-ai/flux/schnell' },
      cookie,
    })
    expect(res.status).toBe(200)
    const image = await res.json()
    expect(
      (await t.request('GET', image.imageUrl, { cookie })).headers.get('content-type'),
    ).toMatch(/^image\//)
    expect(fal.submits.map((s) => s.model)).toEqual(['fal-ai/flux/schnell'])
    // The catalog file's price, not COST_IMAGE.
    expect(await credits(cookie)).toBe(15)
  })

  it('takes a catalog id as modelVersionId, and a provider’s own version id as before', async () => {
    const { cookie } = await addUser(t, 'Pia', { credits: 20 })
    const projectId = await project(cookie)
    fal.reset()
    for (const modelVersionId of ['builtin:storyboard', 'storyboard-v1']) {
      const res = await t.request('POST', '/api/csas/generate-image', {
        body: { ...IMAGE, projectId, modelVersionId },
        cookie,
      })
      expect(res.status).toBe(200)
    }
    expect(fal.submits).toHaveLength(0)
    expect(await credits(cookie)).toBe(20 - 2 - 2)
  })

  it('refuses a modelId that is not listed with 400, charging nothing', async () => {
    const { cookie } = await addUser(t, 'Quin', { credits: 20 })
    const projectId = await project(cookie)
    for (const modelId of ['fal:fal-ai/no-such-model', 'builtin:motion-draft']) {
      const res = await t.request('POST', '/api/csas/generate-image', {
        body: { ...IMAGE, projectId, modelId },
        cookie,
      })
      expect(res.status).toBe(400)
      expect((await res.json()).error.fields.modelId).toBe(
        'This image model is not available: pick one from the list.',
      )
    }
    const missing = await t.request('POST', '/api/csas/generate-image', {
      body: { ...IMAGE, projectId },
      cookie,
    })
    expect(missing.status).toBe(400)
    expect((await missing.json()).error.fields.modelVersionId).toBe(
      'Please select a model for image generation',
    )
    expect(await credits(cookie)).toBe(20)
  })

  it('documents GET /api/ai/models in the OpenAPI document', async () => {
    const doc = await (await t.request('GET', '/api/openapi.json')).json()
    expect(doc.paths['/ai/models'].get.summary).toMatch(/model catalog/)
    expect(doc.components.schemas.ModelCatalog).toBeDefined()
    expect(doc.components.schemas.CatalogModel.properties.capabilities).toBeDefined()
    expect(doc.components.schemas.GenerateImageInput.properties).toHaveProperty('modelId')
  })
})
