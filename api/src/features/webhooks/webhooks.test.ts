import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import type { VideoRenderResult } from '@reelgraph/shared'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createJobKinds } from '../../job-kinds.ts'
import { AppError } from '../../lib/app-error.ts'
import { jobAs } from '../../testing/jobs.ts'
import { addUser, createProjectAs, type TestUser } from '../../testing/members.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../testing/test-app.ts'
import { until } from '../../testing/until.ts'
import { type JobKind, jobKindMap } from '../jobs/job-kind.ts'
import { submitGeneration } from '../jobs/job-service.ts'
import { newSigningSecret } from './webhook-signing.ts'

/**
 * Signed webhooks end to end (issue 41 item 3, "Done when"): jobs of a kind defined here end as
 * the test asks; their events go through the job system's outcome, the delivery queue and the
 * outbound guard to a local receiver on 127.0.0.1 (allowed by OUTBOUND_ALLOW_HOSTS, as an
 * operator would), which checks them with the Standard Webhooks reference library. Retry waits
 * are short settings (300 ms, then 900 ms), so nothing waits minutes.
 */

const RETRY_DELAYS_MS = [300, 900]
const DISABLE_AFTER = 2
const WAIT_MS = 20_000

/** A request the receiver got: its exact body, headers and when it arrived. */
interface Received {
  path: string
  body: string
  headers: IncomingHttpHeaders
  at: number
}

/** A local webhook receiver: answers each path with the status the test sets (default 200). */
class Receiver {
  readonly received: Received[] = []
  readonly statuses = new Map<string, number>()
  #server: Server | undefined
  url = ''

  async start(): Promise<void> {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        const path = req.url ?? '/'
        this.received.push({
          path,
          body: Buffer.concat(chunks).toString('utf8'),
          headers: req.headers,
          at: performance.now(),
        })
        res.writeHead(this.statuses.get(path) ?? 200, { 'content-type': 'text/plain' })
        res.end('thanks')
      })
    })
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve))
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path)
  }

  close(): Promise<void> {
    this.#server?.closeAllConnections()
    return new Promise((resolve) => this.#server?.close(() => resolve()))
  }
}

/** The verifier's headers from a received request. */
function headersOf(r: Received): Record<string, string> {
  return {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  }
}

/** An email's text with quoted-printable soft breaks and escapes undone (ASCII is enough). */
function decodedEmail(email: string): string {
  return email
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
}

const render: VideoRenderResult = {
  mp4Url: '/api/assets/abcdefghijklmnopqrstuvwxyz234567',
  srtUrl: '/api/assets/bbcdefghijklmnopqrstuvwxyz234567',
  vttUrl: '/api/assets/cbcdefghijklmnopqrstuvwxyz234567',
  durationMs: 12_000,
  inputHash: 'hash',
  preset: '9:16',
  voicesReused: 0,
  voicesTotal: 2,
}

const outcomeInput = z.object({ outcome: z.enum(['succeed', 'fail', 'render']) })
type OutcomeInput = z.infer<typeof outcomeInput>

/** Ends as asked: a small result, a final failure, or a render's result. */
const outcomeKind: JobKind<OutcomeInput, Record<string, unknown>> = {
  name: 'outcome',
  input: outcomeInput,
  result: z.record(z.string(), z.unknown()),
  ledger: { type: 'script_generation', action: 'Outcome' },
  cost: () => 0,
  timeoutMs: () => WAIT_MS,
  stages: () => [{ stage: 'images', weight: 1 }],
  firstProgress: () => ({ stage: 'images', done: 0, total: 1 }),
  async produce({ outcome }) {
    if (outcome === 'fail') throw new AppError('BAD_REQUEST', 'The test asked this job to fail.')
    return outcome === 'render' ? render : { ok: true }
  },
}

describe.each(testDatabaseKinds())('signed webhooks on $name (issue 41 item 3)', (kind) => {
  let t: TestApp
  const receiver = new Receiver()

  beforeAll(async () => {
    await receiver.start()
    const port = new URL(receiver.url).port
    t = await createTestApp(
      kind,
      undefined,
      {
        JOB_WAIT_MS: '0',
        OUTBOUND_ALLOW_HOSTS: `127.0.0.1:${port}, 10.9.9.9`,
        WEBHOOK_RETRY_DELAYS: RETRY_DELAYS_MS.map((ms) => `${ms}ms`).join(','),
        WEBHOOK_DISABLE_AFTER_FAILURES: String(DISABLE_AFTER),
        WEBHOOK_TIMEOUT_MS: '5000',
      },
      (deps) => jobKindMap([...createJobKinds(deps).values(), outcomeKind]),
    )
  })
  afterAll(async () => {
    await t.close()
    await receiver.close()
  })
  beforeEach(() => {
    receiver.statuses.clear()
  })

  /** Runs a job of the outcome kind as `user` in `projectId` and waits for its end. */
  async function runJob(user: TestUser, projectId: number, outcome: OutcomeInput['outcome']) {
    const job = await submitGeneration(t.deps, {
      userId: user.id,
      kind: 'outcome',
      input: { outcome },
      projectId,
      description: `Outcome: ${outcome}`,
    })
    return until(
      () => jobAs(t, user, job.id),
      (j) => j.status === 'succeeded' || j.status === 'failed',
      WAIT_MS,
    )
  }

  async function createWebhook(user: TestUser, body: unknown) {
    return t.request('POST', '/api/webhooks', { cookie: user.cookie, body })
  }

  async function deliveries(user: TestUser, webhookId: string) {
    const res = await t.request('GET', `/api/webhooks/${webhookId}/deliveries`, {
      cookie: user.cookie,
    })
    expect(res.status).toBe(200)
    return res.json()
  }

  it('sends job.succeeded signed: standardwebhooks verifies it with the secret and refuses another', async () => {
    const user = await addUser(t, 'Signed')
    const projectId = await createProjectAs(t, user, 'Signed film')
    const otherProject = await createProjectAs(t, user, 'Other film')
    const created = await createWebhook(user, {
      url: `${receiver.url}/signed`,
      events: ['job.succeeded', 'job.failed'],
      projectId,
    })
    expect(created.status).toBe(201)
    const webhook = await created.json()
    expect(webhook).toMatchObject({
      url: `${receiver.url}/signed`,
      events: ['job.succeeded', 'job.failed'],
      projectId,
      disabledAt: null,
      consecutiveFailures: 0,
    })
    expect(webhook.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/)
    expect(Buffer.from(webhook.secret.slice('whsec_'.length), 'base64')).toHaveLength(32)
    // Listed without its secret.
    const listed = await (await t.request('GET', '/api/webhooks', { cookie: user.cookie })).json()
    expect(listed).toEqual([expect.objectContaining({ id: webhook.id })])
    expect(listed[0]).not.toHaveProperty('secret')
    expect(JSON.stringify(listed)).not.toContain(webhook.secret.slice(6))

    const job = await runJob(user, projectId, 'succeed')
    expect(job.status).toBe('succeeded')
    const [arrived] = await until(
      async () => receiver.at('/signed'),
      (r) => r.length >= 1,
      WAIT_MS,
    )
    const payload = new Webhook(webhook.secret).verify(arrived!.body, headersOf(arrived!))
    expect(payload).toEqual({
      type: 'job.succeeded',
      timestamp: expect.any(String),
      data: {
        jobId: job.id,
        projectId,
        nodeId: null,
        kind: 'outcome',
        status: 'succeeded',
        jobUrl: `${TEST_ORIGIN}/api/jobs/${job.id}`,
      },
    })
    expect(arrived!.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/)
    expect(arrived!.headers['webhook-signature']).toMatch(/^v1,/)
    expect(arrived!.headers['content-type']).toBe('application/json')
    expect(() =>
      new Webhook(newSigningSecret()).verify(arrived!.body, headersOf(arrived!)),
    ).toThrow()
    // A body changed on the way is refused with the right secret too.
    expect(() =>
      new Webhook(webhook.secret).verify(
        arrived!.body.replace('succeeded', 'failed'),
        headersOf(arrived!),
      ),
    ).toThrow()

    const log = await until(
      () => deliveries(user, webhook.id),
      (d) => d[0]?.status === 'succeeded',
      WAIT_MS,
    )
    expect(log).toEqual([
      expect.objectContaining({
        eventType: 'job.succeeded',
        messageId: arrived!.headers['webhook-id'],
        status: 'succeeded',
        attempts: 1,
        responseCode: 200,
        error: null,
        nextAttemptAt: null,
      }),
    ])

    // A failure is job.failed, with its code and words.
    const failed = await runJob(user, projectId, 'fail')
    expect(failed.status).toBe('failed')
    const [, second] = await until(
      async () => receiver.at('/signed'),
      (r) => r.length >= 2,
      WAIT_MS,
    )
    expect(new Webhook(webhook.secret).verify(second!.body, headersOf(second!))).toMatchObject({
      type: 'job.failed',
      data: { jobId: failed.id, status: 'failed', errorCode: 'BAD_REQUEST' },
    })

    // A job of another project is not this endpoint's: no delivery is recorded with its end.
    await runJob(user, otherProject, 'succeed')
    expect(await deliveries(user, webhook.id)).toHaveLength(2)
  })

  it('sends video.rendered with the MP4’s asset URL to an endpoint that asked only for it', async () => {
    const user = await addUser(t, 'Renders')
    const projectId = await createProjectAs(t, user)
    const webhook = await (
      await createWebhook(user, { url: `${receiver.url}/renders`, events: ['video.rendered'] })
    ).json()
    await runJob(user, projectId, 'succeed') // not a render: nothing for this endpoint
    const job = await runJob(user, projectId, 'render')
    const [arrived] = await until(
      async () => receiver.at('/renders'),
      (r) => r.length >= 1,
      WAIT_MS,
    )
    expect(new Webhook(webhook.secret).verify(arrived!.body, headersOf(arrived!))).toMatchObject({
      type: 'video.rendered',
      data: {
        jobId: job.id,
        projectId,
        status: 'succeeded',
        mp4Url: `${TEST_ORIGIN}${render.mp4Url}`,
        vttUrl: `${TEST_ORIGIN}${render.vttUrl}`,
        durationMs: render.durationMs,
      },
    })
    expect(await deliveries(user, webhook.id)).toEqual([
      expect.objectContaining({ eventType: 'video.rendered' }),
    ])
  })

  it('retries a receiver answering 500 with growing gaps, logs each attempt, and redelivers', async () => {
    const user = await addUser(t, 'Flaky')
    const projectId = await createProjectAs(t, user)
    receiver.statuses.set('/flaky', 500)
    const webhook = await (
      await createWebhook(user, { url: `${receiver.url}/flaky`, events: ['job.succeeded'] })
    ).json()
    await runJob(user, projectId, 'succeed')

    const [failed] = await until(
      () => deliveries(user, webhook.id),
      (d) => d[0]?.status === 'failed',
      WAIT_MS,
    )
    expect(failed).toMatchObject({
      status: 'failed',
      attempts: 1 + RETRY_DELAYS_MS.length,
      responseCode: 500,
      error: 'The receiver answered 500.',
      nextAttemptAt: null,
    })
    const tries = receiver.at('/flaky')
    expect(tries).toHaveLength(3)
    // One message, sent three times, each signed anew.
    expect(new Set(tries.map((r) => r.headers['webhook-id']))).toEqual(new Set([failed.messageId]))
    for (const r of tries) new Webhook(webhook.secret).verify(r.body, headersOf(r))
    const gaps = [tries[1]!.at - tries[0]!.at, tries[2]!.at - tries[1]!.at]
    expect(gaps[0]).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[0]! - 20)
    expect(gaps[1]).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[1]! - 20)
    expect(gaps[1]).toBeGreaterThan(gaps[0]!)
    const [counted] = await (
      await t.request('GET', '/api/webhooks', { cookie: user.cookie })
    ).json()
    expect(counted).toMatchObject({ consecutiveFailures: 1, disabledAt: null })

    // The receiver is fixed: a redelivery sends the same message once more, signed anew.
    receiver.statuses.set('/flaky', 204)
    const again = await t.request(
      'POST',
      `/api/webhooks/${webhook.id}/deliveries/${failed.id}/redeliver`,
      { cookie: user.cookie },
    )
    expect(again.status).toBe(200)
    expect(await again.json()).toMatchObject({ id: failed.id, status: 'pending' })
    const [delivered] = await until(
      () => deliveries(user, webhook.id),
      (d) => d[0]?.status === 'succeeded',
      WAIT_MS,
    )
    expect(delivered).toMatchObject({ attempts: 4, responseCode: 204, error: null })
    const last = receiver.at('/flaky')[3]!
    expect(last.headers['webhook-id']).toBe(failed.messageId)
    expect(new Webhook(webhook.secret).verify(last.body, headersOf(last))).toMatchObject({
      type: 'job.succeeded',
    })
    const [reset] = await (await t.request('GET', '/api/webhooks', { cookie: user.cookie })).json()
    expect(reset.consecutiveFailures).toBe(0)
  })

  it('disables an endpoint after its deliveries failed for good N times in a row, and emails its owner', async () => {
    const user = await addUser(t, 'Down')
    const projectId = await createProjectAs(t, user)
    receiver.statuses.set('/down', 503)
    const webhook = await (
      await createWebhook(user, { url: `${receiver.url}/down`, events: ['job.succeeded'] })
    ).json()
    for (let i = 0; i < DISABLE_AFTER; i++) await runJob(user, projectId, 'succeed')

    const [disabled] = await until(
      async () => (await t.request('GET', '/api/webhooks', { cookie: user.cookie })).json(),
      (list) => list[0]?.disabledAt !== null,
      WAIT_MS,
    )
    expect(disabled).toMatchObject({ consecutiveFailures: DISABLE_AFTER })
    expect(receiver.at('/down')).toHaveLength(DISABLE_AFTER * (1 + RETRY_DELAYS_MS.length))
    const emails = await until(
      () => t.emailsTo(user.email),
      (e) => e.length > 0,
      WAIT_MS,
    )
    expect(emails).toHaveLength(1)
    const email = decodedEmail(emails[0]!)
    expect(email).toContain('Subject: Your Reelgraph webhook was turned off')
    expect(email).toContain(`${receiver.url}/down`)
    expect(email).toContain(`its last ${DISABLE_AFTER} deliveries failed`)
    expect(email).toContain('The receiver answered 503.')

    // A disabled endpoint gets no new deliveries.
    await runJob(user, projectId, 'succeed')
    expect(await deliveries(user, webhook.id)).toHaveLength(DISABLE_AFTER)
  })

  it('refuses at creation, in words, a URL that is not https or names or resolves to a private address, unless the operator allowed it', async () => {
    const user = await addUser(t, 'Urls')
    const refusals: [string, RegExp][] = [
      ['https://127.0.0.1/hook', /127\.0\.0\.1 is not a public address.*OUTBOUND_ALLOW_HOSTS/],
      ['https://10.0.0.7/hook', /10\.0\.0\.7 is not a public address \(private\)/],
      ['https://[::1]/hook', /::1 is not a public address/],
      ['https://localhost:1/hook', /localhost leads to an address .* is not a public address/],
      ['http://example.com/hook', /must start with https:\/\//],
      ['ftp://example.com/hook', /must start with https:\/\/, not ftp:/],
      ['https://me:secret@example.com/hook', /cannot carry a user name or password/],
      ['not a url', /full web address/],
    ]
    for (const [url, words] of refusals) {
      const res = await createWebhook(user, { url, events: ['job.succeeded'] })
      expect(res.status, url).toBe(400)
      const body = await res.json()
      expect(body.error.code, url).toBe('VALIDATION_FAILED')
      expect(body.error.fields.url, url).toMatch(words)
    }
    // The operator's OUTBOUND_ALLOW_HOSTS: this receiver's host:port (over http) and 10.9.9.9.
    for (const url of [`${receiver.url}/allowed`, 'https://10.9.9.9/hook']) {
      const res = await createWebhook(user, { url, events: ['job.failed'] })
      expect(res.status, url).toBe(201)
    }
    // Another port of 127.0.0.1 is not the one allowed.
    const otherPort = Number(new URL(receiver.url).port) === 1 ? 2 : 1
    expect(
      (
        await createWebhook(user, {
          url: `http://127.0.0.1:${otherPort}/x`,
          events: ['job.failed'],
        })
      ).status,
    ).toBe(400)
    const bad = await createWebhook(user, { url: `${receiver.url}/x`, events: ['job.started'] })
    expect(bad.status).toBe(400)
    expect((await bad.json()).error.message).toMatch(/Each event must be one of job.succeeded/)
    expect((await createWebhook(user, { url: `${receiver.url}/x`, events: [] })).status).toBe(400)
    // Nothing refused was stored.
    const listed = await (await t.request('GET', '/api/webhooks', { cookie: user.cookie })).json()
    expect(listed.map((w: { url: string }) => w.url).sort()).toEqual(
      [`${receiver.url}/allowed`, 'https://10.9.9.9/hook'].sort(),
    )
  })

  it('answers a stranger 404 for another’s webhook, deliveries and project, and the anonymous 401', async () => {
    const owner = await addUser(t, 'Owner')
    const stranger = await addUser(t, 'Stranger')
    const projectId = await createProjectAs(t, owner)
    const webhook = await (
      await createWebhook(owner, { url: `${receiver.url}/owned`, events: ['job.succeeded'] })
    ).json()
    await runJob(owner, projectId, 'succeed')
    const [delivery] = await until(
      () => deliveries(owner, webhook.id),
      (d) => d[0]?.status === 'succeeded',
      WAIT_MS,
    )

    const asStranger = (method: string, path: string, body?: unknown) =>
      t.request(method, path, { cookie: stranger.cookie, ...(body ? { body } : {}) })
    for (const [method, path] of [
      ['GET', `/api/webhooks/${webhook.id}/deliveries`],
      ['DELETE', `/api/webhooks/${webhook.id}`],
      ['POST', `/api/webhooks/${webhook.id}/deliveries/${delivery.id}/redeliver`],
      ['GET', `/api/webhooks/${crypto.randomUUID()}/deliveries`],
      ['GET', '/api/webhooks/not-an-id/deliveries'],
    ] as const) {
      const res = await asStranger(method, path)
      expect(res.status, `${method} ${path}`).toBe(404)
      expect((await res.json()).error.code).toBe('NOT_FOUND')
    }
    expect(await (await asStranger('GET', '/api/webhooks')).json()).toEqual([])
    const foreign = await asStranger('POST', '/api/webhooks', {
      url: `${receiver.url}/x`,
      events: ['job.succeeded'],
      projectId,
    })
    expect(foreign.status).toBe(404)
    expect((await t.request('GET', '/api/webhooks')).status).toBe(401)
    // The owner still has it all; a redelivery of another webhook's delivery is a 404 too.
    const mine = await (
      await createWebhook(owner, { url: `${receiver.url}/mine`, events: ['job.failed'] })
    ).json()
    const crossed = await t.request(
      'POST',
      `/api/webhooks/${mine.id}/deliveries/${delivery.id}/redeliver`,
      { cookie: owner.cookie },
    )
    expect(crossed.status).toBe(404)
    expect(await deliveries(owner, webhook.id)).toHaveLength(1)

    // Deleted by its owner: gone, with its log.
    const deleted = await t.request('DELETE', `/api/webhooks/${webhook.id}`, {
      cookie: owner.cookie,
    })
    expect(deleted.status).toBe(200)
    const gone = await t.request('GET', `/api/webhooks/${webhook.id}/deliveries`, {
      cookie: owner.cookie,
    })
    expect(gone.status).toBe(404)
  })

  it('takes API tokens: a program manages its webhooks, a project-limited token only its projects’', async () => {
    const owner = await addUser(t, 'Program owner')
    const mine = await createProjectAs(t, owner, 'Heard')
    const other = await createProjectAs(t, owner, 'Not heard')
    const tokenFor = async (body: unknown) => {
      const res = await t.request('POST', '/api/tokens', { cookie: owner.cookie, body })
      expect(res.status).toBe(201)
      return ((await res.json()) as { token: string }).token
    }
    const asToken = (token: string, method: string, path: string, body?: unknown) =>
      t.request(method, path, {
        headers: { authorization: `Bearer ${token}`, origin: '' },
        ...(body ? { body } : {}),
      })
    const account = await (
      await createWebhook(owner, { url: `${receiver.url}/account`, events: ['job.failed'] })
    ).json()

    const reader = await tokenFor({ name: 'Reader', scopes: ['projects:read'] })
    const refused = await asToken(reader, 'POST', '/api/webhooks', {
      url: `${receiver.url}/r`,
      events: ['job.succeeded'],
    })
    expect(refused.status).toBe(403)
    expect((await refused.json()).error.message).toBe('This token lacks the projects:write scope.')
    expect(
      (await (await asToken(reader, 'GET', '/api/webhooks')).json()).map(
        (w: { id: string }) => w.id,
      ),
    ).toEqual([account.id])

    const limited = await tokenFor({
      name: 'Limited',
      scopes: ['projects:read', 'projects:write'],
      projectIds: [mine],
    })
    const wide = await asToken(limited, 'POST', '/api/webhooks', {
      url: `${receiver.url}/wide`,
      events: ['job.succeeded'],
    })
    expect(wide.status).toBe(403)
    expect((await wide.json()).error.message).toMatch(/limited to some projects/)
    const elsewhere = await asToken(limited, 'POST', '/api/webhooks', {
      url: `${receiver.url}/elsewhere`,
      events: ['job.succeeded'],
      projectId: other,
    })
    expect(elsewhere.status).toBe(404)
    const made = await asToken(limited, 'POST', '/api/webhooks', {
      url: `${receiver.url}/mine`,
      events: ['job.succeeded'],
      projectId: mine,
    })
    expect(made.status).toBe(201)
    const hook = await made.json()
    // It sees and deletes only its project's endpoint; the account-wide one is a stranger's.
    expect(
      (await (await asToken(limited, 'GET', '/api/webhooks')).json()).map(
        (w: { id: string }) => w.id,
      ),
    ).toEqual([hook.id])
    expect((await asToken(limited, 'DELETE', `/api/webhooks/${account.id}`)).status).toBe(404)
    expect((await asToken(limited, 'GET', `/api/webhooks/${account.id}/deliveries`)).status).toBe(
      404,
    )
    expect((await asToken(limited, 'DELETE', `/api/webhooks/${hook.id}`)).status).toBe(200)
    const left = await t.request('GET', '/api/webhooks', { cookie: owner.cookie })
    expect((await left.json()).map((w: { id: string }) => w.id)).toEqual([account.id])
  })
})
