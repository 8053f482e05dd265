import { execFile } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { costlyTestsRunOn, testDatabaseKinds } from '@reelgraph/db/testing'
import {
  collectVideoInputs,
  createGraphNode,
  defaultCutId,
  docFilm,
  docToGraph,
  editCut,
  editTimelineSettings,
  type GraphNode,
  moveCut,
  planFilm,
  updateNodeData,
} from '@reelgraph/shared'
import { unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jobAs as job } from '../../../testing/jobs.ts'
import { addMember, addUser, createProjectAs, type TestUser } from '../../../testing/members.ts'
import { createTestApp, type TestApp } from '../../../testing/test-app.ts'
import { until } from '../../../testing/until.ts'
import { storeGeneratedImage, storeMediaAsset } from '../../assets/asset-service.ts'
import { FILM_MUSIC_MESSAGES } from '../film-music.ts'
import { solidPng } from '../../generation/providers/testing/images.ts'
import { checkFcpxml, findAll, framesOf, parseXml } from './testing/fcpxml-reader.ts'
import { type ReadItem, readOtio } from './testing/otio-reader.ts'

/**
 * `POST /api/video/export` end to end (issue 24 items 3 and 4): a Video node whose timeline
 * was reordered and trimmed, rendered by the in-process worker with the builtin voice, then
 * exported. The ZIP is unpacked, the timeline file read back (OTIO's documented schema; the
 * FCPXML structure check) and every media file it references read by ffprobe.
 */

const run = promisify(execFile)
const RENDER_DONE_MS = 90_000
const TEST_MS = 150_000
const COSTS = { COST_VIDEO: '3', COST_VOICE: '2' }

/** A 6 s 640x360 MP4 with a tone, as a video model would deliver one. */
async function clipFile(path: string): Promise<void> {
  await run('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=30:d=6'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=880:sample_rate=48000:duration=6'],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-f', 'mp4', path],
  ])
}

interface Probe {
  streams: { codec_type: string; codec_name: string; sample_rate?: string; channels?: number }[]
  format: { format_name?: string; duration?: string }
}

async function probe(path: string): Promise<Probe> {
  const entries = 'stream=codec_type,codec_name,sample_rate,channels:format=format_name,duration'
  const { stdout } = await run('ffprobe', [
    ...['-v', 'error', '-show_entries', entries],
    ...['-of', 'json', path],
  ])
  return JSON.parse(stdout) as Probe
}

// Each test reads the film the first renders: all run on one database kind (`costlyTestsRunOn`).
const renderKinds = testDatabaseKinds().filter(costlyTestsRunOn)

describe.each(renderKinds)('the export for an editor on $name', (kind) => {
  let t: TestApp
  let dir: string
  let owner: TestUser
  let projectId: number
  let video: GraphNode
  let scenes: GraphNode[]

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { JOB_WAIT_MS: '0', ...COSTS })
    dir = await mkdtemp(join(tmpdir(), 'reelgraph-export-test-'))
    await clipFile(join(dir, 'clip.mp4'))
    owner = await addUser(t, 'Edith', { credits: 50 })
    projectId = await createProjectAs(t, owner, 'Rock pools & tides')
    let x = 0
    const at = () => ({ x: (x += 500), y: 0 })
    video = createGraphNode('video', at())
    const nodes: GraphNode[] = [video]
    const connections: { source: string; target: string }[] = []
    for (const number of ['1', '2', '3']) {
      const scene = createGraphNode('scene', at(), nodes)
      scene.data.sceneNumber = number
      scene.data.narration = `Scene ${number}.`
      nodes.push(scene)
      connections.push({ source: scene.id, target: video.id })
      if (number === '1') {
        const stored = await storeMediaAsset(t.deps.db, t.deps.assets, {
          userId: owner.id,
          projectId,
          content: { path: join(dir, 'clip.mp4') },
          mimeType: 'video/mp4',
        })
        const generator = createGraphNode('video-generator', at())
        const clip = createGraphNode('clip', at())
        Object.assign(clip.data, { videoUrl: stored.url, durationMs: 6000, hasAudio: true })
        nodes.push(generator, clip)
        connections.push(
          { source: scene.id, target: generator.id },
          { source: generator.id, target: clip.id },
        )
        continue
      }
      const image = await storeGeneratedImage(t.deps.db, t.deps.assets, {
        userId: owner.id,
        projectId,
        image: { bytes: await solidPng(320 + Number(number), 180), mimeType: 'image/png' },
      })
      const generator = createGraphNode('image-generator', at())
      const node = createGraphNode('image', at())
      node.data.imageUrl = image.url
      nodes.push(generator, node)
      connections.push(
        { source: scene.id, target: generator.id },
        { source: generator.id, target: node.id },
      )
    }
    await t.deps.documents.applyGraph(projectId, { nodes, connections })
    scenes = nodes.filter((n) => n.type === 'scene')
    // The timeline: scene 3 moved to the front, scene 1's clip trimmed to 1 s .. 5.5 s, a
    // title card, a dip into scene 2, builtin music.
    await t.deps.documents.transact(projectId, (doc, origin) => {
      const inputs = collectVideoInputs(docToGraph(doc), video.id)!
      const film = docFilm(doc, video.id, inputs.scenes).cuts
      moveCut(doc, video.id, film, defaultCutId(scenes[2]!.id), 0, origin)
      const first = film.find((c) => c.sceneId === scenes[0]!.id)!
      editCut(doc, video.id, first, { inMs: 1_000, outMs: 5_500 }, origin)
      const second = film.find((c) => c.sceneId === scenes[1]!.id)!
      editCut(doc, video.id, second, { transition: 'dip', transitionMs: 600 }, origin)
      editTimelineSettings(
        doc,
        video.id,
        { titleMs: 1_500, titleText: 'Rock <pools>', music: 'builtin:warm-pad' },
        origin,
      )
    })
  })
  afterAll(async () => {
    await t.close()
    await rm(dir, { recursive: true, force: true })
  })

  const exportAs = (user: TestUser, body: Record<string, unknown>) =>
    t.request('POST', '/api/video/export', { body, cookie: user.cookie })

  it(
    'refuses before the first render (409), then gives members a ZIP whose timeline is the film and whose media ffprobe reads',
    async () => {
      const early = await exportAs(owner, { projectId, nodeId: video.id, format: 'otio' })
      expect(early.status).toBe(409)
      expect((await early.json()).error).toMatchObject({
        code: 'NOT_RENDERED',
        message: expect.stringContaining('Render this video first'),
      })

      const res = await t.request('POST', '/api/video/render', {
        body: { projectId, nodeId: video.id },
        cookie: owner.cookie,
      })
      expect(res.status).toBe(202)
      const { jobId } = await res.json()
      const done = await until(
        () => job(t, owner, jobId),
        (j) => j.status !== 'queued' && j.status !== 'running',
        RENDER_DONE_MS,
      )
      expect(done.status).toBe('succeeded')

      const answer = await exportAs(owner, { projectId, nodeId: video.id, format: 'otio' })
      expect(answer.status).toBe(200)
      expect(answer.headers.get('content-type')).toBe('application/zip')
      expect(answer.headers.get('content-disposition')).toBe(
        `attachment; filename="Rock pools & tides - OTIO.zip"; filename*=UTF-8''${encodeURIComponent('Rock pools & tides - OTIO.zip')}`,
      )
      const files = unzipSync(new Uint8Array(await answer.arrayBuffer()))
      expect(Object.keys(files)).toEqual([
        'Rock pools & tides.otio',
        'README.txt',
        'media/scene-03.png',
        'media/scene-01.mp4',
        'media/scene-02.png',
        'media/narration-scene-03.wav',
        'media/narration-scene-01.wav',
        'media/narration-scene-02.wav',
        'media/music.wav',
      ])
      const unpacked = join(dir, 'otio')
      for (const [name, bytes] of Object.entries(files)) {
        await run('mkdir', ['-p', join(unpacked, 'media')])
        await writeFile(join(unpacked, name), bytes)
      }

      // Every file the timeline references is in the ZIP and is what it says: ffprobe reads it.
      const otio = readOtio(new TextDecoder().decode(files['Rock pools & tides.otio']))
      const [videoTrack, narration, music] = otio.tracks
      const clips = (track: typeof videoTrack) =>
        track!.children.filter((c): c is ReadItem => c.schema === 'Clip.2')
      const referenced = new Set(
        [videoTrack, narration, music].flatMap((track) => clips(track).map((c) => c.targetUrl!)),
      )
      expect([...referenced].sort()).toEqual(
        Object.keys(files)
          .filter((n) => n.startsWith('media/'))
          .sort(),
      )
      const probes = new Map<string, Probe>()
      for (const name of referenced) probes.set(name, await probe(join(unpacked, name)))
      expect(
        probes
          .get('media/scene-01.mp4')!
          .streams.map((s) => s.codec_name)
          .sort(),
      ).toEqual(['aac', 'h264'])
      expect(probes.get('media/scene-02.png')!.streams[0]!.codec_name).toBe('png')
      for (const name of ['media/narration-scene-01.wav', 'media/music.wav']) {
        expect(probes.get(name)!.streams[0]).toMatchObject({ codec_type: 'audio' })
        expect(probes.get(name)!.streams[0]!.codec_name).toMatch(/^pcm_/)
      }

      // The film the timeline makes, planned from what ffprobe measures of the narrations.
      const narrationMs = (sceneNumber: string) =>
        Number(probes.get(`media/narration-scene-0${sceneNumber}.wav`)!.format.duration) * 1000
      const plan = await t.deps.documents.transact(projectId, (doc) => {
        const inputs = collectVideoInputs(docToGraph(doc), video.id)!
        const film = docFilm(doc, video.id, inputs.scenes)
        return planFilm(film.cuts, film.settings, (c) => ({
          clipMs: c.scene.clip?.durationMs ?? null,
          narrationMs: narrationMs(c.scene.sceneNumber),
        }))
      })
      const items = videoTrack!.children.filter((c): c is ReadItem => c.schema !== 'Transition.1')
      // Order: the title card, scene 3 (moved first), scene 1, scene 2.
      expect(items.map((i) => i.targetUrl)).toEqual([
        null,
        'media/scene-03.png',
        'media/scene-01.mp4',
        'media/scene-02.png',
      ])
      expect(items[0]!.name).toBe('Title card: Rock <pools>')
      // Durations: each item with its transitions is its planned piece (within the frame
      // ffprobe's rounding of a WAV's length may move); the track is the film.
      items.forEach((item, i) => {
        expect(Math.abs(item.visibleDuration - plan.pieces[i]!.frames)).toBeLessThanOrEqual(1)
      })
      expect(Math.abs(videoTrack!.duration - plan.totalFrames)).toBeLessThanOrEqual(1)
      // The trimmed clip: in point 1 s (frame 30), out point 5.5 s: 135 frames.
      expect(items[2]!.visibleStart).toBe(30)
      expect(items[2]!.visibleDuration).toBe(135)
      expect(items[2]!.availableDuration).toBe(180)
      const transitions = videoTrack!.children.filter((c) => c.schema === 'Transition.1')
      expect(transitions.map((tr) => tr.name)).toContain('Dip to Black')
      // The narrations in the film's order, within it; the music covers the film.
      expect(clips(narration).map((c) => c.targetUrl)).toEqual([
        'media/narration-scene-03.wav',
        'media/narration-scene-01.wav',
        'media/narration-scene-02.wav',
      ])
      expect(narration!.duration).toBeLessThanOrEqual(videoTrack!.duration)
      expect(music!.duration).toBe(videoTrack!.duration)
    },
    TEST_MS,
  )

  it('gives a viewer the FCPXML of the same film; a stranger 404; a bad format 400', async () => {
    const viewer = await addUser(t, 'Vera')
    await addMember(t, projectId, viewer.id, 'viewer')
    // (Rendered by the test before: the tests of this file run in order.)
    const answer = await exportAs(viewer, { projectId, nodeId: video.id, format: 'fcpxml' })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-disposition')).toContain(
      'filename="Rock pools & tides - FCPXML.zip"',
    )
    const files = unzipSync(new Uint8Array(await answer.arrayBuffer()))
    const xml = new TextDecoder().decode(files['Rock pools & tides.fcpxml'])
    const root = parseXml(xml)
    checkFcpxml(root, 30)
    const sources = findAll(root, 'media-rep').map((m) => m.attrs.src!)
    expect(sources.sort()).toEqual(
      Object.keys(files)
        .filter((n) => n.startsWith('media/'))
        .sort(),
    )
    const spine = findAll(root, 'spine')[0]!
    expect(spine.children.filter((c) => c.name !== 'transition').map((c) => c.name)).toEqual([
      'gap',
      'video',
      'asset-clip',
      'video',
    ])
    const sequence = findAll(root, 'sequence')[0]!
    const total = spine.children
      .filter((c) => c.name !== 'transition')
      .reduce((sum, c) => sum + framesOf(c.attrs.duration, 30), 0)
    expect(framesOf(sequence.attrs.duration, 30)).toBe(total)

    const stranger = await addUser(t, 'Stan')
    const denied = await exportAs(stranger, { projectId, nodeId: video.id, format: 'otio' })
    expect(denied.status).toBe(404)
    const bad = await exportAs(owner, { projectId, nodeId: video.id, format: 'edl' })
    expect(bad.status).toBe(400)
    expect((await bad.json()).error.message).toMatch(/format/)
    const notVideo = await exportAs(owner, { projectId, nodeId: scenes[0]!.id, format: 'otio' })
    expect(notVideo.status).toBe(404)
  })

  it('decodes uploaded FLAC music to a 48 kHz stereo 16-bit WAV every editor imports (issue 40 item 5)', async () => {
    // (Rendered by the first test: music is no input of the render's check.)
    const mp3 = join(dir, 'upload.mp3')
    await run('ffmpeg', [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=4'],
      ...['-c:a', 'libmp3lame', mp3],
    ])
    const uploaded = await t.request('POST', `/api/assets/audio?projectId=${projectId}`, {
      rawBody: new Uint8Array(await readFile(mp3)),
      cookie: owner.cookie,
      headers: { 'content-type': 'audio/mpeg' },
    })
    expect(uploaded.status).toBe(201)
    // The stored asset is a FLAC (issue 40 item 5), as long as the upload says.
    const { url, durationMs } = (await uploaded.json()) as { url: string; durationMs: number }
    const stored = await t.deps.db
      .selectFrom('assets')
      .select('mime_type')
      .where('id', '=', url.split('/').pop()!)
      .executeTakeFirstOrThrow()
    expect(stored.mime_type).toBe('audio/flac')
    await t.deps.documents.transact(projectId, (doc, origin) =>
      editTimelineSettings(doc, video.id, { music: url }, origin),
    )
    try {
      for (const format of ['otio', 'fcpxml'] as const) {
        const answer = await exportAs(owner, { projectId, nodeId: video.id, format })
        expect(answer.status).toBe(200)
        const files = unzipSync(new Uint8Array(await answer.arrayBuffer()))
        expect(Object.keys(files).filter((n) => n.startsWith('media/music'))).toEqual([
          'media/music.wav',
        ])
        const path = join(dir, `music-${format}.wav`)
        await writeFile(path, files['media/music.wav']!)
        // ffprobe's reading: a PCM WAV at 48 kHz, stereo, 16-bit, as long as the FLAC.
        const music = await probe(path)
        expect(music.format.format_name).toBe('wav')
        expect(music.streams).toHaveLength(1)
        expect(music.streams[0]).toMatchObject({
          codec_type: 'audio',
          codec_name: 'pcm_s16le',
          sample_rate: '48000',
          channels: 2,
        })
        const seconds = Number(music.format.duration)
        expect(Math.abs(seconds - durationMs / 1000)).toBeLessThan(0.002)
        // The timeline's music clip is as long as ffprobe measures the file (30 fps frames).
        const name = `Rock pools & tides.${format}`
        const timeline = new TextDecoder().decode(files[name])
        let musicFrames: number
        if (format === 'otio') {
          const otio = readOtio(timeline)
          const loops = otio.tracks[2]!.children.filter((c): c is ReadItem => c.schema === 'Clip.2')
          expect(loops[0]!.targetUrl).toBe('media/music.wav')
          expect(otio.tracks[2]!.duration).toBe(otio.tracks[0]!.duration)
          musicFrames = loops[0]!.availableDuration!
        } else {
          const root = parseXml(timeline)
          checkFcpxml(root, 30)
          const asset = findAll(root, 'asset').find((a) =>
            findAll(a, 'media-rep').some((m) => m.attrs.src === 'media/music.wav'),
          )!
          expect(asset.attrs).toMatchObject({ hasAudio: '1' })
          musicFrames = framesOf(asset.attrs.duration, 30)
        }
        expect(Math.abs(musicFrames - seconds * 30)).toBeLessThanOrEqual(1)
      }
      // Nothing of the decoding is left behind (removed as the WAV's file closes).
      const work = join(t.deps.env.DATA_DIR, 'export-work')
      await until(
        () => readdir(work),
        (names) => names.length === 0,
        2_000,
      )
    } finally {
      await t.deps.documents.transact(projectId, (doc, origin) =>
        editTimelineSettings(doc, video.id, { music: 'builtin:warm-pad' }, origin),
      )
    }
  })

  it('refuses another project’s music in the render’s words, never dropping it (issue 40 item 7)', async () => {
    // (Rendered by the first test: music is no input of the render's check.)
    const wav = join(dir, 'other-music.wav')
    await run('ffmpeg', [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=330:duration=2'],
      ...['-ar', '48000', '-ac', '2', '-c:a', 'pcm_s16le', wav],
    ])
    const otherProject = await createProjectAs(t, owner, 'Another film')
    const theirs = await storeMediaAsset(t.deps.db, t.deps.assets, {
      userId: owner.id,
      projectId: otherProject,
      content: { path: wav },
      mimeType: 'audio/wav',
    })
    await t.deps.documents.transact(projectId, (doc, origin) =>
      editTimelineSettings(doc, video.id, { music: theirs.url }, origin),
    )
    try {
      for (const format of ['otio', 'fcpxml']) {
        const answer = await exportAs(owner, { projectId, nodeId: video.id, format })
        expect(answer.status).toBe(400)
        expect((await answer.json()).error.message).toBe(FILM_MUSIC_MESSAGES.gone)
      }
    } finally {
      await t.deps.documents.transact(projectId, (doc, origin) =>
        editTimelineSettings(doc, video.id, { music: 'builtin:warm-pad' }, origin),
      )
    }
  })

  it('refuses (409) once a narration changed since the render, naming the scene', async () => {
    await t.deps.documents.transact(projectId, (doc, origin) =>
      updateNodeData(doc, scenes[1]!.id, { narration: 'Scene 2, told again.' }, origin),
    )
    const answer = await exportAs(owner, { projectId, nodeId: video.id, format: 'fcpxml' })
    expect(answer.status).toBe(409)
    expect((await answer.json()).error).toMatchObject({
      code: 'NOT_RENDERED',
      message: 'The narration of scene 2 changed since the last render: render again to export it.',
    })
  })

  it('is in the OpenAPI document: its input schema and a ZIP answer', async () => {
    const doc = await (await t.request('GET', '/api/openapi.json')).json()
    const post = doc.paths['/video/export'].post
    expect(Object.keys(post.responses['200'].content)).toEqual(['application/zip'])
    expect(doc.components.schemas.ExportInput.properties.format.enum).toEqual(['otio', 'fcpxml'])
  })
})
