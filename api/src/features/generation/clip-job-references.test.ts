import { execFile } from 'node:child_process'
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { costlyTestsRunOn, testDatabaseKinds } from '@reelgraph/db/testing'
import type { GraphNode } from '@reelgraph/shared'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { balance } from '../../testing/jobs.ts'
import type { TestUser } from '../../testing/members.ts'
import type { TestApp } from '../../testing/test-app.ts'
import {
  assetCount as assetsIn,
  clipCredits,
  postClipJob,
  settledJob,
  startClipJobApp,
  storeImage,
} from './testing/clip-job-kit.ts'
import type { FalFake } from './video-providers/testing/fal-fake.ts'
import { resultFile } from './video-providers/testing/result-file.ts'

const run = promisify(execFile)

/**
 * Issue 40 item 4, through the real job system: fal (a local stand-in speaking its queue
 * protocol) answers a "clip" that is an HLS playlist or an ffconcat list naming a local video.
 * The job fails in words and is refunded, nothing is stored, and ffmpeg (behind a spy that
 * logs every run) never opens the answer: it is refused by its bytes first.
 */

const MODEL = 'fal:fal-ai/kling-video/v2.5-turbo/standard/image-to-video'
const JOB_MS = 60_000

// ffmpeg work, not database work: one database kind is enough.
describe.each(testDatabaseKinds().filter(costlyTestsRunOn))(
  'a provider’s clip that names local files, on $name',
  (kind) => {
    let t: TestApp
    let fal: FalFake
    let dir: string
    let log: string
    let secret: string
    let owner: TestUser
    let projectId: number
    let generator: GraphNode
    let imageUrl: string

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'reelgraph-clip-references-'))
      // The local file an attacker wants back: a real 5 s video (the asked length).
      secret = join(dir, 'secret.ts')
      await run('ffmpeg', [
        ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=25:duration=5'],
        ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-f', 'mpegts', secret],
      ])
      log = join(dir, 'ffmpeg-runs.log')
      const ffmpeg = (await run('sh', ['-c', 'command -v ffmpeg'])).stdout.trim()
      const spy = join(dir, 'ffmpeg-spy')
      await writeFile(spy, `#!/bin/sh\necho "$*" >> '${log}'\nexec '${ffmpeg}' "$@"\n`)
      await chmod(spy, 0o755)
      ;({ t, fal, owner, projectId, generator } = await startClipJobApp(kind, {
        clip: new Uint8Array(await readFile(secret)),
        settings: { FFMPEG_PATH: spy },
        ownerName: 'Ines',
        projectName: 'Tide pools',
      }))
      imageUrl = (await storeImage(t, owner, projectId)).url
    })
    afterAll(async () => {
      await t.close()
      await fal.server.close()
      await rm(dir, { recursive: true, force: true })
    })
    beforeEach(() => rm(log, { force: true }))

    /** Every asset stored in the app. */
    const assetCount = () => assetsIn(t)
    /** The spy's runs on a clip job's work files since the last reset. */
    const clipRuns = async () =>
      (await readFile(log, 'utf8').catch(() => ''))
        .split('\n')
        .filter((line) => line.includes('clip-work'))

    it.each([
      [
        'an HLS playlist naming a local file by file:// URL',
        () => `#EXTM3U\n#EXT-X-TARGETDURATION:5\n#EXTINF:5.0,\nfile://${secret}\n#EXT-X-ENDLIST\n`,
        'application/vnd.apple.mpegurl',
      ],
      [
        'an ffconcat list naming a local file',
        () => `ffconcat version 1.0\nfile '${secret}'\n`,
        'text/plain',
      ],
    ])('%s: the job fails in words, is refunded and stores nothing', async (_, body, type) => {
      fal.reset(resultFile(new TextEncoder().encode(body()), type))
      const before = await balance(t, owner.id)
      const assets = await assetCount()
      const res = await postClipJob({ t, projectId, generator }, owner, {
        modelId: MODEL,
        imageUrl,
        durationSeconds: 5,
      })
      expect(res.status).toBe(202)
      const { jobId } = await res.json()
      const done = await settledJob(t, owner, jobId, JOB_MS)
      const price = clipCredits(t, MODEL, 5)
      expect(done).toMatchObject({ status: 'failed', refunded: price })
      expect(done.message).toMatch(/not a video/)
      expect(await balance(t, owner.id)).toBe(before)
      expect(await assetCount()).toBe(assets)
      // fal's answer was fetched, and never handed to ffmpeg.
      expect(fal.file.served).toBe(1)
      expect(await clipRuns()).toEqual([])
    })
  },
)
