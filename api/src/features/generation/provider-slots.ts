import type { DB } from '@reelgraph/db'
import { type Kysely, sql } from 'kysely'

/**
 * A video provider's concurrency, kept by every worker process together (issue 22 item 2):
 * a running clip job holds one of its provider's slots (`generation_jobs.provider_slot`) while
 * it talks to the provider. Taking a slot counts the holders under a transaction-scoped
 * advisory lock of the provider, so two workers cannot both take the last one; a job that
 * ends (or whose worker died: its status moves on) holds none.
 */

/** How often a job waiting for a slot looks again, in ms. */
export const PROVIDER_SLOT_POLL_MS = 1_000

/**
 * Takes a slot of `provider` (at most `limit` held at once) for job `jobId`, waiting until
 * one is free.
 * @throws the signal's reason when it aborts while waiting.
 */
export async function acquireProviderSlot(
  db: Kysely<DB>,
  {
    jobId,
    provider,
    limit,
    signal,
  }: { jobId: string; provider: string; limit: number; signal: AbortSignal },
): Promise<void> {
  for (;;) {
    signal.throwIfAborted()
    const taken = await db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext(${`reelgraph-provider-slot:${provider}`}))`.execute(
        trx,
      )
      const { held } = await trx
        .selectFrom('generation_jobs')
        .select((eb) => eb.fn.countAll<number>().as('held'))
        .where('provider_slot', '=', provider)
        .where('status', '=', 'running')
        .where('id', '<>', jobId)
        .executeTakeFirstOrThrow()
      if (Number(held) >= Math.max(1, limit)) return false
      await trx
        .updateTable('generation_jobs')
        .set({ provider_slot: provider })
        .where('id', '=', jobId)
        .execute()
      return true
    })
    if (taken) return
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(done, PROVIDER_SLOT_POLL_MS)
      signal.addEventListener('abort', onAbort, { once: true })
      function done() {
        signal.removeEventListener('abort', onAbort)
        resolve()
      }
      function onAbort() {
        clearTimeout(timer)
        reject(signal.reason)
      }
    })
  }
}

/** Gives job `jobId`'s provider slot back. Never throws: a slot of an ended job is free anyway. */
export async function releaseProviderSlot(db: Kysely<DB>, jobId: string): Promise<void> {
  await db
    .updateTable('generation_jobs')
    .set({ provider_slot: null })
    .where('id', '=', jobId)
    .execute()
    .catch(() => undefined)
}
