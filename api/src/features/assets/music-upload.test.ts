import { execFile } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
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
 * ffmpeg, re-encoded to FLAC (issue 40 item 5: lossless and compressed, never a PCM WAV many
 * times the upload's size) before anything else reads it, and refused with a clear error and
 * nothing stored when it is not audio or is a playlist. Checked with ffprobe.
 */
describe.each(testDatabaseKinds())('music uploads on $name', (kind) => {
  let t: TestApp
  let owner: TestUser
  let dir: string
  let mp3: Uint8Array<ArrayBuffer>
  let png: Uint8Array<ArrayBuffer>
  let silence: Uint8Array<ArrayBuffer>

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
    // Five minutes of silence as FLAC: some 50 KB a PCM WAV made 58 MB of.
    await run('ffmpeg', [
      ...['-v', 'error', '-f', 'lavfi', '-i', 'anullsrc=r=44100:cl=stereo:d=300'],
      ...['-c:a', 'flac', join(dir, 'silence.flac')],
    ])
    mp3 = new Uint8Array(await readFile(join(dir, 'a.mp3')))
    silence = new Uint8Array(await readFile(join(dir, 'silence.flac')))
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

  /** ffprobe's reading of a stored asset: `codec,rate,channels,bits` and its length in s. */
  const probeAsset = async (url: string, cookie: string) => {
    const res = await t.request('GET', url, { cookie })
    const path = join(dir, `got-${url.split('/').pop()}`)
    await writeFile(path, new Uint8Array(await res.arrayBuffer()))
    const { stdout } = await run('ffprobe', [
      ...['-v', 'error', '-show_entries'],
      'stream=codec_name,sample_rate,channels,bits_per_raw_sample:format=format_name,duration',
      ...['-of', 'json', path],
    ])
    const parsed = JSON.parse(stdout) as {
      streams: Record<string, string | number>[]
      format: { format_name: string; duration: string }
    }
    const s = parsed.streams[0]!
    return {
      contentType: res.headers.get('content-type'),
      stream: `${s.codec_name},${s.sample_rate},${s.channels},${s.bits_per_raw_sample}`,
      format: parsed.format.format_name,
      seconds: Number(parsed.format.duration),
      bytes: (await stat(path)).size,
    }
  }

  it('stores an MP3 as a 48 kHz stereo FLAC the project’s members can play', async () => {
    const projectId = await createProjectAs(t, owner, 'Score')
    const res = await upload(projectId, mp3, owner.cookie)
    expect(res.status).toBe(201)
    const body = (await res.json()) as AudioUpload
    expect(body.url).toMatch(/^\/api\/assets\/[a-z2-7]{32}$/)
    expect(Math.abs(body.durationMs - 2_000)).toBeLessThan(60)
    const stored = await probeAsset(body.url, owner.cookie)
    expect(stored).toMatchObject({
      contentType: 'audio/flac',
      stream: 'flac,48000,2,16',
      format: 'flac',
    })
    // The length it answers is the stored file's, as ffprobe measures it.
    expect(Math.abs(body.durationMs - stored.seconds * 1000)).toBeLessThanOrEqual(2)
    const row = await t.deps.db
      .selectFrom('assets')
      .select(['mime_type', 'byte_size'])
      .where('id', '=', body.url.split('/').pop()!)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ mime_type: 'audio/flac', byte_size: stored.bytes })
    const stranger = await addUser(t, 'Stranger')
    expect((await t.request('GET', body.url, { cookie: stranger.cookie })).status).toBe(404)
    // Nothing of the upload is left in the work folder.
    expect(await readdir(uploadWorkDir(t.deps.env)).catch(() => [])).toEqual([])
  })

  it('keeps five minutes of silence within twice the upload’s size (a WAV was ~1,000x)', async () => {
    const projectId = await createProjectAs(t, owner, 'Quiet')
    const res = await upload(projectId, silence, owner.cookie)
    expect(res.status).toBe(201)
    const body = (await res.json()) as AudioUpload
    expect(Math.abs(body.durationMs - 300_000)).toBeLessThanOrEqual(2)
    const stored = await probeAsset(body.url, owner.cookie)
    expect(stored).toMatchObject({ contentType: 'audio/flac', stream: 'flac,48000,2,16' })
    expect(Math.abs(stored.seconds - 300)).toBeLessThan(0.05)
    expect(stored.bytes).toBeLessThanOrEqual(2 * silence.byteLength)
  })

  it('refuses a playlist or a list naming a local file, in words, storing nothing', async () => {
    const projectId = await createProjectAs(t, owner, 'Lists')
    const before = await assetCount()
    const local = join(dir, 'a.mp3')
    for (const [list, words] of [
      [`#EXTM3U\n#EXTINF:2,\nfile://${local}\n#EXT-X-ENDLIST\n`, /HLS or M3U playlist/],
      [`ffconcat version 1.0\nfile '${local}'\n`, /ffconcat list/],
    ] as const) {
      const res = await upload(projectId, new TextEncoder().encode(list), owner.cookie)
      expect(res.status).toBe(400)
      const { message } = (await res.json()).error as { message: string }
      expect(message).toMatch(words)
      expect(message).toMatch(/not audio.*Upload an audio file/)
    }
    expect(await assetCount()).toBe(before)
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
