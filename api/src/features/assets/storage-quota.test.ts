import { execFile } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import { createGraphNode, storageUsageSchema } from '@reelgraph/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../lib/app-error.ts'
import { balance } from '../../testing/jobs.ts'
import { addMember, addUser, createProjectAs, type TestUser } from '../../testing/members.ts'
import { createTestApp, LOOSE_RATE_LIMITS, type TestApp } from '../../testing/test-app.ts'
import { storeMediaAsset, storeMediaAssets } from './asset-service.ts'

const run = promisify(execFile)
const KIB = 1024
const MIB = 1024 * KIB

/**
 * The storage quota (issue 40 item 5): every asset of the projects an account owns counts
 * against its plan's quota; stores up to it pass, the next is a 413 in words with nothing
 * stored (no row, no file), on the upload route, in the asset service and for a generation
 * job (failed in words and refunded); two stores at once cannot both pass; `GET
 * /api/user/storage` answers each plan's use and quota, to its own account only.
 */
describe.each(testDatabaseKinds())('storage quota on $name', (kind) => {
  let t: TestApp
  let dir: string

  beforeAll(async () => {
    t = await createTestApp(kind, LOOSE_RATE_LIMITS, {
      STORAGE_QUOTA_FREE_MB: '1',
      STORAGE_QUOTA_BASIC_MB: '2',
      STORAGE_QUOTA_PRO_MB: '3',
      JOB_RETRY_LIMIT: '0',
    })
    dir = await mkdtemp(join(tmpdir(), 'storage-quota-'))
  })
  afterAll(async () => {
    await t.close()
    await rm(dir, { recursive: true, force: true })
  })

  /** The stored files of project `projectId` (temporary files included). */
  const filesOf = (projectId: number) =>
    readdir(join(t.deps.env.DATA_DIR, 'assets', 'projects', String(projectId))).catch(() => [])
  const rowsOf = (projectId: number) =>
    t.deps.db.selectFrom('assets').select('id').where('project_id', '=', projectId).execute()
  /** Stores `bytes` bytes as a subtitle file of `projectId`, made by `user`. */
  const store = (user: TestUser, projectId: number, bytes: number) =>
    storeMediaAsset(t.deps.db, t.deps.assets, {
      userId: user.id,
      projectId,
      content: new Uint8Array(bytes).fill(65),
      mimeType: 'application/x-subrip',
    })
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('stored past the quota')
      },
      (error: unknown) => error as AppError,
    )

  it('stores up to the quota exactly; the next byte is a 413 in words with no row and no file', async () => {
    const owner = await addUser(t, 'Quinn')
    const projectId = await createProjectAs(t, owner, 'Full')
    await store(owner, projectId, 400 * KIB)
    await store(owner, projectId, 400 * KIB)
    const error = await refusal(store(owner, projectId, 400 * KIB))
    expect(error).toBeInstanceOf(AppError)
    expect(error.code).toBe('PAYLOAD_TOO_LARGE')
    expect(error.status).toBe(413)
    expect(error.message).toBe(
      'This file would take your storage to 1.2 MB of your 1 MB plan. Delete unused media or upgrade your plan.',
    )
    expect(await rowsOf(projectId)).toHaveLength(2)
    expect(await filesOf(projectId)).toHaveLength(2)
    // What is left fits exactly; then not one byte more.
    await store(owner, projectId, 224 * KIB)
    expect((await refusal(store(owner, projectId, 1))).code).toBe('PAYLOAD_TOO_LARGE')
    expect(await rowsOf(projectId)).toHaveLength(3)
    expect(await filesOf(projectId)).toHaveLength(3)
  })

  it('counts every project the account owns, whoever made the asset, and names the owner to an editor', async () => {
    const owner = await addUser(t, 'Rhea')
    const editor = await addUser(t, 'Sol')
    const first = await createProjectAs(t, owner, 'One')
    const second = await createProjectAs(t, owner, 'Two')
    await addMember(t, second, editor.id, 'editor')
    await store(owner, first, 700 * KIB)
    const error = await refusal(store(editor, second, 400 * KIB))
    expect(error.message).toBe(
      'This file would take the storage of this project’s owner to 1.1 MB of their 1 MB plan. Delete unused media, or ask the owner to upgrade their plan.',
    )
    // The editor's own (empty) account is not what counts, and a store of several files is
    // judged whole: a clip and its poster, both or neither.
    const both = await refusal(
      storeMediaAssets(t.deps.db, t.deps.assets, {
        userId: editor.id,
        projectId: second,
        files: [
          { content: new Uint8Array(200 * KIB), mimeType: 'video/mp4' },
          { content: new Uint8Array(200 * KIB), mimeType: 'image/jpeg' },
        ],
      }),
    )
    expect(both.code).toBe('PAYLOAD_TOO_LARGE')
    expect(await rowsOf(second)).toHaveLength(0)
    expect(await filesOf(second)).toEqual([])
    await store(editor, second, 300 * KIB)
    expect(await rowsOf(second)).toHaveLength(1)
  })

  it('lets only what fits through when stores race: two at once, then ten at once', async () => {
    const owner = await addUser(t, 'Tess')
    const projectId = await createProjectAs(t, owner, 'Race')
    await store(owner, projectId, 600 * KIB)
    // Each alone fits (900 KiB of 1 MiB); both do not.
    const two = await Promise.allSettled([
      store(owner, projectId, 300 * KIB),
      store(owner, projectId, 300 * KIB),
    ])
    expect(two.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    const [refused] = two.filter((r) => r.status === 'rejected')
    expect((refused!.reason as AppError).code).toBe('PAYLOAD_TOO_LARGE')
    // 124 KiB left: of ten 40 KiB stores at once (each fits alone), three fit.
    const ten = await Promise.allSettled(
      Array.from({ length: 10 }, () => store(owner, projectId, 40 * KIB)),
    )
    expect(ten.filter((r) => r.status === 'fulfilled')).toHaveLength(3)
    expect(await rowsOf(projectId)).toHaveLength(5)
    expect(await filesOf(projectId)).toHaveLength(5)
  })

  it('refuses a music upload past the quota with 413 in words, storing nothing', async () => {
    const owner = await addUser(t, 'Uma')
    const projectId = await createProjectAs(t, owner, 'Score')
    await run('ffmpeg', [
      ...['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2'],
      ...['-c:a', 'libmp3lame', join(dir, 'a.mp3')],
    ])
    const mp3 = new Uint8Array(await readFile(join(dir, 'a.mp3')))
    await store(owner, projectId, MIB - 2 * KIB)
    const res = await t.request('POST', `/api/assets/audio?projectId=${projectId}`, {
      rawBody: mp3,
      cookie: owner.cookie,
      headers: { 'content-type': 'application/octet-stream' },
    })
    expect(res.status).toBe(413)
    const { error } = await res.json()
    expect(error.code).toBe('PAYLOAD_TOO_LARGE')
    expect(error.message).toMatch(
      /^This file would take your storage to 1\.\d MB of your 1 MB plan\. Delete unused media or upgrade your plan\.$/,
    )
    expect(await rowsOf(projectId)).toHaveLength(1)
    expect(await filesOf(projectId)).toHaveLength(1)
  })

  it('fails a generation whose result would pass the quota in words, refunded, storing nothing', async () => {
    const owner = await addUser(t, 'Vera', { credits: 10 })
    const generator = createGraphNode('image-generator', { x: 0, y: 0 })
    const made = await t.request('POST', '/api/projects', {
      body: { name: 'Pictures', nodes: [generator], connections: [] },
      cookie: owner.cookie,
    })
    const projectId = (await made.json()).id as number
    const generate = () =>
      t.request('POST', '/api/csas/generate-image', {
        body: {
          projectId,
          nodeId: generator.id,
          modelVersionId: 'storyboard-v1',
          prompt: 'A lighthouse at dusk',
          negativePrompt: '',
          width: 256,
          height: 128,
          numInferenceSteps: 20,
          guidanceScale: 7,
        },
        cookie: owner.cookie,
      })
    // Room for it: stored.
    const fits = await generate()
    expect(fits.status).toBe(200)
    expect(await rowsOf(projectId)).toHaveLength(1)
    const spent = 10 - (await balance(t, owner.id))
    expect(spent).toBeGreaterThan(0)
    // Then the account is filled to a few bytes short of its quota: the next is refused.
    const used = (
      await t.deps.db
        .selectFrom('assets')
        .select('byte_size')
        .where('project_id', '=', projectId)
        .executeTakeFirstOrThrow()
    ).byte_size
    await store(owner, projectId, MIB - used - 16)
    const before = await balance(t, owner.id)
    const refused = await generate()
    expect(refused.status).toBe(413)
    const { error } = await refused.json()
    expect(error.code).toBe('PAYLOAD_TOO_LARGE')
    expect(error.message).toMatch(
      /^This file would take your storage to 1(\.\d)? MB of your 1 MB plan\. Delete unused media or upgrade your plan\. Your \d+ credits? (was|were) refunded\./,
    )
    expect(await balance(t, owner.id)).toBe(before)
    expect(await rowsOf(projectId)).toHaveLength(2)
    expect(await filesOf(projectId)).toHaveLength(2)
    const job = await t.deps.db
      .selectFrom('generation_jobs')
      .select(['status', 'attempts', 'error_code'])
      .where('project_id', '=', projectId)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow()
    expect(job).toMatchObject({ status: 'failed', attempts: 1, error_code: 'PAYLOAD_TOO_LARGE' })
  })

  it('answers GET /api/user/storage for each plan, each account only its own', async () => {
    const plans = [
      ['free', 1],
      ['basic', 2],
      ['pro_cancelling', 3],
    ] as const
    for (const [status, quotaMb] of plans) {
      const owner = await addUser(t, `Owner ${status}`)
      await t.deps.db
        .updateTable('users')
        .set({ subscription_status: status })
        .where('id', '=', owner.id)
        .execute()
      const projectId = await createProjectAs(t, owner, 'Mine')
      await store(owner, projectId, 100 * KIB)
      await store(owner, projectId, 23)
      const res = await t.request('GET', '/api/user/storage', { cookie: owner.cookie })
      expect(res.status).toBe(200)
      expect(storageUsageSchema.parse(await res.json())).toEqual({
        usedBytes: 100 * KIB + 23,
        quotaBytes: quotaMb * MIB,
        planId: status.replace('_cancelling', ''),
      })
    }
    // A stranger sees their own (empty) storage, never another account's; nobody signed in
    // gets 401.
    const stranger = await addUser(t, 'Stranger')
    const mine = await t.request('GET', '/api/user/storage', { cookie: stranger.cookie })
    expect(await mine.json()).toEqual({ usedBytes: 0, quotaBytes: MIB, planId: 'free' })
    expect((await t.request('GET', '/api/user/storage')).status).toBe(401)
    // Described in the OpenAPI document with its schema.
    const doc = await (await t.request('GET', '/api/openapi.json')).json()
    expect(doc.paths['/user/storage'].get.tags).toEqual(['User'])
    expect(Object.keys(doc.components.schemas.StorageUsage.properties).sort()).toEqual([
      'planId',
      'quotaBytes',
      'usedBytes',
    ])
  })
})
