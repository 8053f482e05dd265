import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadEnv } from '../../../env.ts'
import { loadCatalogFile, parseCatalogFile } from './catalog-file.ts'
import { createModelCatalog } from './model-catalog.ts'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'catalog-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const env = (extra: Record<string, string> = {}) =>
  loadEnv({ NODE_ENV: 'test', DATA_DIR: dir, ...extra })

const ids = (catalog: ReturnType<typeof createModelCatalog>, kind?: 'image' | 'video') =>
  catalog.list(kind).map((m) => m.id)

/** An operator's model: a Kling model fal has that the curated list leaves out. */
const KLING_MASTER = {
  id: 'fal:fal-ai/kling-video/v2.1/master/image-to-video',
  name: 'Kling 2.1 Master',
  kind: 'video',
  capabilities: {
    textToVideo: false,
    imageToVideo: true,
    lastFrame: false,
    audio: false,
    durations: [5, 10],
    aspectRatios: ['16:9', '9:16', '1:1'],
    resolutions: ['1080p'],
  },
  cost: { credits: 8, per: 'second' },
  input: { startImage: 'image_url', duration: { field: 'duration', format: 'string' } },
}

describe('the model catalog', () => {
  it('lists only the builtin offline models when no provider is configured', () => {
    const catalog = createModelCatalog(env())
    expect(catalog.list()).toEqual([
      expect.objectContaining({
        id: 'builtin:storyboard',
        kind: 'image',
        offline: true,
        cost: { credits: 2, per: 'image' },
      }),
      expect.objectContaining({ id: 'builtin:motion-draft', kind: 'video', offline: true }),
    ])
    expect(catalog.video('builtin:motion-draft')?.concurrency).toBe(1)
    expect(catalog.image('builtin:storyboard')?.provider.info.offline).toBe(true)
  })

  it('lists a provider’s models only with its key, image and video at once', () => {
    const without = createModelCatalog(env())
    expect(ids(without).filter((id) => id.startsWith('fal:'))).toEqual([])
    expect(without.video('fal:fal-ai/veo3/fast')).toBeUndefined()

    const withKeys = createModelCatalog(
      env({ FAL_KEY: 'k', REPLICATE_API_TOKEN: 't', GEMINI_API_KEY: 'g', FAL_CONCURRENCY: '7' }),
    )
    const video = ids(withKeys, 'video')
    const image = ids(withKeys, 'image')
    // fal and Replicate each bring a Kling, a Wan, a Veo or Seedance, an LTX or Hailuo, and FLUX.
    for (const provider of ['fal', 'replicate']) {
      const own = video.filter((id) => id.startsWith(`${provider}:`)).join(' ')
      for (const family of [/kling/, /wan/, /veo|seedance/, /ltx|hailuo/])
        expect(own).toMatch(family)
      expect(image.filter((id) => id.startsWith(`${provider}:`)).join(' ')).toMatch(/flux/)
    }
    expect(video.some((id) => id.startsWith('gemini:veo-'))).toBe(true)
    expect(video.at(-1)).toBe('builtin:motion-draft')
    expect(withKeys.video('fal:fal-ai/veo3/fast')).toMatchObject({ concurrency: 7 })
    expect(withKeys.video('fal:fal-ai/veo3/fast')!.provider.id).toBe('fal')
    expect(withKeys.image('replicate:black-forest-labs/flux-schnell')!.provider.info.id).toBe(
      'replicate',
    )
    // No image model is a video model, and the other way round.
    expect(withKeys.image('fal:fal-ai/veo3/fast')).toBeUndefined()
    expect(withKeys.video('fal:fal-ai/flux/dev')).toBeUndefined()
  })

  it('adds the operator’s models and changes costs from MODEL_CATALOG_FILE', async () => {
    const path = join(dir, 'catalog.json')
    await writeFile(
      path,
      JSON.stringify({
        models: [KLING_MASTER],
        costs: {
          'fal:fal-ai/veo3/fast': { credits: 4, per: 'second' },
          'builtin:motion-draft': { credits: 0, per: 'second' },
        },
      }),
    )
    const catalog = createModelCatalog(env({ FAL_KEY: 'k', MODEL_CATALOG_FILE: path }))
    expect(catalog.video(KLING_MASTER.id)?.model).toEqual({
      id: KLING_MASTER.id,
      provider: 'fal',
      providerName: 'fal.ai',
      name: 'Kling 2.1 Master',
      kind: 'video',
      offline: false,
      capabilities: KLING_MASTER.capabilities,
      cost: { credits: 8, per: 'second' },
    })
    expect(catalog.video('fal:fal-ai/veo3/fast')!.model.cost).toEqual({ credits: 4, per: 'second' })
    expect(catalog.video('builtin:motion-draft')!.model.cost).toEqual({ credits: 0, per: 'second' })
    // The list shows the new price too.
    expect(catalog.list().find((m) => m.id === 'fal:fal-ai/veo3/fast')!.cost.credits).toBe(4)
  })

  it('does not list the operator’s models of a provider without its key', () => {
    const catalog = createModelCatalog(env(), {
      file: parseCatalogFile({ models: [KLING_MASTER] }),
    })
    expect(catalog.video(KLING_MASTER.id)).toBeUndefined()
    expect(ids(catalog)).toEqual(['builtin:storyboard', 'builtin:motion-draft'])
  })

  it.each<[string, unknown, RegExp]>([
    [
      'a video model without capabilities',
      { models: [{ ...KLING_MASTER, capabilities: undefined }] },
      /models\.0\.capabilities: a video model needs its capabilities/,
    ],
    [
      'a mapping field that does not exist',
      { models: [{ ...KLING_MASTER, input: { startimage: 'image_url' } }] },
      /models\.0\.input/,
    ],
    [
      'an id without its provider',
      { costs: { veo3: { credits: 1, per: 'second' } } },
      /costs\.veo3/,
    ],
    [
      'a negative price',
      { costs: { 'fal:x': { credits: -1, per: 'second' } } },
      /costs\.fal:x\.credits/,
    ],
  ])('refuses a file with %s at boot, saying where', (_label, json, message) => {
    expect(() => parseCatalogFile(json, '/etc/reelgraph/catalog.json')).toThrow(message)
    expect(() => parseCatalogFile(json, '/etc/reelgraph/catalog.json')).toThrow(
      /^MODEL_CATALOG_FILE \(\/etc\/reelgraph\/catalog\.json\) is not valid:/,
    )
  })

  it('refuses a file that is not JSON or cannot be read, and models it cannot take', async () => {
    const broken = join(dir, 'broken.json')
    await writeFile(broken, '{ "models": [')
    expect(() => loadCatalogFile(broken)).toThrow(
      /MODEL_CATALOG_FILE \(.*broken\.json\) is not JSON/,
    )
    expect(() => loadCatalogFile(join(dir, 'missing.json'))).toThrow(/cannot be read/)
    const model = (id: string) => parseCatalogFile({ models: [{ ...KLING_MASTER, id }] })
    expect(() => createModelCatalog(env(), { file: model('comfyui:my-flow') })).toThrow(
      /ComfyUI models are the workflows in COMFYUI_WORKFLOWS_DIR/,
    )
    expect(() => createModelCatalog(env(), { file: model('runway:gen4') })).toThrow(
      /runway:gen4 names no provider Reelgraph knows/,
    )
  })

  it('lists ComfyUI workflows only with COMFYUI_URL', async () => {
    const workflows = join(dir, 'flows')
    const { mkdir, copyFile } = await import('node:fs/promises')
    await mkdir(workflows, { recursive: true })
    const docs = new URL('../../../../../docs/comfyui/', import.meta.url)
    for (const file of ['wan22-ti2v-5b.json', 'wan22-ti2v-5b.reelgraph.json']) {
      await copyFile(new URL(file, docs), join(workflows, file))
    }
    const off = createModelCatalog(env({ COMFYUI_WORKFLOWS_DIR: workflows }))
    expect(off.video('comfyui:wan22-ti2v-5b')).toBeUndefined()
    const on = createModelCatalog(
      env({ COMFYUI_URL: 'http://127.0.0.1:8188', COMFYUI_WORKFLOWS_DIR: workflows }),
    )
    expect(on.video('comfyui:wan22-ti2v-5b')).toMatchObject({ concurrency: 1 })
  })
})
