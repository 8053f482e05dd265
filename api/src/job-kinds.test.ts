import { testDatabaseKinds } from '@reelgraph/db/testing'
import {
  createGraphNode,
  docToGraph,
  JOB_DATA_KEYS,
  type JobProgress,
  resultNodeIds,
  scriptResult,
  writeJobResult,
} from '@reelgraph/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { type JobKind, jobKindMap } from './features/jobs/job-kind.ts'
import { submitGeneration } from './features/jobs/job-service.ts'
import { createJobKinds } from './job-kinds.ts'
import { balance, jobAs } from './testing/jobs.ts'
import { addUser, type TestUser } from './testing/members.ts'
import { createTestApp, type TestApp } from './testing/test-app.ts'
import { until } from './testing/until.ts'

/**
 * The job system is closed to kinds (issue 21 item 1): a kind that exists only in this file,
 * registered in this test's own map, goes through submit, progress, result, cancel and refund
 * with nothing of it in the jobs folder.
 */

const ECHO_COST = 3
const JOB_MS = 20_000

/** A gate the test opens: the echo kind waits at each of its steps. */
class Gates {
  #open = 0
  #waiters: (() => void)[] = []
  step(): Promise<void> {
    if (this.#open > 0) {
      this.#open -= 1
      return Promise.resolve()
    }
    return new Promise((resolve) => this.#waiters.push(resolve))
  }
  open(): void {
    const waiter = this.#waiters.shift()
    if (waiter) waiter()
    else this.#open += 1
  }
}

/** This test's gates: each test makes new ones, so a cancelled job's waiter stays behind. */
let gates = new Gates()

const echoInput = z.object({
  text: z.string().min(1),
  projectId: z.number().int(),
  nodeId: z.string(),
})
type EchoInput = z.infer<typeof echoInput>
const echoResult = z.object({ echo: z.string() })
type EchoResult = z.infer<typeof echoResult>

/** Answers its text reversed, in three steps, reporting each; places it as a text node. */
const echoKind = (documents: TestApp['deps']['documents']): JobKind<EchoInput, EchoResult> => ({
  name: 'echo',
  input: echoInput,
  result: echoResult,
  ledger: { type: 'script_generation', action: 'Echo' },
  cost: () => ECHO_COST,
  timeoutMs: () => JOB_MS,
  stages: () => [{ stage: 'images', weight: 1 }],
  firstProgress: () => ({ stage: 'images', done: 0, total: 3 }),
  async produce(input, { signal, progress }) {
    for (let done = 1; done <= 3; done++) {
      await Promise.race([
        gates.step(),
        new Promise((_, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
        ),
      ])
      progress({ stage: 'images', done, total: 3 } satisfies JobProgress)
    }
    return { echo: [...input.text].reverse().join('') }
  },
  write({ echo }, { job, state }) {
    const at = job.createdAt.getTime()
    const ids = resultNodeIds(job.id, at, 'editable-text', 1)
    return documents.transact(job.projectId, (doc, origin) =>
      writeJobResult(
        doc,
        job.nodeId,
        (source) => scriptResult(source, echo, at, ids),
        state,
        origin,
      ),
    )
  },
})

describe.each(testDatabaseKinds())('a job kind defined only in a test, on $name', (kind) => {
  let t: TestApp
  let user: TestUser
  let projectId: number
  const node = createGraphNode('script-generator', { x: 0, y: 0 })

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { JOB_WAIT_MS: '0' }, (deps) =>
      jobKindMap([...createJobKinds(deps).values(), echoKind(deps.documents)]),
    )
    user = await addUser(t, 'Echo', { credits: 10 })
    const res = await t.request('POST', '/api/projects', {
      body: { name: 'Echoes', nodes: [node], connections: [] },
      cookie: user.cookie,
    })
    projectId = (await res.json()).id
  })
  afterAll(() => t.close())

  const submit = (text: string) =>
    submitGeneration(t.deps, {
      userId: user.id,
      kind: 'echo',
      input: { text, projectId, nodeId: node.id },
      projectId,
      nodeId: node.id,
      description: `Echo: ${text}`,
    })

  it('runs through submit, typed progress, its result and its write, charged its cost once', async () => {
    gates = new Gates()
    const queued = await submit('stressed')
    expect(queued).toMatchObject({ kind: 'echo', cost: ECHO_COST })
    expect(await balance(t, user.id)).toBe(10 - ECHO_COST)

    // Each step's progress reaches the job and its node as a percent and words.
    gates.open()
    const running = await until(
      () => jobAs(t, user, queued.id),
      (j) => j.status === 'running' && j.progress !== null && j.progress >= 33,
      JOB_MS,
    )
    expect(running).toMatchObject({ progress: 33, stage: 'Images 2/3' })
    const onNode = await t.deps.documents.transact(projectId, (doc) =>
      docToGraph(doc).nodes.find((n) => n.id === node.id),
    )
    expect(onNode?.data[JOB_DATA_KEYS.progress]).toBe(33)

    gates.open()
    gates.open()
    const done = await until(
      () => jobAs(t, user, queued.id),
      (j) => j.status === 'succeeded',
      JOB_MS,
    )
    expect(done.result).toEqual({ echo: 'desserts' })
    const graph = await until(
      () => t.deps.documents.transact(projectId, (doc) => docToGraph(doc)),
      (g) => g.nodes.some((n) => n.data.content === 'desserts'),
      JOB_MS,
    )
    expect(graph.connections).toContainEqual({
      source: node.id,
      target: graph.nodes.find((n) => n.data.content === 'desserts')!.id,
    })
    expect(await balance(t, user.id)).toBe(10 - ECHO_COST)
  })

  it('is cancelled while it runs and refunded whole, and writes nothing', async () => {
    gates = new Gates()
    const before = await balance(t, user.id)
    const queued = await submit('drawer')
    expect(await balance(t, user.id)).toBe(before - ECHO_COST)
    gates.open()
    await until(
      () => jobAs(t, user, queued.id),
      (j) => j.status === 'running' && j.progress !== null && j.progress > 0,
      JOB_MS,
    )
    const cancelled = await t.request('POST', `/api/jobs/${queued.id}/cancel`, {
      cookie: user.cookie,
    })
    expect(await cancelled.json()).toMatchObject({
      status: 'cancelled',
      refunded: ECHO_COST,
      message: `Cancelled. Your ${ECHO_COST} credits were refunded.`,
    })
    expect(await balance(t, user.id)).toBe(before)
    const ledger = await t.deps.db
      .selectFrom('credit_transactions')
      .select(['description', 'amount'])
      .where('user_id', '=', user.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
    expect(ledger).toEqual({ description: 'Echo cancelled', amount: ECHO_COST })
    const graph = await t.deps.documents.transact(projectId, (doc) => docToGraph(doc))
    expect(graph.nodes.some((n) => n.data.content === 'reward')).toBe(false)
  })
})
