import { writeJobState } from '@reelgraph/shared'
import type { JobsContext } from './job-deps.ts'
import { kindOf } from './job-kind.ts'
import { recordOutcome } from './job-outcomes.ts'
import { jobInfoOf, type JobRow, nodeStateOf } from './job-store.ts'

/**
 * A job's writes into its project's document (issue 12), through the sync server's gateway:
 * its state on the node that started it, and its result, which its kind writes (issue 21).
 */

type Deps = Pick<JobsContext, 'db' | 'documents' | 'logger'>

/** True when the job has a place in a document: a project and a node. */
function target(row: JobRow): { projectId: number; nodeId: string } | null {
  return row.project_id !== null && row.node_id !== null
    ? { projectId: row.project_id, nodeId: row.node_id }
    : null
}

async function projectExists(deps: Deps, projectId: number): Promise<boolean> {
  const row = await deps.db
    .selectFrom('projects')
    .select('id')
    .where('id', '=', projectId)
    .executeTakeFirst()
  return row !== undefined
}

/**
 * Shows the job's current state on its node. Never throws: the row is the record, the node
 * only shows it; a failure is logged.
 */
export async function showJobState(deps: Deps, row: JobRow): Promise<void> {
  const where = target(row)
  if (!where) return
  try {
    if (!(await projectExists(deps, where.projectId))) return
    await deps.documents.transact(where.projectId, (doc, origin) =>
      writeJobState(doc, where.nodeId, nodeStateOf(row), origin),
    )
  } catch (err) {
    deps.logger.warn({ err, jobId: row.id }, 'the job state could not be shown on its node')
  }
}

/**
 * Writes a succeeded job's result and final state into its document through its kind, once:
 * a kind writes the same values twice (result node ids come from the job id), so a second
 * write (a retry after a worker died) adds nothing. Marking it written tells the outcome
 * listener's `written` in the same transaction (issue 42 item 4), once. Nothing is written when the project is
 * gone; a kind without `write` only shows the final state.
 * @throws Error when the document cannot be opened or stored (the job is retried).
 */
export async function writeResult(
  deps: Pick<JobsContext, 'db' | 'documents' | 'logger' | 'kinds' | 'queue' | 'outcomes'>,
  row: JobRow,
): Promise<void> {
  const where = target(row)
  if (where && (await projectExists(deps, where.projectId))) {
    const kind = kindOf(deps.kinds, row.kind)
    const state = nodeStateOf(row)
    if (kind.write) {
      const outcome = await kind.write(kind.result.parse(row.result), {
        job: { ...jobInfoOf(row), ...where },
        input: kind.input.parse(row.input),
        state,
      })
      if (outcome === 'source-missing') {
        deps.logger.info({ jobId: row.id }, 'the job node was deleted; its result is not placed')
      } else if (outcome === 'no-room') {
        deps.logger.info({ jobId: row.id }, 'the project is at its node limit; result not placed')
      }
    } else {
      await deps.documents.transact(where.projectId, (doc, origin) =>
        writeJobState(doc, where.nodeId, state, origin),
      )
    }
  }
  // Recorded with what follows it (issue 42 item 4: a run's jobs waiting for this result).
  await deps.db.transaction().execute(async (trx) => {
    const written = await trx
      .updateTable('generation_jobs')
      .set({ result_written: true })
      .where('id', '=', row.id)
      .where('result_written', '=', false)
      .returningAll()
      .executeTakeFirst()
    if (written) await recordOutcome(deps, trx, written, 'written')
  })
}
