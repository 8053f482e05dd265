import { mergeStoredDocument, readProjectDocument } from '@reelgraph/db'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import {
  createGraphNode,
  docToGraph,
  GENERATED_SCRIPT_LABEL,
  type Graph,
  JOB_DATA_KEYS,
  NODE_FOOTPRINTS,
} from '@reelgraph/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { balance, jobAs as job } from '../../testing/jobs.ts'
import { addMember, addUser, type TestUser } from '../../testing/members.ts'
import { createTestApp, sessionCookieFrom, type TestApp } from '../../testing/test-app.ts'
import { settleDeadJob } from './job-settle.ts'
import { findJob } from './job-store.ts'
import {
  json,
  never,
  startTestServer,
  type TestServer,
} from '../generation/providers/testing/http-server.ts'
import { solidPng } from '../generation/providers/testing/images.ts'
import { chatCompletion } from '../generation/providers/testing/openai-answers.ts'
import { until as poll } from '../../testing/until.ts'

/**
 * Generation as durable jobs (issue 12), end to end through the api on each database: the
 * real queue (pg-boss), in-process workers, the real sync server's gateway, and AI providers
 * either builtin or the real OpenAI SDK against a local server.
 */

const SCRIPT = { style: 'Casual', tone: 'Enthusiastic', format: 'Tutorial', topic: 'Tide pools' }
/** Long enough for any job here, short enough to fail fast. */
const JOB_DONE_MS = 20_000

/** The project's document as stored in Postgres/PGlite (not the live copy). */
async function storedGraph(t: TestApp, projectId: number): Promise<Graph> {
  const stored = await readProjectDocument({ db: t.deps.db, projectId })
  const doc = new Y.Doc()
  // Not stored yet: the document is made on its first load.
  if (stored) Y.applyUpdate(doc, mergeStoredDocument(stored))
  return docToGraph(doc)
}

async function projectWith(
  t: TestApp,
  owner: TestUser,
  type: 'script-generator' | 'editable-text',
) {
  const node = createGraphNode(type, { x: 100, y: 40 })
  if (type === 'editable-text')
    node.data.content = 'Tide pools hide crabs. Anemones wave. The tide returns.'
  const res = await t.request('POST', '/api/projects', {
    body: { name: 'Jobs', nodes: [node], connections: [] },
    cookie: owner.cookie,
  })
  expect(res.status).toBe(201)
  return { projectId: (await res.json()).id as number, node }
}

async function ledger(t: TestApp, userId: number) {
  return t.deps.db
    .selectFrom('credit_transactions')
    .select(['transaction_type', 'amount'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute()
}

describe.each(testDatabaseKinds())('jobs with builtin providers on $name', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    // Every call answers 202 at once: the client goes away right after the enqueue.
    t = await createTestApp(kind, undefined, { JOB_WAIT_MS: '0' })
  })
  afterAll(() => t.close())

  it('a job survives the client leaving right after the enqueue: its result is in the stored document, live, once', async () => {
    const owner = await addUser(t, 'Olive', { credits: 5 })
    const { projectId, node } = await projectWith(t, owner, 'script-generator')
    // A member watching the live document (a direct connection, as an open tab would).
    const watcher = await t.sync.hocuspocus.openDirectConnection(String(projectId))
    const seen: string[] = []
    watcher.document!.getMap('nodes').observe((event) => {
      for (const [id, change] of event.changes.keys) if (change.action === 'add') seen.push(id)
    })

    const body = { ...SCRIPT, projectId, nodeId: node.id }
    const res = await t.request('POST', '/api/ai/generate-script', { body, cookie: owner.cookie })
    expect(res.status).toBe(202)
    const accepted = await res.json()
    // Answered at once, as enqueued (JOB_WAIT_MS 0), whatever an idle worker did meanwhile.
    expect(accepted).toEqual({ jobId: expect.any(String), status: 'queued' })

    const done = await until(
      () => job(t, owner, accepted.jobId),
      (j) => j.status === 'succeeded',
    )
    expect(done).toMatchObject({ kind: 'script', projectId, nodeId: node.id, cost: 1, refunded: 0 })
    expect(done.result.script).toMatch(/tide pool/i)

    const graph = await until(
      () => storedGraph(t, projectId),
      (g) =>
        g.nodes.length === 2 && g.nodes.some((n) => n.data[JOB_DATA_KEYS.status] === 'succeeded'),
    )
    const text = graph.nodes.find((n) => n.type === 'editable-text')!
    expect(text).toMatchObject({
      label: GENERATED_SCRIPT_LABEL,
      position: { x: 450, y: 40 },
      data: { content: done.result.script },
    })
    expect(graph.connections).toEqual([{ source: node.id, target: text.id }])
    const generator = graph.nodes.find((n) => n.id === node.id)!
    expect(generator.data).toMatchObject({
      [JOB_DATA_KEYS.id]: accepted.jobId,
      [JOB_DATA_KEYS.status]: 'succeeded',
      [JOB_DATA_KEYS.progress]: 100,
    })
    expect(seen).toEqual([text.id])
    await watcher.disconnect()

    // A second run of the same generator lands in free space, below the first result.
    const again = await t.request('POST', '/api/ai/generate-script', { body, cookie: owner.cookie })
    const second = await again.json()
    await until(
      () => job(t, owner, second.jobId),
      (j) => j.status === 'succeeded',
    )
    const after = await until(
      () => storedGraph(t, projectId),
      (g) => g.nodes.length === 3,
    )
    const texts = after.nodes.filter((n) => n.type === 'editable-text')
    const [upper, lower] = texts.sort((a, b) => a.position.y - b.position.y)
    expect(upper!.position).toEqual({ x: 450, y: 40 })
    expect(lower!.position.y).toBeGreaterThanOrEqual(40 + NODE_FOOTPRINTS['editable-text'].height)
    expect(await balance(t, owner.id)).toBe(3)
  })

  it('places scenes in a row under the text node, connected', async () => {
    const owner = await addUser(t, 'Sam', { credits: 5 })
    const { projectId, node } = await projectWith(t, owner, 'editable-text')
    const res = await t.request('POST', '/api/ai/generate-scenes', {
      body: { script: node.data.content, sceneCount: 3, projectId, nodeId: node.id },
      cookie: owner.cookie,
    })
    const { jobId } = await res.json()
    await until(
      () => job(t, owner, jobId),
      (j) => j.status === 'succeeded',
    )
    const graph = await until(
      () => storedGraph(t, projectId),
      (g) => g.nodes.length === 4,
    )
    const scenes = graph.nodes
      .filter((n) => n.type === 'scene')
      .sort((a, b) => a.position.x - b.position.x)
    expect(scenes.map((s) => [s.label, s.position])).toEqual([
      ['Scene 1', { x: 100, y: 590 }],
      ['Scene 2', { x: 420, y: 590 }],
      ['Scene 3', { x: 740, y: 590 }],
    ])
    expect(graph.connections).toHaveLength(3)
  })

  it('50 concurrent jobs from one user with 20 credits: exactly 20 run, the ledger sums to the balance', async () => {
    // Signed up: 20 credits with their account_creation row, so the ledger is complete.
    const registered = await t.request('POST', '/api/register', {
      body: {
        name: 'Many',
        email: `many-${Date.now()}@example.com`,
        password: 'paper lantern river',
      },
    })
    const user = {
      id: (await registered.json()).id as number,
      cookie: sessionCookieFrom(registered)!,
    }
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        t.request('POST', '/api/ai/generate-script', { body: SCRIPT, cookie: user.cookie }),
      ),
    )
    const statuses = responses.map((r) => r.status)
    expect(statuses.filter((s) => s === 202)).toHaveLength(20)
    expect(statuses.filter((s) => s === 402)).toHaveLength(30)
    const ids = await Promise.all(
      responses.filter((r) => r.status === 202).map(async (r) => (await r.json()).jobId as string),
    )
    for (const id of ids) {
      await until(
        () => job(t, user, id),
        (j) => j.status === 'succeeded',
        30_000,
      )
    }
    const rows = await ledger(t, user.id)
    expect(rows.filter((r) => r.transaction_type === 'script_generation')).toHaveLength(20)
    expect(rows.filter((r) => r.transaction_type === 'generation_refund')).toHaveLength(0)
    expect(rows.reduce((sum, r) => sum + r.amount, 0)).toBe(await balance(t, user.id))
    expect(await balance(t, user.id)).toBe(0)
  }, 60_000)

  it('a stranger can neither read nor cancel a job (404); a viewer reads but cannot cancel', async () => {
    const owner = await addUser(t, 'Owen', { credits: 5 })
    const viewer = await addUser(t, 'Vic')
    const stranger = await addUser(t, 'Stan')
    const { projectId, node } = await projectWith(t, owner, 'script-generator')
    await addMember(t, projectId, viewer.id, 'viewer')
    const res = await t.request('POST', '/api/ai/generate-script', {
      body: { ...SCRIPT, projectId, nodeId: node.id },
      cookie: owner.cookie,
    })
    const { jobId } = await res.json()
    for (const path of [`/api/jobs/${jobId}`, `/api/jobs/${jobId}/cancel`]) {
      const method = path.endsWith('cancel') ? 'POST' : 'GET'
      const refused = await t.request(method, path, { cookie: stranger.cookie })
      expect(refused.status).toBe(404)
      expect((await refused.json()).error.code).toBe('NOT_FOUND')
    }
    expect((await t.request('GET', `/api/jobs/${jobId}`, { cookie: viewer.cookie })).status).toBe(
      200,
    )
    const viewerCancel = await t.request('POST', `/api/jobs/${jobId}/cancel`, {
      cookie: viewer.cookie,
    })
    expect(viewerCancel.status).toBe(403)
    expect((await t.request('GET', '/api/jobs/not-a-job', { cookie: owner.cookie })).status).toBe(
      404,
    )

    // A job without a project is its creator's only.
    const loose = await t.request('POST', '/api/ai/generate-script', {
      body: SCRIPT,
      cookie: owner.cookie,
    })
    const looseId = (await loose.json()).jobId
    expect((await t.request('GET', `/api/jobs/${looseId}`, { cookie: owner.cookie })).status).toBe(
      200,
    )
    expect((await t.request('GET', `/api/jobs/${looseId}`, { cookie: viewer.cookie })).status).toBe(
      404,
    )
    expect((await t.request('GET', `/api/jobs/${looseId}`)).status).toBe(401)
  })

  it('answers a malformed job id as a job that does not exist (404), and the anonymous 401 first', async () => {
    const user = await addUser(t, 'Mal')
    const malformed = [
      'not-a-job',
      '42',
      '0b0e9d5c-3f1a-4c2e-9a7b-5d6e7f8a9b0', // one digit short
      '0b0e9d5c3f1a4c2e9a7b5d6e7f8a9b0c', // no dashes
      '0b0e9d5c-3f1a-4c2e-9a7b-5d6e7f8a9b0cx', // one character too many
    ]
    for (const id of malformed) {
      for (const [method, path] of [
        ['GET', `/api/jobs/${id}`],
        ['POST', `/api/jobs/${id}/cancel`],
      ] as const) {
        const res = await t.request(method, path, { cookie: user.cookie })
        expect(res.status, `${method} ${path}`).toBe(404)
        expect((await res.json()).error).toMatchObject({
          code: 'NOT_FOUND',
          message: 'This job does not exist, or it is not yours.',
        })
        expect((await t.request(method, path)).status, `anonymous ${method} ${path}`).toBe(401)
      }
    }
    // A well-formed id of no job: the same 404.
    const unknown = await t.request('GET', '/api/jobs/0B0E9D5C-3F1A-4C2E-9A7B-5D6E7F8A9B0C', {
      cookie: user.cookie,
    })
    expect(unknown.status).toBe(404)
    expect((await unknown.json()).error.code).toBe('NOT_FOUND')
  })

  it('answers the same job for a repeated Idempotency-Key, charged once', async () => {
    const user = await addUser(t, 'Ida', { credits: 5 })
    const headers = { 'idempotency-key': 'jobs-retry-0001' }
    const first = await (
      await t.request('POST', '/api/ai/generate-script', {
        body: SCRIPT,
        cookie: user.cookie,
        headers,
      })
    ).json()
    const second = await (
      await t.request('POST', '/api/ai/generate-script', {
        body: SCRIPT,
        cookie: user.cookie,
        headers,
      })
    ).json()
    expect(second.jobId).toBe(first.jobId)
    expect(await balance(t, user.id)).toBe(4)
  })
})

describe.each(testDatabaseKinds())(
  'jobs with a scripted OpenAI-compatible server on $name',
  (kind) => {
    let t: TestApp
    let server: TestServer

    beforeAll(async () => {
      server = await startTestServer()
      t = await createTestApp(kind, undefined, {
        AI_TEXT_PROVIDER: 'openai',
        OPENAI_BASE_URL: `${server.url}/v1`,
        OPENAI_API_KEY: 'test-key',
        AI_IMAGE_PROVIDER: 'automatic1111',
        A1111_URL: server.url,
        JOB_RETRY_LIMIT: '2',
        // One job per user at a time: a second job stays queued while the first runs.
        JOB_USER_CONCURRENCY: '1',
      })
    })
    afterAll(async () => {
      await t.close()
      await server.close()
    })

    it('retries transient provider failures (503, 429), then succeeds, charged once', async () => {
      const user = await addUser(t, 'Rita', { credits: 5 })
      const answers = [503, 429]
      server.handle((_, res) => {
        const status = answers.shift()
        if (status) json(res, status, { error: { message: 'busy', type: 'server_error' } })
        else json(res, 200, chatCompletion('A script about tide pools.'))
      })
      const res = await t.request('POST', '/api/ai/generate-script', {
        body: SCRIPT,
        cookie: user.cookie,
      })
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ script: 'A script about tide pools.' })
      const row = await t.deps.db
        .selectFrom('generation_jobs')
        .select(['attempts', 'status', 'refunded'])
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow()
      expect(row).toEqual({ attempts: 3, status: 'succeeded', refunded: 0 })
      expect((await ledger(t, user.id)).map((r) => r.transaction_type)).toEqual([
        'script_generation',
      ])
    }, 30_000)

    it('fails a permanent provider failure at once and refunds it once, with the reason on the node', async () => {
      const user = await addUser(t, 'Pat', { credits: 5 })
      const { projectId, node } = await projectWith(t, user, 'script-generator')
      server.handle((_, res) => json(res, 401, { error: { message: 'bad key', type: 'auth' } }))
      const res = await t.request('POST', '/api/ai/generate-script', {
        body: { ...SCRIPT, projectId, nodeId: node.id },
        cookie: user.cookie,
      })
      expect(res.status).toBe(502)
      const message = (await res.json()).error.message
      expect(message).toMatch(/check the server's API key/)
      expect(message).toMatch(/Your 1 credit was refunded\. Please try again\.$/)
      expect((await ledger(t, user.id)).map((r) => [r.transaction_type, r.amount])).toEqual([
        ['script_generation', -1],
        ['generation_refund', 1],
      ])
      expect(await balance(t, user.id)).toBe(5)
      const graph = await until(
        () => storedGraph(t, projectId),
        (g) => g.nodes[0]?.data[JOB_DATA_KEYS.status] === 'failed',
      )
      expect(graph.nodes).toHaveLength(1)
      expect(graph.nodes[0]!.data).toMatchObject({
        [JOB_DATA_KEYS.refunded]: 1,
        [JOB_DATA_KEYS.message]: expect.stringMatching(/API key/),
      })
    })

    it('cancels a running job and a queued one, refunding both; nothing is written', async () => {
      const user = await addUser(t, 'Cara', { credits: 5 })
      const { projectId, node } = await projectWith(t, user, 'script-generator')
      server.handle(never)
      const start = async () => {
        const res = await t.request('POST', '/api/ai/generate-script', {
          body: { ...SCRIPT, projectId, nodeId: node.id },
          cookie: user.cookie,
        })
        return res
      }
      // The wait is 25 s by default: ask in the background and read the jobs from the database.
      const first = start()
      const running = await until(
        () =>
          t.deps.db
            .selectFrom('generation_jobs')
            .selectAll()
            .where('user_id', '=', user.id)
            .execute(),
        (rows) => rows.length === 1 && rows[0]!.status === 'running',
      )
      const second = start()
      const queued = await until(
        () =>
          t.deps.db
            .selectFrom('generation_jobs')
            .selectAll()
            .where('user_id', '=', user.id)
            .where('id', '!=', running[0]!.id)
            .execute(),
        (rows) => rows.length === 1,
      )
      expect(queued[0]!.status).toBe('queued')

      const cancelQueued = await t.request('POST', `/api/jobs/${queued[0]!.id}/cancel`, {
        cookie: user.cookie,
      })
      expect(cancelQueued.status).toBe(200)
      expect(await cancelQueued.json()).toMatchObject({ status: 'cancelled', refunded: 1 })
      const cancelRunning = await t.request('POST', `/api/jobs/${running[0]!.id}/cancel`, {
        cookie: user.cookie,
      })
      expect(await cancelRunning.json()).toMatchObject({
        status: 'cancelled',
        refunded: 1,
        message: 'Cancelled. Your 1 credit was refunded.',
      })
      for (const res of [await first, await second]) {
        expect(res.status).toBe(409)
        expect((await res.json()).error.code).toBe('JOB_CANCELLED')
      }
      // Cancelling again changes nothing.
      const again = await t.request('POST', `/api/jobs/${running[0]!.id}/cancel`, {
        cookie: user.cookie,
      })
      expect(await again.json()).toMatchObject({ status: 'cancelled', refunded: 1 })
      expect(await balance(t, user.id)).toBe(5)
      const rows = await ledger(t, user.id)
      expect(rows.filter((r) => r.transaction_type === 'generation_refund')).toHaveLength(2)
      const graph = await until(
        () => storedGraph(t, projectId),
        (g) => g.nodes[0]?.data[JOB_DATA_KEYS.status] === 'cancelled',
      )
      expect(graph.nodes).toHaveLength(1)
    }, 30_000)

    it('a cancel after the provider was paid refunds nothing and says so', async () => {
      const user = await addUser(t, 'Paula', { credits: 5 })
      server.handle(never)
      const answer = t.request('POST', '/api/ai/generate-script', {
        body: SCRIPT,
        cookie: user.cookie,
      })
      const [running] = await until(
        () =>
          t.deps.db
            .selectFrom('generation_jobs')
            .selectAll()
            .where('user_id', '=', user.id)
            .execute(),
        (rows) => rows[0]?.status === 'running',
      )
      // As the worker marks it once the provider has delivered (and charged us).
      await t.deps.db
        .updateTable('generation_jobs')
        .set({ provider_paid: true })
        .where('id', '=', running!.id)
        .execute()
      const cancelled = await t.request('POST', `/api/jobs/${running!.id}/cancel`, {
        cookie: user.cookie,
      })
      expect(await cancelled.json()).toMatchObject({
        status: 'cancelled',
        refunded: 0,
        message: expect.stringMatching(/already delivered .* no credits were refunded/),
      })
      expect((await answer).status).toBe(409)
      expect(await balance(t, user.id)).toBe(4)
    })

    it('shows the provider progress and stage on the node while running, then places the image', async () => {
      const user = await addUser(t, 'Ivy', { credits: 5 })
      const generator = createGraphNode('image-generator', { x: 0, y: 0 })
      const made = await t.request('POST', '/api/projects', {
        body: { name: 'Progress', nodes: [generator], connections: [] },
        cookie: user.cookie,
      })
      const projectId = (await made.json()).id as number
      const png = await solidPng(256, 128)
      let release: (() => void) | undefined
      server.handle((req, res) => {
        if (req.pathname === '/sdapi/v1/progress') return json(res, 200, { progress: 0.42 })
        release = () =>
          json(res, 200, { images: [Buffer.from(png).toString('base64')], info: '{}' })
      })
      const answer = t.request('POST', '/api/csas/generate-image', {
        body: {
          projectId,
          nodeId: generator.id,
          modelVersionId: 'v1-5',
          prompt: 'A crab at dawn',
          negativePrompt: '',
          width: 256,
          height: 128,
          numInferenceSteps: 20,
          guidanceScale: 7,
          seed: 5,
        },
        cookie: user.cookie,
      })
      const running = await until(
        () => storedGraph(t, projectId),
        (g) => g.nodes[0]?.data[JOB_DATA_KEYS.progress] === 42,
      )
      expect(running.nodes[0]!.data).toMatchObject({
        [JOB_DATA_KEYS.status]: 'running',
        [JOB_DATA_KEYS.stage]: 'Generating the image',
      })
      release!()
      const res = await answer
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({
        seed: 5,
        imageUrl: expect.stringMatching(/^\/api\/assets\//),
      })
      const graph = await until(
        () => storedGraph(t, projectId),
        (g) => g.nodes.length === 2,
      )
      expect(graph.nodes.find((n) => n.type === 'image')).toMatchObject({
        position: { x: 350, y: 0 },
        data: { prompt: 'A crab at dawn', width: 256, height: 128 },
      })
    })
  },
)

describe.each(testDatabaseKinds())('jobs the queue gave up on, on $name', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    // No worker here: the jobs stay queued until settled by hand.
    t = await createTestApp(kind, undefined, { JOB_WORKERS: 'false', JOB_WAIT_MS: '0' })
  })
  afterAll(() => t.close())

  it("fails and refunds an open job once; writes a succeeded job's missing result", async () => {
    const user = await addUser(t, 'Dee', { credits: 5 })
    const { projectId, node } = await projectWith(t, user, 'script-generator')
    const submit = async () =>
      (
        await (
          await t.request('POST', '/api/ai/generate-script', {
            body: { ...SCRIPT, projectId, nodeId: node.id },
            cookie: user.cookie,
          })
        ).json()
      ).jobId as string

    // A job whose worker died on its last attempt: failed, refunded, and only once.
    const lost = await submit()
    await settleDeadJob(t.deps.jobs, (await findJob(t.deps.db, lost))!)
    await settleDeadJob(t.deps.jobs, (await findJob(t.deps.db, lost))!)
    expect(await job(t, user, lost)).toMatchObject({
      status: 'failed',
      refunded: 1,
      message: expect.stringMatching(/worker running it was lost\)\. Your 1 credit was refunded/),
    })
    expect(await balance(t, user.id)).toBe(5)

    // A job that succeeded but whose result never reached the document.
    const done = await submit()
    await t.deps.db
      .updateTable('generation_jobs')
      .set({ status: 'succeeded', result: JSON.stringify({ script: 'Recovered script' }) })
      .where('id', '=', done)
      .execute()
    await settleDeadJob(t.deps.jobs, (await findJob(t.deps.db, done))!)
    const graph = await storedGraph(t, projectId)
    expect(graph.nodes.find((n) => n.type === 'editable-text')?.data.content).toBe(
      'Recovered script',
    )
    expect((await findJob(t.deps.db, done))?.result_written).toBe(true)
  })
})

/** Polls until `done`, at most `ms` (default JOB_DONE_MS). */
function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = JOB_DONE_MS) {
  return poll(read, done, ms)
}
