import { testDatabaseKinds } from '@reelgraph/db/testing'
import { createGraphNode, type GraphNode, modelCredits } from '@reelgraph/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { balance, jobAs } from '../../testing/jobs.ts'
import { addUser, createProjectAs, type TestUser } from '../../testing/members.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { until } from '../../testing/until.ts'
import {
  FAL_TEST_KEY,
  type FalFake,
  falVideoResult,
  startFalFake,
} from './video-providers/testing/fal-fake.ts'
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
    fal = await startFalFake(clip)
    stand = await startOutboundStandIns(clip)
    t = await createTestApp(kind, undefined, {
      JOB_WAIT_MS: '0',
      FAL_KEY: FAL_TEST_KEY,
      FAL_QUEUE_URL: fal.server.url,
      CLIP_MAX_BYTES: String(CLIP_MAX_BYTES),
      AI_TEXT_PROVIDER: 'builtin',
      AI_IMAGE_PROVIDER: 'builtin',
    })
    owner = await addUser(t, 'Agnes', { credits: 200 })
    projectId = await createProjectAs(t, owner, 'Coves')
    generator = createGraphNode('video-generator', { x: 0, y: 0 })
    await t.deps.documents.applyGraph(projectId, { nodes: [generator], connections: [] })
  })
  afterAll(async () => {
    await t.close()
    await fal.server.close()
    await stand.close()
  })

  const price = () => modelCredits(t.deps.catalog.video(MODEL)!.model, 4)
  const assetCount = async () =>
    Number(
      (
        await t.deps.db
          .selectFrom('assets')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('project_id', '=', projectId)
          .executeTakeFirstOrThrow()
      ).n,
    )
  const runClip = async () => {
    // Completed at the first status poll: the job reaches the result at once.
    fal.queuePositions = []
    fal.progressLogs = []
    const res = await t.request('POST', '/api/ai/generate-video', {
      cookie: owner.cookie,
      body: {
        projectId,
        nodeId: generator.id,
        modelId: MODEL,
        prompt: 'Waves roll into a rocky cove at dusk',
        durationSeconds: 4,
        aspectRatio: '16:9',
      },
    })
    expect(res.status).toBe(202)
    const { jobId } = (await res.json()) as { jobId: string }
    return until(
      () => jobAs(t, owner, jobId),
      (j) => j.status !== 'queued' && j.status !== 'running',
      JOB_MS,
    )
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
