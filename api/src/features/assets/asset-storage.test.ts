import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadEnv } from '../../env.ts'
import type { AssetStorage } from './asset-storage.ts'
import { createAssetStorage } from './index.ts'
import { assetKeySegments, LocalAssetStorage } from './local-asset-storage.ts'
import { S3AssetStorage } from './s3-asset-storage.ts'

const BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 255])

/**
 * Enough of the S3 REST protocol for the real SDK: path-style PUT, GET and DELETE of
 * objects, 404 NoSuchKey as S3 words it.
 */
async function startFakeS3(bucket: string) {
  const objects = new Map<string, { body: Buffer; contentType: string }>()
  const requests: { method: string; url: string; headers: IncomingMessage['headers'] }[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers })
      const url = new URL(req.url ?? '/', 'http://localhost')
      const [, b, ...rest] = url.pathname.split('/')
      const key = decodeURIComponent(rest.join('/'))
      res.setHeader('x-amz-request-id', String(requests.length))
      if (b !== bucket || !key) {
        res.writeHead(404, { 'content-type': 'application/xml' })
        res.end(
          '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchBucket</Code><Message>The specified bucket does not exist</Message></Error>',
        )
        return
      }
      if (req.method === 'PUT') {
        const body = Buffer.concat(chunks)
        objects.set(key, {
          body,
          contentType: req.headers['content-type'] ?? 'binary/octet-stream',
        })
        res.writeHead(200, { etag: `"${body.length}"`, 'content-length': '0' })
        res.end()
      } else if (req.method === 'GET') {
        const object = objects.get(key)
        if (!object) {
          res.writeHead(404, { 'content-type': 'application/xml' })
          res.end(
            `<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message><Key>${key}</Key><RequestId>${requests.length}</RequestId></Error>`,
          )
          return
        }
        const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '')
        const start = range ? Number(range[1]) : 0
        const end = range
          ? Math.min(Number(range[2]), object.body.length - 1)
          : object.body.length - 1
        const body = object.body.subarray(start, end + 1)
        res.writeHead(range ? 206 : 200, {
          'content-type': object.contentType,
          'content-length': String(body.length),
          ...(range ? { 'content-range': `bytes ${start}-${end}/${object.body.length}` } : {}),
          etag: `"${object.body.length}"`,
          'last-modified': new Date(0).toUTCString(),
        })
        res.end(body)
      } else if (req.method === 'DELETE') {
        objects.delete(key)
        res.writeHead(204)
        res.end()
      } else {
        res.writeHead(405)
        res.end()
      }
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    endpoint: `http://127.0.0.1:${port}`,
    objects,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}

function behavesLikeAssetStorage(storage: () => AssetStorage) {
  it('puts, gets, replaces and deletes bytes', async () => {
    const s = storage()
    await s.put('projects/1/a.png', BYTES, 'image/png')
    expect(Array.from((await s.get('projects/1/a.png')) ?? [])).toEqual(Array.from(BYTES))
    await s.put('projects/1/a.png', new Uint8Array([7]), 'image/png')
    expect(Array.from((await s.get('projects/1/a.png')) ?? [])).toEqual([7])
    await s.delete('projects/1/a.png')
    expect(await s.get('projects/1/a.png')).toBeNull()
  })

  it('stores a file from disk (a rendered video)', async () => {
    const s = storage()
    const dir = await mkdtemp(join(tmpdir(), 'reelgraph-putfile-'))
    try {
      await writeFile(join(dir, 'v.mp4'), BYTES)
      await s.putFile('projects/1/f.mp4', join(dir, 'v.mp4'), 'video/mp4')
      expect(Array.from((await s.get('projects/1/f.mp4')) ?? [])).toEqual(Array.from(BYTES))
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('reads a byte range (issue 13 item 4: a video seeks)', async () => {
    const s = storage()
    await s.put('projects/1/v.mp4', BYTES, 'video/mp4')
    expect(Array.from((await s.getRange('projects/1/v.mp4', 2, 4)) ?? [])).toEqual([0x4e, 0x47, 0])
    expect(Array.from((await s.getRange('projects/1/v.mp4', 8, 8)) ?? [])).toEqual([255])
    expect(await s.getRange('projects/1/missing.mp4', 0, 1)).toBeNull()
    const stream = await s.stream('projects/1/v.mp4')
    expect(Array.from(new Uint8Array(await new Response(stream).arrayBuffer()))).toEqual(
      Array.from(BYTES),
    )
    expect(await s.stream('projects/1/missing.mp4')).toBeNull()
  })

  it('answers null for a missing key and deletes missing keys quietly', async () => {
    const s = storage()
    expect(await s.get('projects/1/missing.png')).toBeNull()
    await expect(s.delete('projects/1/missing.png')).resolves.toBeUndefined()
  })

  it.each(['../escape.png', 'projects/../../etc/passwd', '/abs.png', 'a//b', 'a\\..\\b', '', '.'])(
    'refuses the unsafe key %j',
    async (key) => {
      const s = storage()
      await expect(s.put(key, BYTES, 'image/png')).rejects.toThrow(/Unsafe asset key/)
      await expect(s.get(key)).rejects.toThrow(/Unsafe asset key/)
      await expect(s.delete(key)).rejects.toThrow(/Unsafe asset key/)
    },
  )
}

describe('asset keys', () => {
  it('accepts relative keys of safe segments', () => {
    expect(assetKeySegments('projects/12/ABC-def_1.png')).toEqual([
      'projects',
      '12',
      'ABC-def_1.png',
    ])
    expect(() => assetKeySegments('.hidden')).toThrow()
    expect(() => assetKeySegments('x'.repeat(2000))).toThrow()
  })
})

describe('LocalAssetStorage', () => {
  let root: string
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'reelgraph-assets-'))
  })
  afterAll(() => rm(root, { recursive: true, force: true }))

  behavesLikeAssetStorage(() => new LocalAssetStorage(root))

  it('writes under the root and leaves no temporary files behind', async () => {
    const s = new LocalAssetStorage(root)
    await s.put('projects/9/x.jpg', BYTES, 'image/jpeg')
    expect(Array.from(await readFile(join(root, 'projects', '9', 'x.jpg')))).toEqual(
      Array.from(BYTES),
    )
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => s.put('projects/9/x.jpg', new Uint8Array([i]), 'x')),
    )
    expect(await readdir(join(root, 'projects', '9'))).toEqual(['x.jpg'])
  })
})

describe('S3AssetStorage against a local S3 endpoint', () => {
  let s3: Awaited<ReturnType<typeof startFakeS3>>
  beforeAll(async () => {
    s3 = await startFakeS3('reelgraph')
  })
  afterAll(() => s3.close())

  const storage = () =>
    new S3AssetStorage({
      bucket: 'reelgraph',
      endpoint: s3.endpoint,
      region: 'us-east-1',
      accessKeyId: 'test-key',
      secretAccessKey: 'test-secret',
      forcePathStyle: true,
    })

  behavesLikeAssetStorage(storage)

  it('sends signed path-style requests with the content type', async () => {
    await storage().put('projects/2/b.png', BYTES, 'image/png')
    const put = s3.requests.findLast((r) => r.method === 'PUT')
    expect(put?.url).toMatch(/^\/reelgraph\/projects\/2\/b\.png/)
    expect(put?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=test-key\//)
    expect(s3.objects.get('projects/2/b.png')?.contentType).toBe('image/png')
  })

  it('is what createAssetStorage picks when S3_BUCKET is set, else local files', async () => {
    const env = loadEnv({
      S3_BUCKET: 'reelgraph',
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
      S3_FORCE_PATH_STYLE: 'true',
    })
    const fromEnv = createAssetStorage(env)
    expect(fromEnv).toBeInstanceOf(S3AssetStorage)
    await fromEnv.put('projects/3/c.png', BYTES, 'image/png')
    expect(s3.objects.has('projects/3/c.png')).toBe(true)
    const local = createAssetStorage(loadEnv({ DATA_DIR: '/tmp/reelgraph-x' }))
    expect(local).toBeInstanceOf(LocalAssetStorage)
    expect((local as LocalAssetStorage).root).toBe('/tmp/reelgraph-x/assets')
  })
})
