import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import {
  createGraphNode,
  getTimelinesMap,
  makeVideoCost,
  storedTimelineOf,
  TARGET_LENGTH_TOLERANCE,
  TEMPLATE_TEXT_VALUE_MAX_LENGTH,
} from '@reelgraph/shared'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { balance, jobAs as job, liveGraph } from '../../testing/jobs.ts'
import { addMember, addUser, createProjectAs, type TestUser } from '../../testing/members.ts'
import { itRendersOn } from '../../testing/renders.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { until as poll } from '../../testing/until.ts'
import { storeGeneratedImage } from '../assets/asset-service.ts'
import { requireVideoModel } from '../generation/clip-job.ts'
import { BUILTIN_MOTION_MODEL_ID } from './builtin-templates.ts'

/**
 * Templates (issue 42 item 2) end to end with the builtin providers: saving a project as a
 * template with a mark, who sees it and its preview, new projects from one (values checked,
 * pictures checked and copied), and Make video with a template's settings: the vertical
 * short's 9:16 MP4 of about 30 s, the product clip's scenes from the uploaded picture, the
 * story's character in every scene.
 */

const run = promisify(execFile)
const COSTS = {
  COST_SCRIPT: '1',
  COST_SCENES: '1',
  COST_IMAGE: '2',
  COST_VOICE: '1',
  COST_VIDEO: '3',
}
const costs = { script: 1, scenes: 1, image: 2, voice: 1, video: 3 }
const CHAIN_DONE_MS = 180_000

/** A small real PNG (a red square). */
async function png(size = 64): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp({ create: { width: size, height: size, channels: 3, background: '#c0392b' } })
      .png()
      .toBuffer(),
  )
}

/** The MP4's width, height and length (s), as ffprobe reads them. */
async function probe(
  bytes: Uint8Array,
): Promise<{ width: number; height: number; seconds: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'reelgraph-template-test-'))
  try {
    const path = join(dir, 'video.mp4')
    await writeFile(path, bytes)
    const { stdout } = await run('ffprobe', [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=width,height:format=duration',
      '-of',
      'json',
      path,
    ])
    const info = JSON.parse(stdout) as {
      streams: { width: number; height: number }[]
      format: { duration: string }
    }
    return {
      width: info.streams[0]!.width,
      height: info.streams[0]!.height,
      seconds: Number(info.format.duration),
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

describe.each(testDatabaseKinds())('templates on $name', (kind) => {
  const itRenders = itRendersOn(kind)
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { JOB_WAIT_MS: '0', ...COSTS })
  })
  afterAll(() => t.close())

  const list = async (user: TestUser) => {
    const res = await t.request('GET', '/api/templates', { cookie: user.cookie })
    expect(res.status).toBe(200)
    return (await res.json()).templates as {
      id: number
      name: string
      source: string
      previewUrl: string | null
      variables: { name: string; kind: string; label: string }[]
      settings: Record<string, unknown>
    }[]
  }
  const builtin = async (user: TestUser, name: string) =>
    (await list(user)).find((tpl) => tpl.source === 'builtin' && tpl.name === name)!
  const projectCount = async (userId: number) =>
    Number(
      (
        await t.deps.db
          .selectFrom('projects')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).n,
    )
  const fromTemplate = (user: TestUser, body: Record<string, unknown>) =>
    t.request('POST', '/api/projects/from-template', { body, cookie: user.cookie })
  const finished = (user: TestUser, id: string) =>
    poll(
      () => job(t, user, id),
      (j) => j.status !== 'queued' && j.status !== 'running',
      CHAIN_DONE_MS,
    )

  /** A project with a Script Generator, a text node with a placeholder, an image and a Video node. */
  async function savedProject(owner: TestUser) {
    const projectId = await createProjectAs(t, owner, 'Volcanoes film')
    const generator = createGraphNode('script-generator', { x: 0, y: 0 })
    generator.data.topic = 'Volcanoes'
    generator.data.targetSeconds = 30
    const text = createGraphNode('editable-text', { x: 400, y: 0 })
    text.data.content = 'Made by {{brand_name}}'
    const stored = await storeGeneratedImage(t.deps.db, t.deps.assets, {
      userId: owner.id,
      projectId,
      image: { bytes: await png(), mimeType: 'image/png' },
    })
    const image = createGraphNode('image', { x: 800, y: 0 })
    image.data.imageUrl = stored.url
    const video = createGraphNode('video', { x: 1300, y: 0 })
    video.data.preset = '9:16'
    video.data.voice = 'en-gb'
    await t.deps.documents.applyGraph(projectId, {
      nodes: [generator, text, image, video],
      connections: [],
    })
    return { projectId, generator, text, imageUrl: stored.url }
  }

  it('saves a project as a template with a mark; lists builtin, yours and your team’s; a stranger sees neither it nor its preview', async () => {
    const owner = await addUser(t, 'Tess')
    const teammate = await addUser(t, 'Tom')
    const stranger = await addUser(t, 'Stan')
    const { projectId, generator } = await savedProject(owner)
    await addMember(t, projectId, teammate.id, 'viewer')

    const res = await t.request('POST', '/api/templates', {
      body: {
        projectId,
        name: 'Volcano short',
        description: 'A short about one thing.',
        marks: [{ nodeId: generator.id, field: 'topic', name: 'topic' }],
      },
      cookie: owner.cookie,
    })
    expect(res.status).toBe(201)
    const saved = await res.json()
    expect(saved).toMatchObject({
      name: 'Volcano short',
      source: 'yours',
      nodeCount: 4,
      settings: { preset: '9:16', targetSeconds: 30, sceneCount: 3, voice: 'en-gb' },
      variables: [
        { name: 'topic', kind: 'text', label: 'Topic' },
        { name: 'brand_name', kind: 'text', label: 'Brand name' },
      ],
    })
    expect(saved.previewUrl).toBe(`/api/templates/${saved.id}/preview`)
    // The mark changed the template's copy only.
    const graph = await liveGraph(t, projectId)
    expect(graph.nodes.find((n) => n.id === generator.id)!.data.topic).toBe('Volcanoes')

    // Builtin first (the four, in order), then yours; your team sees it as theirs.
    const mine = await list(owner)
    expect(mine.slice(0, 4).map((tpl) => [tpl.name, tpl.source])).toEqual([
      ['Explainer', 'builtin'],
      ['Vertical short', 'builtin'],
      ['Product clip', 'builtin'],
      ['Story', 'builtin'],
    ])
    expect(mine.at(-1)).toMatchObject({ id: saved.id, source: 'yours' })
    expect((await list(teammate)).find((tpl) => tpl.id === saved.id)?.source).toBe('team')
    const strangers = await list(stranger)
    expect(strangers.map((tpl) => tpl.source)).toEqual(['builtin', 'builtin', 'builtin', 'builtin'])

    // The preview: the project's picture for its people, a 404 for a stranger.
    const preview = await t.request('GET', saved.previewUrl, { cookie: owner.cookie })
    expect(preview.status).toBe(200)
    expect(preview.headers.get('content-type')).toBe('image/png')
    const meta = await sharp(new Uint8Array(await preview.arrayBuffer())).metadata()
    expect([meta.width, meta.height]).toEqual([64, 64])
    expect((await t.request('GET', saved.previewUrl, { cookie: stranger.cookie })).status).toBe(404)
    expect(
      (
        await fromTemplate(stranger, {
          templateId: saved.id,
          values: { topic: 'x', brand_name: 'y' },
        })
      ).status,
    ).toBe(404)

    // A builtin's preview is drawn offline, the same bytes every time, in its format.
    const short = strangers.find((tpl) => tpl.name === 'Vertical short')!
    const first = await t.request('GET', short.previewUrl!, { cookie: stranger.cookie })
    const again = await t.request('GET', short.previewUrl!, { cookie: owner.cookie })
    const a = new Uint8Array(await first.arrayBuffer())
    expect(Buffer.from(a).equals(Buffer.from(await again.arrayBuffer()))).toBe(true)
    const drawn = await sharp(a).metadata()
    expect(drawn.height).toBeGreaterThan(drawn.width)

    // Only its owner deletes it.
    expect(
      (await t.request('DELETE', `/api/templates/${saved.id}`, { cookie: teammate.cookie })).status,
    ).toBe(404)
    expect(
      (await t.request('DELETE', `/api/templates/${short.id}`, { cookie: owner.cookie })).status,
    ).toBe(404)
    expect(
      (await t.request('DELETE', `/api/templates/${saved.id}`, { cookie: owner.cookie })).status,
    ).toBe(200)
    expect((await list(owner)).some((tpl) => tpl.id === saved.id)).toBe(false)
  })

  it('makes a project from a template with its placeholders filled, and refuses a missing or too long value by name, storing nothing', async () => {
    const owner = await addUser(t, 'Uma')
    const { projectId, generator, text } = await savedProject(owner)
    const saved = await (
      await t.request('POST', '/api/templates', {
        body: {
          projectId,
          name: 'Volcano short',
          marks: [{ nodeId: generator.id, field: 'topic', name: 'topic' }],
        },
        cookie: owner.cookie,
      })
    ).json()
    const before = await projectCount(owner.id)

    const missing = await fromTemplate(owner, {
      templateId: saved.id,
      values: { topic: 'Glaciers' },
    })
    expect(missing.status).toBe(400)
    const missingBody = await missing.json()
    expect(missingBody.error.message).toBe('Give a value for {{brand_name}}.')
    expect(missingBody.error.fields).toEqual({ brand_name: 'Give a value for {{brand_name}}.' })
    const tooLong = await fromTemplate(owner, {
      templateId: saved.id,
      values: { topic: 'x'.repeat(TEMPLATE_TEXT_VALUE_MAX_LENGTH + 1), brand_name: 'Acme' },
    })
    expect(tooLong.status).toBe(400)
    expect((await tooLong.json()).error.fields).toEqual({
      topic: `{{topic}} is longer than ${TEMPLATE_TEXT_VALUE_MAX_LENGTH} characters.`,
    })
    expect(await projectCount(owner.id)).toBe(before)

    const res = await fromTemplate(owner, {
      templateId: saved.id,
      values: { topic: 'Glaciers', brand_name: 'Acme' },
    })
    expect(res.status).toBe(201)
    const made = await res.json()
    expect(made.name).toBe('Volcano short: Glaciers')
    expect(made.makeVideo).toEqual({
      projectId: made.id,
      nodeId: generator.id,
      sceneCount: 3,
      preset: '9:16',
      targetSeconds: 30,
      captions: { style: 'classic' },
      voice: 'en-gb',
    })
    const graph = await liveGraph(t, made.id)
    const byId = new Map(graph.nodes.map((n) => [n.id, n]))
    expect(byId.get(generator.id)!.data.topic).toBe('Glaciers')
    expect(byId.get(text.id)!.data.content).toBe('Made by Acme')
    expect(graph.nodes.find((n) => n.type === 'video')!.data.voice).toBe('en-gb')
    expect(await projectCount(owner.id)).toBe(before + 1)
  })

  it('refuses an image value that is not a picture, and one of a file the caller cannot open', async () => {
    const owner = await addUser(t, 'Vic')
    const other = await addUser(t, 'Wes')
    const clip = await builtin(owner, 'Product clip')
    expect(clip.variables.map((v) => [v.name, v.kind])).toEqual([
      ['product_name', 'text'],
      ['image', 'image'],
    ])
    const before = await projectCount(owner.id)
    const notPng = Buffer.from('GIF89a this is no PNG at all').toString('base64')
    const res = await fromTemplate(owner, {
      templateId: clip.id,
      values: { product_name: 'Mug', image: `data:image/png;base64,${notPng}` },
    })
    expect(res.status).toBe(400)
    expect(Object.keys((await res.json()).error.fields)).toEqual(['image'])
    // A real JPEG sent as a PNG is refused too: the bytes must be what the URL says.
    const jpeg = await sharp(await png())
      .jpeg()
      .toBuffer()
    const mislabelled = await fromTemplate(owner, {
      templateId: clip.id,
      values: { product_name: 'Mug', image: `data:image/png;base64,${jpeg.toString('base64')}` },
    })
    expect(mislabelled.status).toBe(400)
    // Someone else's picture.
    const theirs = await createProjectAs(t, other, 'Theirs')
    const stored = await storeGeneratedImage(t.deps.db, t.deps.assets, {
      userId: other.id,
      projectId: theirs,
      image: { bytes: await png(), mimeType: 'image/png' },
    })
    const foreign = await fromTemplate(owner, {
      templateId: clip.id,
      values: { product_name: 'Mug', image: stored.url },
    })
    expect(foreign.status).toBe(400)
    expect((await foreign.json()).error.fields).toHaveProperty('image')
    expect(await projectCount(owner.id)).toBe(before)
  })

  it('make video refuses a scene picture of another project (400) and a stranger (404), charging nothing', async () => {
    const owner = await addUser(t, 'Xia', { credits: 50 })
    const stranger = await addUser(t, 'Yan', { credits: 50 })
    const made = await (
      await fromTemplate(owner, {
        templateId: (await builtin(owner, 'Explainer')).id,
        values: { topic: 'Tides' },
      })
    ).json()
    const elsewhere = await createProjectAs(t, owner, 'Elsewhere')
    const stored = await storeGeneratedImage(t.deps.db, t.deps.assets, {
      userId: owner.id,
      projectId: elsewhere,
      image: { bytes: await png(), mimeType: 'image/png' },
    })
    const body = { ...made.makeVideo, sceneImageUrl: stored.url }
    const res = await t.request('POST', '/api/video/make', { body, cookie: owner.cookie })
    expect(res.status).toBe(400)
    expect((await res.json()).error.fields).toHaveProperty('sceneImageUrl')
    const strangers = await t.request('POST', '/api/video/make', { body, cookie: stranger.cookie })
    expect(strangers.status).toBe(404)
    expect(await balance(t, owner.id)).toBe(50)
    expect(await balance(t, stranger.id)).toBe(50)
  })

  it(
    'make video with a character puts the description into every scene’s visual instructions and image prompt',
    async () => {
      const owner = await addUser(t, 'Zoe', { credits: 100 })
      const story = await builtin(owner, 'Story')
      const character = 'Pip, a small red fox in a blue scarf'
      const made = await (
        await fromTemplate(owner, {
          templateId: story.id,
          values: { topic: 'A walk through the autumn forest', character },
        })
      ).json()
      expect(made.makeVideo).toMatchObject({ sceneCount: 4, preset: '16:9', character })
      const res = await t.request('POST', '/api/video/make', {
        body: made.makeVideo,
        cookie: owner.cookie,
      })
      expect(res.status).toBe(202)
      const { jobId } = await res.json()
      // Once every scene has its image generator, the chain has written what this test reads.
      const graph = await poll(
        () => liveGraph(t, made.id),
        (g) => g.nodes.filter((n) => n.type === 'image-generator').length === 4,
        CHAIN_DONE_MS,
      )
      await t.request('POST', `/api/jobs/${jobId}/cancel`, { cookie: owner.cookie })
      await finished(owner, jobId)
      const scenes = graph.nodes.filter((n) => n.type === 'scene')
      expect(scenes).toHaveLength(4)
      for (const scene of scenes) expect(String(scene.data.visuals)).toContain(character)
      for (const generator of graph.nodes.filter((n) => n.type === 'image-generator')) {
        expect(String(generator.data.prompt)).toContain(character)
      }
    },
    CHAIN_DONE_MS,
  )

  itRenders(
    'the vertical short from the gallery, then Make video: a 9:16 MP4 of 1080x1920 within ±15 % of 30 s (ffprobe)',
    async () => {
      const owner = await addUser(t, 'Ari', { credits: 100 })
      const short = await builtin(owner, 'Vertical short')
      const res = await fromTemplate(owner, {
        templateId: short.id,
        values: { topic: 'How honeybees make honey' },
      })
      expect(res.status).toBe(201)
      const made = await res.json()
      expect(made.name).toBe('Vertical short: How honeybees make honey')
      expect(made.makeVideo).toMatchObject({
        preset: '9:16',
        targetSeconds: 30,
        sceneCount: 3,
        captions: { style: 'bold' },
      })
      const submitted = await t.request('POST', '/api/video/make', {
        body: made.makeVideo,
        cookie: owner.cookie,
      })
      expect(submitted.status).toBe(202)
      const done = await finished(owner, (await submitted.json()).jobId)
      expect(done).toMatchObject({ status: 'succeeded', refunded: 0 })
      const graph = await liveGraph(t, made.id)
      const video = graph.nodes.find((n) => n.type === 'video')!
      const mp4 = await t.request('GET', String(video.data.videoUrl), { cookie: owner.cookie })
      const { width, height, seconds } = await probe(new Uint8Array(await mp4.arrayBuffer()))
      expect([width, height]).toEqual([1080, 1920])
      expect(Math.abs(seconds - 30) / 30, `${seconds} s`).toBeLessThanOrEqual(
        TARGET_LENGTH_TOLERANCE,
      )
      // The bold word captions are the Video node's own look, kept for its later renders, and
      // the take was rendered with them: nothing is stale.
      const settings = await t.deps.documents.transact(
        made.id,
        (doc) => storedTimelineOf(getTimelinesMap(doc).entries(), video.id)?.settings,
      )
      expect(settings?.captionStyle).toBe('bold')
      const quote = await t.request('GET', `/api/projects/${made.id}/run-quote?scope=stale`, {
        cookie: owner.cookie,
      })
      expect(quote.status).toBe(200)
      expect(await quote.json()).toMatchObject({ nodes: [], credits: 0 })
      // Each image generator holds the model the canvas offers first, so an open canvas has
      // nothing to fill in that would make it Stale.
      const models = await t.request('GET', '/api/csas/models?limit=1', { cookie: owner.cookie })
      const [first] = (await models.json()).items
      const generators = graph.nodes.filter((n) => n.type === 'image-generator')
      expect(generators).toHaveLength(3)
      for (const generator of generators) {
        expect(generator.data).toMatchObject({
          modelId: String(first.id),
          modelVersionId: String(first.modelVersions[0].id),
        })
      }
    },
    CHAIN_DONE_MS,
  )

  itRenders(
    'the product clip: an uploaded picture in every scene, animated, no image generated or charged',
    async () => {
      const owner = await addUser(t, 'Bo', { credits: 100 })
      const clip = await builtin(owner, 'Product clip')
      const picture = await png(256)
      const res = await fromTemplate(owner, {
        templateId: clip.id,
        values: {
          product_name: 'A handmade ceramic mug',
          image: `data:image/png;base64,${Buffer.from(picture).toString('base64')}`,
        },
      })
      expect(res.status).toBe(201)
      const made = await res.json()
      expect(made.makeVideo).toMatchObject({
        preset: '9:16',
        sceneCount: 2,
        targetSeconds: 15,
        animate: { modelId: BUILTIN_MOTION_MODEL_ID },
      })
      const sceneImageUrl = String(made.makeVideo.sceneImageUrl)
      // The picture is the new project's own asset, byte for byte.
      const stored = await t.request('GET', sceneImageUrl, { cookie: owner.cookie })
      expect(Buffer.from(await stored.arrayBuffer()).equals(Buffer.from(picture))).toBe(true)

      const before = await balance(t, owner.id)
      const submitted = await t.request('POST', '/api/video/make', {
        body: made.makeVideo,
        cookie: owner.cookie,
      })
      expect(submitted.status).toBe(202)
      const done = await finished(owner, (await submitted.json()).jobId)
      expect(done).toMatchObject({ status: 'succeeded', refunded: 0 })
      // Charged the chain without its images.
      const motion = requireVideoModel(t.deps.catalog, BUILTIN_MOTION_MODEL_ID).model
      const expected = makeVideoCost(costs, 2, motion, { sceneImage: true })
      expect(expected).toBe(makeVideoCost(costs, 2, motion) - 2 * costs.image)
      expect(before - (await balance(t, owner.id))).toBe(expected)
      expect(done.cost).toBe(expected)

      const graph = await liveGraph(t, made.id)
      const images = graph.nodes.filter((n) => n.type === 'image')
      expect(images).toHaveLength(2)
      for (const image of images) expect(image.data.imageUrl).toBe(sceneImageUrl)
      const clips = graph.nodes.filter((n) => n.type === 'clip')
      expect(clips).toHaveLength(2)
      for (const c of clips) expect(String(c.data.videoUrl)).toMatch(/^\/api\/assets\//)
      // No picture was generated: the project's only PNG is the uploaded one.
      const pngs = await t.deps.db
        .selectFrom('assets')
        .select('id')
        .where('project_id', '=', made.id)
        .where('mime_type', '=', 'image/png')
        .execute()
      expect(pngs.map((r) => `/api/assets/${r.id}`)).toEqual([sceneImageUrl])
      const video = graph.nodes.find((n) => n.type === 'video')!
      const mp4 = await t.request('GET', String(video.data.videoUrl), { cookie: owner.cookie })
      const { width, height } = await probe(new Uint8Array(await mp4.arrayBuffer()))
      expect([width, height]).toEqual([1080, 1920])
    },
    CHAIN_DONE_MS,
  )
})
