import type { DB } from '@reelgraph/db'
import { type Kysely, sql } from 'kysely'
import type { Logger } from 'pino'
import { ASSET_GC_BATCH } from '../../config.ts'
import type { Env } from '../../env.ts'
import type { ScheduledTask } from '../jobs/scheduled-task.ts'
import { ASSET_REFERENCE_SOURCES, type AssetReferenceSource } from './asset-references.ts'
import type { AssetStorage } from './asset-storage.ts'

/**
 * The asset collector (issue 40 item 5, decision 026): a mark and a sweep. Mark: every
 * reference source (`asset-references.ts`) names the assets it holds, and those are stamped
 * `last_referenced_at` = the sweep's start. Sweep: assets whose last reference (or, never
 * referenced, their creation) is older than the grace period are deleted, row then bytes. An
 * asset a running job stored a moment ago, not yet in the document, is inside its grace period
 * from its creation; media of a version the history keeps stays named by that version's
 * source; a project whose document cannot be read keeps all its assets.
 */

/** What one collection did. */
export interface AssetCollection {
  /** Asset rows stamped as referenced. */
  marked: number
  /** Assets deleted (rows and bytes). */
  deleted: number
  freedBytes: number
  /** Projects a source could not read (their assets were kept). */
  unreadableProjects: number[]
  /** True when no asset was old enough to collect, so no source was read. */
  nothingDue: boolean
}

/** What the collector uses. */
export interface AssetCollectorDeps {
  db: Kysely<DB>
  storage: AssetStorage
  logger: Pick<Logger, 'info' | 'warn'>
}

/** `ids` in pieces of at most `size`. */
function* chunks<T>(ids: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < ids.length; i += size) yield ids.slice(i, i + size)
}

/** When an asset was last seen referenced, or made. */
const lastSeen = sql<Date>`coalesce(last_referenced_at, created_at)`

/**
 * Deletes the assets nothing has referenced for `graceHours` (rows, then bytes; a missing file
 * is fine), after marking what `sources` reference now.
 * @param options.sources default {@link ASSET_REFERENCE_SOURCES}
 * @throws Error when a source cannot be read at all: then nothing is deleted.
 * @see issue 40 item 5
 */
export async function collectUnusedAssets(
  deps: AssetCollectorDeps,
  options: { graceHours: number; sources?: readonly AssetReferenceSource[] },
): Promise<AssetCollection> {
  const { db, storage, logger } = deps
  const sources = options.sources ?? ASSET_REFERENCE_SOURCES
  // The database's clock, the one `created_at` was written with.
  const { now } = await sql<{ now: Date }>`select now() as now`.execute(db).then((r) => r.rows[0]!)
  const startedAt = new Date(now)
  const cutoff = new Date(startedAt.getTime() - options.graceHours * 3_600_000)
  const summary: AssetCollection = {
    marked: 0,
    deleted: 0,
    freedBytes: 0,
    unreadableProjects: [],
    nothingDue: false,
  }
  const due = await db
    .selectFrom('assets')
    .select('id')
    .where(lastSeen, '<', cutoff)
    .limit(1)
    .executeTakeFirst()
  if (!due) return { ...summary, nothingDue: true }

  // Mark: every source, in full, before anything is deleted (one project may name another's).
  for (const source of sources) {
    for await (const found of source.references(db)) {
      if ('unreadableProjectId' in found) {
        summary.unreadableProjects.push(found.unreadableProjectId)
        logger.warn(
          { err: found.error, projectId: found.unreadableProjectId, source: source.name },
          'asset collection: a project could not be read; its assets are kept',
        )
        continue
      }
      for (const ids of chunks(found.assetIds, ASSET_GC_BATCH)) {
        const marked = await db
          .updateTable('assets')
          .set({ last_referenced_at: startedAt })
          .where('id', 'in', ids)
          .executeTakeFirst()
        summary.marked += Number(marked.numUpdatedRows)
      }
    }
  }

  // Sweep: a batch of rows at a time, then their bytes.
  for (;;) {
    let candidates = db
      .selectFrom('assets')
      .select('id')
      .where(lastSeen, '<', cutoff)
      .limit(ASSET_GC_BATCH)
    if (summary.unreadableProjects.length > 0) {
      candidates = candidates.where('project_id', 'not in', summary.unreadableProjects)
    }
    const rows = await db
      .deleteFrom('assets')
      .where('id', 'in', candidates)
      // Checked again in the delete: a mark that raced this sweep keeps its asset.
      .where(lastSeen, '<', cutoff)
      .returning(['storage_key', 'byte_size'])
      .execute()
    if (rows.length === 0) break
    for (const row of rows) {
      summary.deleted += 1
      summary.freedBytes += row.byte_size
      await storage.delete(row.storage_key).catch((err: unknown) => {
        logger.warn({ err, key: row.storage_key }, 'asset collection: bytes not removed')
      })
    }
  }
  logger.info(
    { ...summary, unreadableProjects: summary.unreadableProjects.length },
    'asset collection done',
  )
  return summary
}

/** The name of the collector's scheduled task (its pg-boss queue). */
export const ASSET_COLLECTION_TASK = 'asset-collection'

/**
 * The collector as a scheduled task of the job system (worker processes): on
 * `ASSET_GC_CRON`, with `ASSET_GC_GRACE_HOURS`; one run at a time over every worker.
 */
export function assetCollectionTask(
  deps: AssetCollectorDeps & { env: Pick<Env, 'ASSET_GC_CRON' | 'ASSET_GC_GRACE_HOURS'> },
): ScheduledTask {
  return {
    name: ASSET_COLLECTION_TASK,
    cron: deps.env.ASSET_GC_CRON,
    run: async () => {
      await collectUnusedAssets(deps, { graceHours: deps.env.ASSET_GC_GRACE_HOURS })
    },
  }
}
