import { execFile } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import {
  BATCH_MAX_ROWS,
  BATCH_MESSAGES,
  makeVideoCost,
  type TemplateSettings,
  webhookEventSchema,
} from '@reelgraph/shared'
import { unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { balance } from '../../testing/jobs.ts'
import { addUser, type TestUser } from '../../testing/members.ts'
import { itRendersOn } from '../../testing/renders.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { until } from '../../testing/until.ts'
import {
  json,
  startTestServer,
  type TestServer,
} from '../generation/providers/testing/http-server.ts'
import { solidPng } from '../generation/providers/testing/images.ts'
import { builtinGraph } from '../templates/builtin-templates.ts'

/**
 * Batch runs from a table (issue 42 item 3, "Done when") end to end: the quote refuses a bad
 * table naming the column, the limit or the row, storing nothing; a batch whose second row's
 * image provider refuses (a local server speaking AUTOMATIC1111's API, answering 400 for that
 * row's topic) finishes the other rows, refunds the failed one, and its retry succeeds; the
 * ZIP holds every MP4 and SRT; `batch.completed` reaches a local receiver once per completion;
 * cancel; a stranger gets 404. Videos are 15 s in one scene, so the renders stay short.
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
const SETTINGS: TemplateSettings = {
  preset: '9:16',
  targetSeconds: 15,
  sceneCount: 1,
  voice: '',
  captions: { style: 'bold' },
}
const PER_ROW = makeVideoCost(costs, 1)
const BATCH_DONE_MS = 240_000
/** The topic word whose image the fake provider refuses while `failing` is set. */
const FAILING_WORD = /zebra/i

/** A local webhook receiver: every body it got, by path. */
class Receiver {
  readonly bodies: { path: string; body: string }[] = []
  #server: Server | undefined
  url = ''
  async start() {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        this.bodies.push({ path: req.url ?? '/', body: Buffer.concat(chunks).toString('utf8') })
        res.writeHead(200).end('ok')
      })
    })
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve))
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`
  }
  close() {
    this.#server?.closeAllConnections()
    return new Promise<void>((resolve) => this.#server?.close(() => resolve()))
  }
}

/** The MP4's streams and length, as ffprobe reads them. */
async function probe(bytes: Uint8Array) {
  const dir = await mkdtemp(join(tmpdir(), 'reelgraph-batch-test-'))
  try {
    const path = join(dir, 'video.mp4')
    await writeFile(path, bytes)
    const { stdout } = await run('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'format=duration:stream=codec_type,width,height',
      '-of',
      'json',
      path,
    ])
    return JSON.parse(stdout) as {
      format: { duration: string }
      streams: { codec_type: string; width?: number; height?: number }[]
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

describe.each(testDatabaseKinds())('batch runs on $name (issue 42 item 3)', (kind) => {
  const itRenders = itRendersOn(kind)
  let t: TestApp
  let images: TestServer
  const receiver = new Receiver()
  let failing = true

  beforeAll(async () => {
    await receiver.start()
    images = await startTestServer(async (req, res) => {
      if (req.pathname === '/sdapi/v1/progress') return json(res, 200, { progress: 0.5 })
      if (req.pathname === '/sdapi/v1/sd-models') {
        return json(res, 200, [{ title: 'test-model.safetensors', model_name: 'test-model' }])
      }
      if (req.pathname !== '/sdapi/v1/txt2img') return json(res, 404, {})
      const body = req.body as { prompt: string; width: number; height: number }
      if (failing && FAILING_WORD.test(body.prompt)) {
        return json(res, 400, { detail: 'The test refuses this prompt.' })
      }
      const png = await solidPng(body.width, body.height)
      json(res, 200, { images: [Buffer.from(png).toString('base64')], info: '{}' })
    })
    t = await createTestApp(kind, undefined, {
      JOB_WAIT_MS: '0',
      ...COSTS,
      AI_IMAGE_PROVIDER: 'automatic1111',
      A1111_URL: images.url,
      OUTBOUND_ALLOW_HOSTS: `127.0.0.1:${new URL(receiver.url).port}`,
      WEBHOOK_RETRY_DELAYS: '300ms,900ms',
    })
  })
  afterAll(async () => {
    await t.close()
    await images.close()
    await receiver.close()
  })

  /** A template of `owner`'s: one Script Generator whose topic is `{{topic}}`. */
  async function template(owner: TestUser, name = 'Short') {
    const graph = builtinGraph({
      key: '',
      name,
      description: '',
      topic: '{{topic}}',
      variables: [],
      settings: SETTINGS,
    })
    const row = await t.deps.db
      .insertInto('templates')
      .values({
        owner_id: owner.id,
        name,
        graph: JSON.stringify(graph),
        variables: JSON.stringify([{ name: 'topic', kind: 'text', label: 'Topic', example: '' }]),
        settings: JSON.stringify(SETTINGS),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    return row.id
  }

  const csv = (owner: TestUser, templateId: number, text: string) =>
    t.request('POST', `/api/batches?templateId=${templateId}`, {
      cookie: owner.cookie,
      headers: { 'content-type': 'text/csv' },
      rawBody: text,
    })

  async function storedBatches(userId: number) {
    const rows = await t.deps.db
      .selectFrom('batches')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
    return Number(rows.n)
  }

  const read = async (user: TestUser, id: number) =>
    (await t.request('GET', `/api/batches/${id}`, { cookie: user.cookie })).json()

  const final = (user: TestUser, id: number) =>
    until(
      () => read(user, id),
      (b) => b.status === 'done' || (b.status === 'cancelled' && b.counts.running === 0),
      BATCH_DONE_MS,
      250,
    )

  it('quotes a CSV table: credits for every row and a time, nothing charged', async () => {
    const owner = await addUser(t, 'Quoter', { credits: 100 })
    const templateId = await template(owner)
    const res = await csv(owner, templateId, '\uFEFFtopic\r\n"Tides, and the moon"\r\nOwls\r\n\r\n')
    expect(res.status).toBe(201)
    const batch = await res.json()
    expect(batch).toMatchObject({
      templateId,
      status: 'quoted',
      quote: { credits: 2 * PER_ROW, creditsPerRow: PER_ROW, concurrency: 2 },
      spentCredits: 0,
      counts: { quoted: 2, running: 0 },
    })
    expect(batch.quote.estimatedSeconds).toBeGreaterThan(0)
    expect(batch.rows.map((r: { values: unknown }) => r.values)).toEqual([
      { topic: 'Tides, and the moon' },
      { topic: 'Owls' },
    ])
    expect(await balance(t, owner.id)).toBe(100)
    const listed = await (await t.request('GET', '/api/batches', { cookie: owner.cookie })).json()
    expect(listed.batches.map((b: { id: number }) => b.id)).toEqual([batch.id])
  })

  it('refuses a table with a missing column, 501 rows, or a bad row, naming it; stores nothing', async () => {
    const owner = await addUser(t, 'Refused', { credits: 100 })
    const templateId = await template(owner)

    const missing = await csv(owner, templateId, 'title\nOwls\n')
    expect(missing.status).toBe(400)
    expect((await missing.json()).error.message).toBe(BATCH_MESSAGES.missingColumn('topic'))

    const unknown = await csv(owner, templateId, 'topic,mood\nOwls,calm\n')
    expect(unknown.status).toBe(400)
    expect((await unknown.json()).error.message).toBe(BATCH_MESSAGES.unknownColumn('mood'))

    const long = ['topic', ...Array.from({ length: BATCH_MAX_ROWS + 1 }, (_, i) => `Topic ${i}`)]
    const tooMany = await csv(owner, templateId, long.join('\n'))
    expect(tooMany.status).toBe(400)
    const tooManyMessage = (await tooMany.json()).error.message
    expect(tooManyMessage).toBe(BATCH_MESSAGES.tooManyRows(501))
    expect(tooManyMessage).toContain('at most 500')

    const bad = await csv(owner, templateId, `topic\nOwls\nTides\n"${'x'.repeat(501)}"\n`)
    expect(bad.status).toBe(400)
    expect((await bad.json()).error.message).toMatch(/^Row 3: \{\{topic\}\} is longer than 500/)

    const ragged = await csv(owner, templateId, 'topic\nOwls\nTides,extra\n')
    expect(ragged.status).toBe(400)
    expect((await ragged.json()).error.message).toMatch(/^Row 2: /)

    const json = await t.request('POST', '/api/batches', {
      cookie: owner.cookie,
      body: { templateId, rows: [{ topic: 'Owls' }, { topic: '  ' }, {}] },
    })
    expect(json.status).toBe(400)
    const refused = (await json.json()).error
    expect(refused.message).toBe('Row 2: {{topic}} is empty. Row 3: Give a value for {{topic}}.')
    expect(refused.fields).toEqual({
      'rows.1.topic': 'Row 2: {{topic}} is empty.',
      'rows.2.topic': 'Row 3: Give a value for {{topic}}.',
    })

    const xml = await t.request('POST', `/api/batches?templateId=${templateId}`, {
      cookie: owner.cookie,
      headers: { 'content-type': 'text/plain' },
      rawBody: 'topic\nOwls\n',
    })
    expect(xml.status).toBe(415)
    expect(await storedBatches(owner.id)).toBe(0)
  })

  it('answers 404 to a stranger, and for a template the caller cannot use', async () => {
    const owner = await addUser(t, 'Owner', { credits: 100 })
    const stranger = await addUser(t, 'Stranger', { credits: 100 })
    const templateId = await template(owner)
    const batch = await (await csv(owner, templateId, 'topic\nOwls\n')).json()
    for (const [method, path] of [
      ['GET', `/api/batches/${batch.id}`],
      ['POST', `/api/batches/${batch.id}/start`],
      ['POST', `/api/batches/${batch.id}/cancel`],
      ['POST', `/api/batches/${batch.id}/retry`],
      ['GET', `/api/batches/${batch.id}/files.zip`],
      ['GET', '/api/batches/not-an-id'],
    ] as const) {
      const res = await t.request(method, path, { cookie: stranger.cookie })
      expect(res.status, `${method} ${path}`).toBe(404)
    }
    expect((await csv(stranger, templateId, 'topic\nOwls\n')).status).toBe(404)
    expect(await storedBatches(stranger.id)).toBe(0)
    expect((await read(owner, batch.id)).status).toBe('quoted')
  })

  itRenders(
    'runs 3 rows; the failed 2nd is refunded, the others finish; retry succeeds; ZIP and batch.completed',
    async () => {
      failing = true
      const start = 100
      const owner = await addUser(t, 'Runner', { credits: 2 * PER_ROW })
      const templateId = await template(owner, 'Short')
      const hook = await t.request('POST', '/api/webhooks', {
        cookie: owner.cookie,
        body: { url: `${receiver.url}/batches-${owner.id}`, events: ['batch.completed'] },
      })
      expect(hook.status).toBe(201)
      const quoted = await t.request('POST', '/api/batches', {
        cookie: owner.cookie,
        body: {
          templateId,
          rows: [
            { topic: 'How honeybees make honey' },
            { topic: 'Why zebras have stripes' },
            { topic: 'How lighthouses guide ships' },
          ],
        },
      })
      expect(quoted.status).toBe(201)
      const batch = await quoted.json()
      expect(batch.quote.credits).toBe(3 * PER_ROW)

      // Below the quote: 402 in words, nothing starts.
      const poor = await t.request('POST', `/api/batches/${batch.id}/start`, {
        cookie: owner.cookie,
      })
      expect(poor.status).toBe(402)
      expect((await poor.json()).error.message).toBe(
        BATCH_MESSAGES.notEnoughCredits(3 * PER_ROW, 2 * PER_ROW),
      )
      expect((await read(owner, batch.id)).status).toBe('quoted')
      await t.deps.db
        .updateTable('users')
        .set({ plan_credits: start, purchased_credits: 0 })
        .where('id', '=', owner.id)
        .execute()

      const started = await t.request('POST', `/api/batches/${batch.id}/start`, {
        cookie: owner.cookie,
      })
      expect(started.status).toBe(200)
      expect((await started.json()).status).toBe('running')
      const again = await t.request('POST', `/api/batches/${batch.id}/start`, {
        cookie: owner.cookie,
      })
      expect(again.status).toBe(400)

      const done = await final(owner, batch.id)
      expect(done.status).toBe('done')
      expect(done.rows.map((r: { status: string }) => r.status)).toEqual([
        'succeeded',
        'failed',
        'succeeded',
      ])
      const [first, second, third] = done.rows
      expect(first).toMatchObject({
        progress: 1,
        credits: PER_ROW,
        projectName: 'Short: How honeybees make honey',
        mp4Url: expect.stringMatching(/^\/api\/assets\//),
        srtUrl: expect.stringMatching(/^\/api\/assets\//),
        thumbnailUrl: expect.stringMatching(/^\/api\/assets\//),
        error: null,
      })
      expect(third.mp4Url).not.toBe(first.mp4Url)
      expect(second.error).toMatch(/HTTP 400/)
      expect(second.mp4Url).toBeNull()
      // The failed row is refunded what it did not deliver (its script and scenes were made).
      const failedJob = await t.deps.db
        .selectFrom('generation_jobs')
        .select(['cost', 'refunded'])
        .where('id', '=', second.jobId)
        .executeTakeFirstOrThrow()
      expect(failedJob.refunded).toBeGreaterThan(0)
      expect(second.credits).toBe(failedJob.cost - failedJob.refunded)
      expect(second.credits).toBeLessThan(PER_ROW)
      expect(done.spentCredits).toBe(2 * PER_ROW + second.credits)
      expect(await balance(t, owner.id)).toBe(start - done.spentCredits)

      // batch.completed, once, to the account's endpoint.
      const events = () =>
        receiver.bodies
          .filter((b) => b.path === `/batches-${owner.id}`)
          .map((b) => webhookEventSchema.parse(JSON.parse(b.body)))
      await until(
        async () => events(),
        (e) => e.length >= 1,
        20_000,
      )
      expect(events()).toEqual([
        expect.objectContaining({
          type: 'batch.completed',
          data: expect.objectContaining({
            batchId: batch.id,
            status: 'done',
            counts: expect.objectContaining({ succeeded: 2, failed: 1 }),
            spentCredits: done.spentCredits,
          }),
        }),
      ])

      // Retry: the failed row runs again, charged again, and succeeds.
      failing = false
      const retried = await t.request('POST', `/api/batches/${batch.id}/retry`, {
        cookie: owner.cookie,
      })
      expect(retried.status).toBe(200)
      expect((await retried.json()).rows[1].status).toBe('queued')
      const redone = await final(owner, batch.id)
      expect(redone.rows.map((r: { status: string }) => r.status)).toEqual([
        'succeeded',
        'succeeded',
        'succeeded',
      ])
      expect(redone.rows[1].credits).toBe(second.credits + PER_ROW)
      expect(redone.rows[1].projectId).toBe(second.projectId)
      expect(await balance(t, owner.id)).toBe(start - redone.spentCredits)
      const nothing = await t.request('POST', `/api/batches/${batch.id}/retry`, {
        cookie: owner.cookie,
      })
      expect(nothing.status).toBe(400)
      await until(
        async () => events(),
        (e) => e.length >= 2,
        20_000,
      )
      const completions = events()
      expect(completions).toHaveLength(2)
      expect(completions[1]!.data).toMatchObject({
        counts: expect.objectContaining({ succeeded: 3 }),
      })

      // The ZIP: every MP4 and SRT, named from the projects.
      const zip = await t.request('GET', `/api/batches/${batch.id}/files.zip`, {
        cookie: owner.cookie,
      })
      expect(zip.status).toBe(200)
      expect(zip.headers.get('content-type')).toBe('application/zip')
      const files = unzipSync(new Uint8Array(await zip.arrayBuffer()))
      expect(Object.keys(files).sort()).toEqual(
        [
          'Short: How honeybees make honey',
          'Short: Why zebras have stripes',
          'Short: How lighthouses guide ships',
        ]
          .map((name) => name.replace(':', '_'))
          .flatMap((name) => [`${name}.mp4`, `${name}.srt`])
          .sort(),
      )
      const srt = new TextDecoder().decode(files['Short_ How honeybees make honey.srt'])
      expect(srt).toMatch(/^1\r?\n\d\d:\d\d:\d\d,\d{3} --> /)
      const probed = await probe(files['Short_ How lighthouses guide ships.mp4']!)
      const video = probed.streams.find((s) => s.codec_type === 'video')
      expect(video).toMatchObject({ width: 1080, height: 1920 })
      expect(probed.streams.some((s) => s.codec_type === 'audio')).toBe(true)
      expect(Number(probed.format.duration)).toBeGreaterThan(15 * 0.85)
      expect(Number(probed.format.duration)).toBeLessThan(15 * 1.15)
    },
    BATCH_DONE_MS * 3,
  )

  itRenders(
    'cancels a running batch: rows not started are cancelled, running jobs cancelled and refunded',
    async () => {
      failing = false
      const owner = await addUser(t, 'Canceller', { credits: 100 })
      const templateId = await template(owner)
      const batch = await (
        await csv(owner, templateId, 'topic\nOwls at night\nDesert rain\nMountain goats\nTea\n')
      ).json()
      await t.request('POST', `/api/batches/${batch.id}/start`, { cookie: owner.cookie })
      // Wait until the first rows have their jobs (charged), then cancel everything.
      await until(
        () => read(owner, batch.id),
        (b) => b.rows.filter((r: { jobId: string | null }) => r.jobId).length >= 1,
        60_000,
      )
      const cancelled = await t.request('POST', `/api/batches/${batch.id}/cancel`, {
        cookie: owner.cookie,
      })
      expect(cancelled.status).toBe(200)
      expect((await cancelled.json()).status).toBe('cancelled')
      const ended = await final(owner, batch.id)
      expect(ended.status).toBe('cancelled')
      const statuses = ended.rows.map((r: { status: string }) => r.status)
      expect(statuses.at(-1)).toBe('cancelled') // the 4th never started: concurrency 2
      expect(statuses.every((s: string) => s === 'cancelled' || s === 'succeeded')).toBe(true)
      expect(ended.rows.at(-1).jobId).toBeNull()
      // Only what was delivered is kept: a cancelled row's job gave the rest back.
      for (const row of ended.rows.filter((r: { jobId: string | null }) => r.jobId)) {
        const job = await t.deps.db
          .selectFrom('generation_jobs')
          .select(['status', 'cost', 'refunded', 'delivered_cost', 'provider_paid'])
          .where('id', '=', row.jobId)
          .executeTakeFirstOrThrow()
        if (row.status === 'cancelled') {
          expect(job.status).toBe('cancelled')
          expect(job.cost - job.refunded).toBe(job.delivered_cost)
        }
        expect(row.credits).toBe(job.cost - job.refunded)
      }
      expect(await balance(t, owner.id)).toBe(100 - ended.spentCredits)
      const retry = await t.request('POST', `/api/batches/${batch.id}/retry`, {
        cookie: owner.cookie,
      })
      expect(retry.status).toBe(400)
    },
    BATCH_DONE_MS,
  )
})
