import { testDatabaseKinds } from '@reelgraph/db/testing'
import type { GraphNode } from '@reelgraph/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { balance } from '../../testing/jobs.ts'
import type { TestUser } from '../../testing/members.ts'
import type { TestApp } from '../../testing/test-app.ts'
import {
  assetCount as assetsIn,
  clipCredits,
  postClipJob,
  settledJob,
  startClipJobApp,
} from './testing/clip-job-kit.ts'
import { type FalFake, falVideoResult } from './video-providers/testing/fal-fake.ts'
import {
  endlessBody,
  type OutboundStandIns,
  startOutboundStandIns,
  withPath,
} from './video-providers/testing/outbound-stand-ins.ts'
import { tinyMp4 } from './video-providers/testing/result-file.ts'

/**
 * Untrusted provider answers through the real job system (issue 40 items 1 and 3): a clip job
 * whose result URL points inside, or whose result never ends, fails in words, is refunded and
 * stores no asset; the internal listener sees no request.
 */

const MODEL = 'fal:fal-ai/veo3/fast'
const JOB_MS = 30_000
/** CLIP_MAX_BYTES of this app: 256 KiB. */
const CLIP_MAX_BYTES = 256 * 1024

describe.each(testDatabaseKinds())('clip results the guard refuses, on $name', (kind) => {
  let t: TestApp
  let fal: FalFake
  let stand: OutboundStandIns
  let owner: TestUser
  let projectId: number
  let generator: GraphNode

  beforeAll(async () => {
    const clip = await tinyMp4()
    stand = await startOutboundStandIns(clip)
    ;({ t, fal, owner, projectId, generator } = await startClipJobApp(kind, {
      clip,
      settings: { CLIP_MAX_BYTES: String(CLIP_MAX_BYTES) },
    }))
  })
  afterAll(async () => {
    await t.close()
    await fal.server.close()
    await stand.close()
  })

  const price = () => clipCredits(t, MODEL, 4)
  /** The assets stored in the project. */
  const assetCount = () => assetsIn(t, projectId)
  const runClip = async () => {
    // Completed at the first status poll: the job reaches the result at once.
    fal.queuePositions = []
    fal.progressLogs = []
    const res = await postClipJob({ t, projectId, generator }, owner, {
      modelId: MODEL,
      durationSeconds: 4,
    })
    expect(res.status).toBe(202)
    const { jobId } = (await res.json()) as { jobId: string }
    return settledJob(t, owner, jobId, JOB_MS)
  }

  it(
    'a result URL on another listener of 127.0.0.1 fails in words, is refunded, stores nothing, and is never asked',
    async () => {
      fal.reset()
      const [inside] = stand.hostileUrls('/clip.mp4')
      fal.response = { status: 200, body: falVideoResult(inside!.url) }
      const before = { credits: await balance(t, owner.id), assets: await assetCount() }
      const done = await runClip()
      expect(done).toMatchObject({ status: 'failed', refunded: price() })
      expect(done.message).toBe(
        'fal.ai sent a result at an address Reelgraph does not fetch (127.0.0.1): only public https addresses are followed. An operator can allow it with OUTBOUND_ALLOW_HOSTS.' +
          ` Your ${price()} credits were refunded. Please try again.`,
      )
      expect(await balance(t, owner.id)).toBe(before.credits)
      expect(await assetCount()).toBe(before.assets)
      expect(stand.internal.requests).toEqual([])
    },
    JOB_MS,
  )

  it(
    'a result that never ends stops at CLIP_MAX_BYTES, fails in words, is refunded and stores nothing',
    async () => {
      fal.reset()
      const sent = { bytes: 0 }
      fal.server.handle(
        withPath(fal.protocol, '/files/endless', (_, res) => endlessBody(res, sent)),
      )
      fal.response = { status: 200, body: falVideoResult(`${fal.server.url}/files/endless`) }
      const before = { credits: await balance(t, owner.id), assets: await assetCount() }
      const done = await runClip()
      expect(done).toMatchObject({ status: 'failed', refunded: price() })
      expect(done.message).toBe(
        'fal.ai sent a result larger than the 256 KB allowed (CLIP_MAX_BYTES); nothing of it was kept.' +
          ` Your ${price()} credits were refunded. Please try again.`,
      )
      expect(await balance(t, owner.id)).toBe(before.credits)
      expect(await assetCount()).toBe(before.assets)
      // Stopped as the bytes arrived: far less than an endless stream, a few chunks past the limit.
      expect(sent.bytes).toBeLessThan(CLIP_MAX_BYTES * 40)
    },
    JOB_MS,
  )
})
