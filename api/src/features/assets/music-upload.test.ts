import { execFile } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import { type AudioUpload, MAX_AUDIO_UPLOAD_BYTES } from '@reelgraph/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, addUser, createProjectAs, type TestUser } from '../../testing/members.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { uploadWorkDir } from '../../lib/upload-dir.ts'

const run = promisify(execFile)

/**
 * `POST /api/assets/audio` (issue 24 item 1): a music upload is limited in size, read by
 * ffmpeg, re-encoded to PCM WAV before anything else reads it, and refused with a clear error
 * and nothing stored when it is not audio. Checked with ffprobe.
 */
describe.each(testDatabaseKinds())('music uploads on $name', (kind) => {
  let t: TestApp
  let owner: TestUser
  let dir: string
  let mp3: Uint8Array<ArrayBuffer>
  let png: Uint8Array<ArrayBuffer>

  beforeAll(async () => {
    t = await createTestApp(kind)
    owner = await addUser(t, 'Mira')
    dir = await mkdtemp(join(tmpdir(), 'music-upload-api-'))
    await run('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=2',
      '-c:a',
      'libmp3lame',
      join(dir, 'a.mp3'),
    ])
    await run('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'color=blue:s=32x32:d=1',
      '-frames:v',
      '1',
      join(dir, 'a.png'),
    ])
    mp3 = new Uint8Array(await readFile(join(dir, 'a.mp3')))
    png = new Uint8Array(await readFile(join(dir, 'a.png')))
  })
  afterAll(async () => {
    await t.close()
    await rm(dir, { recursive: true, force: true })
  })

  const upload = (
    projectId: number,
    body: Uint8Array<ArrayBuffer>,
    cookie?: string,
    headers?: Record<string, string>,
  ) =>
    t.request('POST', `/api/assets/audio?projectId=${projectId}`, {
      rawBody: body,
      cookie,
      headers: { 'content-type': 'application/octet-stream', ...headers },
    })
  const assetCount = async () =>
    Number(
      (
        await t.deps.db
          .selectFrom('assets')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )

  it('stores an MP3 as a 48 kHz stereo PCM WAV the project’s members can play', async () => {
    const projectId = await createProjectAs(t, owner, 'Score')
    const res = await upload(projectId, mp3, owner.cookie)
    expect(res.status).toBe(201)
    const body = (await res.json()) as AudioUpload
    expect(body.url).toMatch(/^\/api\/assets\/[a-z2-7]{32}$/)
    expect(Math.abs(body.durationMs - 2_000)).toBeLessThan(60)
    const wav = await t.request('GET', body.url, { cookie: owner.cookie })
    expect(wav.headers.get('content-type')).toBe('audio/wav')
    await writeFile(join(dir, 'got.wav'), new Uint8Array(await wav.arrayBuffer()))
    const { stdout } = await run('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'stream=codec_name,sample_rate,channels',
      '-of',
      'csv=p=0',
      join(dir, 'got.wav'),
    ])
    expect(stdout.trim()).toBe('pcm_s16le,48000,2')
    const stranger = await addUser(t, 'Stranger')
    expect((await t.request('GET', body.url, { cookie: stranger.cookie })).status).toBe(404)
    // Nothing of the upload is left in the work folder.
    expect(await readdir(uploadWorkDir(t.deps.env)).catch(() => [])).toEqual([])
  })

  it('refuses a picture, an empty body and a file over the size limit, storing nothing', async () => {
    const projectId = await createProjectAs(t, owner, 'Not music')
    const before = await assetCount()
    const picture = await upload(projectId, png, owner.cookie)
    expect(picture.status).toBe(400)
    expect((await picture.json()).error.message).toMatch(/not audio.*Upload an audio file/)
    expect((await upload(projectId, new Uint8Array(0), owner.cookie)).status).toBe(400)
    const huge = await upload(projectId, new Uint8Array(MAX_AUDIO_UPLOAD_BYTES + 1), owner.cookie)
    expect(huge.status).toBe(413)
    expect(await assetCount()).toBe(before)
  })

  it('is for the project’s editors: a stranger gets 404, a viewer 403, no session 401', async () => {
    const projectId = await createProjectAs(t, owner, 'Private')
    const stranger = await addUser(t, 'Outsider')
    const viewer = await addUser(t, 'Viewer')
    await addMember(t, projectId, viewer.id, 'viewer')
    expect((await upload(projectId, mp3, stranger.cookie)).status).toBe(404)
    expect((await upload(projectId, mp3, viewer.cookie)).status).toBe(403)
    expect((await upload(projectId, mp3)).status).toBe(401)
  })
})
