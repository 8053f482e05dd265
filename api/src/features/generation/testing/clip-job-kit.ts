import type { TestDatabaseKind } from '@reelgraph/db/testing'
import { createGraphNode, type GraphNode, modelCredits } from '@reelgraph/shared'
import { jobAs } from '../../../testing/jobs.ts'
import { addUser, createProjectAs, type TestUser } from '../../../testing/members.ts'
import { createTestApp, type TestApp, type TestResponse } from '../../../testing/test-app.ts'
import { until } from '../../../testing/until.ts'
import { storeGeneratedImage } from '../../assets/asset-service.ts'
import { solidPng } from '../providers/testing/images.ts'
import { FAL_TEST_KEY, type FalFake, startFalFake } from '../video-providers/testing/fal-fake.ts'

/**
 * What the clip job tests share (issues 22 and 40): a test app whose video provider is fal
 * (a local stand-in speaking its queue protocol), an owner with a project holding one Video
 * Generator, and the requests that start a clip job and wait for it to settle.
 */

/** A clip job test app, as {@link startClipJobApp} answers it. */
export interface ClipJobApp {
  t: TestApp
  /** The fal stand-in the app's `FAL_QUEUE_URL` points at; close its `server` after the app. */
  fal: FalFake
  /** The project's owner, with the credits asked for. */
  owner: TestUser
  projectId: number
  /** The project's one node: a Video Generator at the origin. */
  generator: GraphNode
}

/** What a clip job test app differs in; every field but `clip` has a default. */
export interface ClipJobAppOptions {
  /** The media the fal stand-in serves as its result. */
  clip: Uint8Array
  /** More environment for the app (e.g. `FFMPEG_PATH`, `CLIP_MAX_BYTES`). */
  settings?: Record<string, string>
  /** The owner's name (default `Agnes`). */
  ownerName?: string
  /** The project's name (default `Coves`). */
  projectName?: string
  /** The owner's purchased credits (default 200). */
  credits?: number
}

/**
 * Starts a fal stand-in serving `clip` and a test app on `kind` that sends clips to it (jobs
 * run at once, text and images from the builtin providers), then makes an owner and a project
 * whose document holds one Video Generator.
 */
export async function startClipJobApp(
  kind: TestDatabaseKind,
  {
    clip,
    settings = {},
    ownerName = 'Agnes',
    projectName = 'Coves',
    credits = 200,
  }: ClipJobAppOptions,
): Promise<ClipJobApp> {
  const fal = await startFalFake(clip)
  let t: TestApp
  try {
    t = await createTestApp(kind, undefined, {
      JOB_WAIT_MS: '0',
      FAL_KEY: FAL_TEST_KEY,
      FAL_QUEUE_URL: fal.server.url,
      AI_TEXT_PROVIDER: 'builtin',
      AI_IMAGE_PROVIDER: 'builtin',
      ...settings,
    })
  } catch (error) {
    await fal.server.close()
    throw error
  }
  const owner = await addUser(t, ownerName, { credits })
  const projectId = await createProjectAs(t, owner, projectName)
  const generator = createGraphNode('video-generator', { x: 0, y: 0 })
  await t.deps.documents.applyGraph(projectId, { nodes: [generator], connections: [] })
  return { t, fal, owner, projectId, generator }
}

/**
 * Stores a solid PNG of `width` × `height` as `user`'s image in the project, as an image job
 * does, and answers the stored asset (its `url` is what a clip request names).
 */
export async function storeImage(
  t: TestApp,
  user: Pick<TestUser, 'id'>,
  projectId: number,
  width = 320,
  height = 180,
) {
  return storeGeneratedImage(t.deps.db, t.deps.assets, {
    userId: user.id,
    projectId,
    image: { bytes: await solidPng(width, height), mimeType: 'image/png' },
  })
}

/** How many assets are stored: in the project, or in the whole app without `projectId`. */
export async function assetCount(t: TestApp, projectId?: number): Promise<number> {
  let query = t.deps.db.selectFrom('assets').select((eb) => eb.fn.countAll().as('n'))
  if (projectId !== undefined) query = query.where('project_id', '=', projectId)
  return Number((await query.executeTakeFirstOrThrow()).n)
}

/** What a clip of `seconds` seconds from catalog model `modelId` costs. */
export function clipCredits(t: TestApp, modelId: string, seconds: number): number {
  return modelCredits(t.deps.catalog.video(modelId)!.model, seconds)
}

/**
 * Asks for a clip as `user` from the app's Video Generator (`POST /api/ai/generate-video`) and
 * answers the response: waves in a cove at dusk, in 16:9, with `fields` (the model, the length,
 * a start image…) added or replaced.
 */
export function postClipJob(
  { t, projectId, generator }: Pick<ClipJobApp, 't' | 'projectId' | 'generator'>,
  user: Pick<TestUser, 'cookie'>,
  fields: Record<string, unknown>,
): Promise<TestResponse> {
  const body = {
    projectId,
    nodeId: generator.id,
    prompt: 'Waves roll into a rocky cove at dusk',
    aspectRatio: '16:9',
    ...fields,
  }
  return t.request('POST', '/api/ai/generate-video', { body, cookie: user.cookie })
}

/**
 * The job as `user` sees it once it is neither queued nor running.
 * @throws Error when it is still queued or running after `timeoutMs`.
 */
export function settledJob(
  t: TestApp,
  user: Pick<TestUser, 'cookie'>,
  jobId: string,
  timeoutMs: number,
): Promise<any> {
  return until(
    () => jobAs(t, user, jobId),
    (j) => j.status !== 'queued' && j.status !== 'running',
    timeoutMs,
  )
}
