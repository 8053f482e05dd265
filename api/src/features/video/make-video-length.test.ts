import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import { createGraphNode, makeVideoCost, TARGET_LENGTH_TOLERANCE } from '@reelgraph/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { balance, jobAs as job, liveGraph } from '../../testing/jobs.ts'
import { addUser, createProjectAs, type TestUser } from '../../testing/members.ts'
import { itRendersOn } from '../../testing/renders.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { until as poll } from '../../testing/until.ts'

/**
 * "Make video" to a target length (issue 42 item 1), end to end with the builtin providers:
 * the script is written for the length and the scene count divides it, so the rendered MP4
 * lasts the target within ±15 % (measured by ffprobe) whether it has one scene or three.
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
const CHAIN_DONE_MS = 150_000

/** A project with one Script Generator on topic `topic` (and `targetSeconds` when given). */
async function project(t: TestApp, owner: TestUser, topic: string, targetSeconds?: number) {
  const projectId = await createProjectAs(t, owner, topic)
  const generator = createGraphNode('script-generator', { x: 0, y: 0 })
  generator.data.topic = topic
  if (targetSeconds !== undefined) generator.data.targetSeconds = targetSeconds
  await t.deps.documents.applyGraph(projectId, { nodes: [generator], connections: [] })
  return { projectId, generatorId: generator.id }
}

/** The MP4's length in seconds, as ffprobe reads it. */
async function probedSeconds(bytes: Uint8Array): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'reelgraph-length-test-'))
  try {
    const path = join(dir, 'video.mp4')
    await writeFile(path, bytes)
    const { stdout } = await run('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'format=duration',
      '-of',
      'default=noprint_wrappers=1:nokey=1',
      path,
    ])
    return Number(stdout.trim())
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

describe.each(testDatabaseKinds())('make video to a target length on $name', (kind) => {
  const itRenders = itRendersOn(kind)
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { JOB_WAIT_MS: '0', ...COSTS })
  })
  afterAll(() => t.close())

  it('refuses, in words and charging nothing, more scenes than the length (the call’s, else the node’s) has room for', async () => {
    const owner = await addUser(t, 'Sho', { credits: 50 })
    const { projectId, generatorId } = await project(t, owner, 'Tide pools', 15)
    const make = (body: Record<string, unknown>) =>
      t.request('POST', '/api/video/make', {
        body: { projectId, nodeId: generatorId, preset: '9:16', ...body },
        cookie: owner.cookie,
      })
    const nodeLength = await make({ sceneCount: 9 })
    expect(nodeLength.status).toBe(400)
    expect((await nodeLength.json()).error.message).toBe(
      'A 15 s video has room for at most 8 scenes: each scene needs a pause before and after its words. Choose fewer scenes or a longer length.',
    )
    const callLength = await make({ sceneCount: 20, targetSeconds: 30 })
    expect(callLength.status).toBe(400)
    expect((await callLength.json()).error.message).toContain(
      'A 30 s video has room for at most 16 scenes',
    )
    const badLength = await make({ sceneCount: 2, targetSeconds: 5 })
    expect(badLength.status).toBe(400)
    expect((await badLength.json()).error.message).toContain('at least 10 seconds')
    expect(await balance(t, owner.id)).toBe(50)
  })

  itRenders(
    'renders a 30-second video within ±15 % of 30 s with one scene and with three (ffprobe)',
    async () => {
      const owner = await addUser(t, 'Vera', { credits: 60 })
      for (const sceneCount of [1, 3]) {
        // The node says 90 s; the call's 30 s wins.
        const { projectId, generatorId } = await project(t, owner, 'How honeybees make honey', 90)
        const before = await balance(t, owner.id)
        const res = await t.request('POST', '/api/video/make', {
          body: { projectId, nodeId: generatorId, sceneCount, preset: '9:16', targetSeconds: 30 },
          cookie: owner.cookie,
        })
        expect(res.status).toBe(202)
        const { jobId } = await res.json()
        const done = await poll(
          () => job(t, owner, jobId),
          (j) => j.status !== 'queued' && j.status !== 'running',
          CHAIN_DONE_MS,
        )
        expect(done).toMatchObject({ status: 'succeeded', refunded: 0 })
        // The length costs nothing extra: the chain's price is the scenes'.
        expect(await balance(t, owner.id)).toBe(before - makeVideoCost(costs, sceneCount))

        const graph = await liveGraph(t, projectId)
        expect(graph.nodes.filter((n) => n.type === 'scene')).toHaveLength(sceneCount)
        const video = graph.nodes.find((n) => n.type === 'video')!
        const mp4 = await t.request('GET', String(video.data.videoUrl), { cookie: owner.cookie })
        expect(mp4.status).toBe(200)
        const seconds = await probedSeconds(new Uint8Array(await mp4.arrayBuffer()))
        expect(
          Math.abs(seconds - 30) / 30,
          `${sceneCount} scenes: ${seconds} s`,
        ).toBeLessThanOrEqual(TARGET_LENGTH_TOLERANCE)
      }
    },
    CHAIN_DONE_MS * 2,
  )
})
