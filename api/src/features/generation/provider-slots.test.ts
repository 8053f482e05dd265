import { randomUUID } from 'node:crypto'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser } from '../../testing/members.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import {
  acquireProviderSlot,
  PROVIDER_SLOT_POLL_MS,
  releaseProviderSlot,
} from './provider-slots.ts'

// A video provider's concurrency holds over every worker process (issue 22 item 2): the slots
// are counted in the database, under the provider's advisory lock.

describe.each(testDatabaseKinds())('provider slots on $name', (kind) => {
  let t: TestApp
  let userId: number
  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { JOB_WORKERS: 'false' })
    userId = (await addUser(t, 'Slots')).id
  })
  afterAll(() => t.close())

  /** A running clip job row (as the runner leaves it while the kind works). */
  async function runningJob(): Promise<string> {
    const id = randomUUID()
    await t.deps.db
      .insertInto('generation_jobs')
      .values({ id, user_id: userId, kind: 'clip', status: 'running', cost: 0, input: '{}' })
      .execute()
    return id
  }

  it('lets `limit` jobs hold a provider at once; the next waits until one gives its slot back', async () => {
    const signal = new AbortController().signal
    const [a, b, c] = [await runningJob(), await runningJob(), await runningJob()]
    await acquireProviderSlot(t.deps.db, { jobId: a, provider: 'fal', limit: 2, signal })
    await acquireProviderSlot(t.deps.db, { jobId: b, provider: 'fal', limit: 2, signal })
    // Another provider's slots are its own.
    const other = await runningJob()
    await acquireProviderSlot(t.deps.db, { jobId: other, provider: 'replicate', limit: 1, signal })

    let third = false
    const waiting = acquireProviderSlot(t.deps.db, {
      jobId: c,
      provider: 'fal',
      limit: 2,
      signal,
    }).then(() => {
      third = true
    })
    await new Promise((resolve) => setTimeout(resolve, PROVIDER_SLOT_POLL_MS * 2))
    expect(third).toBe(false)
    await releaseProviderSlot(t.deps.db, a)
    await waiting
    expect(third).toBe(true)

    // A job that ended holds no slot, whatever its row says.
    await t.deps.db
      .updateTable('generation_jobs')
      .set({ status: 'failed' })
      .where('id', '=', b)
      .execute()
    const d = await runningJob()
    await acquireProviderSlot(t.deps.db, { jobId: d, provider: 'fal', limit: 2, signal })
  })

  it('stops waiting when the job is cancelled', async () => {
    const holder = await runningJob()
    const signal = new AbortController().signal
    await acquireProviderSlot(t.deps.db, { jobId: holder, provider: 'gemini', limit: 1, signal })
    const cancel = new AbortController()
    const waiting = acquireProviderSlot(t.deps.db, {
      jobId: await runningJob(),
      provider: 'gemini',
      limit: 1,
      signal: cancel.signal,
    })
    cancel.abort(new Error('cancelled'))
    await expect(waiting).rejects.toThrow('cancelled')
  })
})
