import { testDatabaseKinds } from '@reelgraph/db/testing'
import { ASSET_ID_PATTERN, GENERATED_IMAGE_FILENAME } from '@reelgraph/shared'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, addUser } from '../../testing/members.ts'
import { createTestApp, sessionCookieFrom, type TestApp } from '../../testing/test-app.ts'
import { createBuiltinImageProvider } from '../generation/providers/builtin-image.ts'
import { ProviderError } from '../generation/providers/types.ts'
import {
  createAssetId,
  deleteProjectAssets,
  readAsset,
  storeGeneratedImage,
  storeMediaAsset,
} from './asset-service.ts'

async function pngOf(width: number, height: number): Promise<Uint8Array> {
  const image = await createBuiltinImageProvider().generateImage(
    {
      projectId: 1,
      modelVersionId: 'storyboard-v1',
      prompt: 'A quiet harbour at dawn',
      negativePrompt: '',
      width,
      height,
      numInferenceSteps: 25,
      guidanceScale: 7.5,
      seed: 5,
    },
    new AbortController().signal,
  )
  return image.bytes
}

describe('asset ids', () => {
  it('are 32 base32 characters and never repeat', () => {
    const ids = new Set(Array.from({ length: 1000 }, createAssetId))
    expect(ids.size).toBe(1000)
    for (const id of ids) expect(id).toMatch(ASSET_ID_PATTERN)
  })
})

describe.each(testDatabaseKinds())('assets on $name', (kind) => {
  let t: TestApp
  let owner: string | undefined
  let stranger: string | undefined
  let ownerId: number
  let projectId: number
  let png: Uint8Array
  let counter = 0

  async function signUp(): Promise<{ cookie: string | undefined; id: number }> {
    const res = await t.request('POST', '/api/register', {
      body: {
        name: 'Owner',
        email: `a${++counter}-${Date.now()}@example.com`,
        password: 'paper lantern river',
      },
    })
    const cookie = sessionCookieFrom(res)
    const me = await (await t.request('GET', '/api/user', { cookie })).json()
    return { cookie, id: me.id }
  }

  beforeAll(async () => {
    t = await createTestApp(kind)
    const a = await signUp()
    owner = a.cookie
    ownerId = a.id
    stranger = (await signUp()).cookie
    const res = await t.request('POST', '/api/projects', { body: { name: 'Film' }, cookie: owner })
    projectId = (await res.json()).id
    png = await pngOf(320, 180)
  })
  afterAll(() => t.close())

  async function store(bytes = png, mimeType = 'image/png') {
    return storeGeneratedImage(t.deps.db, t.deps.assets, {
      userId: ownerId,
      projectId,
      image: { bytes, mimeType },
    })
  }

  it('stores the bytes, then a row, and answers the URL', async () => {
    const { assetId, url } = await store()
    expect(assetId).toMatch(ASSET_ID_PATTERN)
    expect(url).toBe(`/api/assets/${assetId}`)
    const row = await t.deps.db
      .selectFrom('assets')
      .selectAll()
      .where('id', '=', assetId)
      .executeTakeFirstOrThrow()
    expect(row).toMatchObject({
      user_id: ownerId,
      project_id: projectId,
      storage_key: `projects/${projectId}/${assetId}.png`,
      mime_type: 'image/png',
      byte_size: png.byteLength,
    })
    expect(Buffer.from((await t.deps.assets.get(row.storage_key))!).equals(Buffer.from(png))).toBe(
      true,
    )
  })

  it('refuses bytes that are not an image, and projects that are not the user’s', async () => {
    await expect(store(new TextEncoder().encode('<html>'), 'image/png')).rejects.toBeInstanceOf(
      ProviderError,
    )
    await expect(
      storeGeneratedImage(t.deps.db, t.deps.assets, {
        userId: ownerId,
        projectId: 2_000_000_000,
        image: { bytes: png, mimeType: 'image/png' },
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('serves the owner the bytes with type, cache and sniffing headers', async () => {
    const { url, assetId } = await store()
    const res = await t.request('GET', url, { cookie: owner })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/png')
    expect(res.headers.get('cache-control')).toBe('private, max-age=31536000, immutable')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('etag')).toBe(`"${assetId}"`)
    expect(res.headers.get('content-disposition')).toBeNull()
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(png))).toBe(true)

    const again = await t.request('GET', url, {
      cookie: owner,
      headers: { 'if-none-match': `"${assetId}"` },
    })
    expect(again.status).toBe(304)
  })

  it('downloads as generated-image.jpg converted to JPEG', async () => {
    const { url } = await store()
    const res = await t.request('GET', `${url}?download=1`, { cookie: owner })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/jpeg')
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="${GENERATED_IMAGE_FILENAME}"`,
    )
    const bytes = new Uint8Array(await res.arrayBuffer())
    expect(Array.from(bytes.subarray(0, 3))).toEqual([0xff, 0xd8, 0xff])
    const meta = await sharp(bytes).metadata()
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 320, 180])
  })

  it('downloads a JPEG as it is', async () => {
    const jpeg = new Uint8Array(await sharp(png).jpeg().toBuffer())
    const { url } = await store(jpeg, 'image/jpeg')
    const res = await t.request('GET', `${url}?download=1`, { cookie: owner })
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(jpeg))).toBe(true)
  })

  it('names a render’s download after its project without device names or bidi controls (issue 40 item 7)', async () => {
    const created = await t.request('POST', '/api/projects', {
      body: { name: 'con\u202e.txt' },
      cookie: owner,
    })
    const { url } = await storeMediaAsset(t.deps.db, t.deps.assets, {
      userId: ownerId,
      projectId: ((await created.json()) as { id: number }).id,
      content: new TextEncoder().encode('1\n00:00:00,000 --> 00:00:01,000\nHello\n'),
      mimeType: 'application/x-subrip',
    })
    const res = await t.request('GET', `${url}?download=1`, { cookie: owner })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="_con.txt.srt"; filename*=UTF-8''_con.txt.srt`,
    )
  })

  it('answers 404 to strangers and for unknown ids, 401 to anonymous requests', async () => {
    const { url, assetId } = await store()
    const asStranger = await t.request('GET', url, { cookie: stranger })
    expect(asStranger.status).toBe(404)
    expect((await asStranger.json()).error.code).toBe('NOT_FOUND')
    const unknown = await t.request('GET', `/api/assets/${createAssetId()}`, { cookie: owner })
    expect(unknown.status).toBe(404)
    for (const id of ['..%2F..%2Fetc', 'abc', assetId.toUpperCase(), `${assetId}a`]) {
      const malformed = await t.request('GET', `/api/assets/${id}`, { cookie: owner })
      expect(malformed.status, id).toBe(404)
      expect((await malformed.json()).error).toMatchObject({
        code: 'NOT_FOUND',
        message: 'This image does not exist, or you do not have access to it.',
      })
      expect((await t.request('GET', `/api/assets/${id}`)).status, `anonymous ${id}`).toBe(401)
    }
    const anonymous = await t.request('GET', url)
    expect(anonymous.status).toBe(401)
    await expect(
      readAsset(t.deps.db, t.deps.assets, { userId: ownerId, assetId }),
    ).resolves.toMatchObject({
      id: assetId,
      mimeType: 'image/png',
    })
  })

  it('serves every member of the project, stores only for owner and editors (issue 6)', async () => {
    const editor = await addUser(t, 'Eddie')
    const viewer = await addUser(t, 'Vera')
    const removed = await addUser(t, 'Rita')
    await addMember(t, projectId, editor.id, 'editor')
    await addMember(t, projectId, viewer.id, 'viewer')
    await addMember(t, projectId, removed.id, 'viewer')
    const { url } = await store()
    for (const member of [editor, viewer, removed]) {
      expect((await t.request('GET', url, { cookie: member.cookie })).status).toBe(200)
    }
    await t.request('DELETE', `/api/projects/${projectId}/members/${removed.id}`, {
      cookie: owner,
    })
    expect((await t.request('GET', url, { cookie: removed.cookie })).status).toBe(404)
    expect((await t.request('GET', url, { cookie: stranger })).status).toBe(404)

    const image = { bytes: png, mimeType: 'image/png' }
    const byEditor = await storeGeneratedImage(t.deps.db, t.deps.assets, {
      userId: editor.id,
      projectId,
      image,
    })
    expect((await t.request('GET', byEditor.url, { cookie: owner })).status).toBe(200)
    await expect(
      storeGeneratedImage(t.deps.db, t.deps.assets, { userId: viewer.id, projectId, image }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' })
  })

  it('answers 404 once the project is deleted', async () => {
    const created = await t.request('POST', '/api/projects', {
      body: { name: 'Short-lived' },
      cookie: owner,
    })
    const id = (await created.json()).id
    const { url } = await storeGeneratedImage(t.deps.db, t.deps.assets, {
      userId: ownerId,
      projectId: id,
      image: { bytes: png, mimeType: 'image/png' },
    })
    await t.request('DELETE', `/api/projects/${id}`, { cookie: owner })
    expect((await t.request('GET', url, { cookie: owner })).status).toBe(404)
  })

  it('deletes a project’s assets, rows and bytes', async () => {
    const created = await t.request('POST', '/api/projects', {
      body: { name: 'Doomed' },
      cookie: owner,
    })
    const id = (await created.json()).id
    const image = { bytes: png, mimeType: 'image/png' }
    const a = await storeGeneratedImage(t.deps.db, t.deps.assets, {
      userId: ownerId,
      projectId: id,
      image,
    })
    await storeGeneratedImage(t.deps.db, t.deps.assets, { userId: ownerId, projectId: id, image })
    const kept = await store()
    expect(await deleteProjectAssets(t.deps.db, t.deps.assets, id)).toBe(2)
    expect(await t.deps.assets.get(`projects/${id}/${a.assetId}.png`)).toBeNull()
    expect((await t.request('GET', a.url, { cookie: owner })).status).toBe(404)
    expect((await t.request('GET', kept.url, { cookie: owner })).status).toBe(200)
  })
})
