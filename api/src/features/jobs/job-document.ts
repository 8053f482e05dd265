import * as Y from 'yjs'
import {
  getNodesMap,
  updateNodeData,
  VIDEO_DATA_KEYS,
  type GenerateImageOutput,
  type GenerateImageRequest,
  type GenerateScenesOutput,
  type GenerateScriptOutput,
  type GraphAddition,
  imageResult,
  type PlacementSource,
  resultNodeIds,
  scenesResult,
  scriptResult,
  writeJobResult,
  writeJobState,
} from '@reelgraph/shared'
import type { AppDeps } from '../../app-env.ts'
import type { VideoJobResult } from '../video/video-job.ts'
import { type JobRow, nodeStateOf } from './job-store.ts'

/**
 * A job's writes into its project's document (issue 12), through the sync server's gateway:
 * its state on the generator node, and its result beside it (spec §4 placement, in free space).
 */

type Deps = Pick<AppDeps, 'db' | 'documents' | 'logger'>

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
 * Shows the job's current state on its generator node. Never throws: the row is the record,
 * the node only shows it; a failure is logged.
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

/** The result nodes of a succeeded job, built from its source node's current position. */
function resultBuilder(row: JobRow): (source: PlacementSource) => GraphAddition {
  const at = row.created_at.getTime()
  switch (row.kind) {
    case 'script': {
      const { script } = row.result as GenerateScriptOutput
      const ids = resultNodeIds(row.id, at, 'editable-text', 1)
      return (source) => scriptResult(source, script, at, ids)
    }
    case 'scenes': {
      const { scenes } = row.result as GenerateScenesOutput
      const ids = resultNodeIds(row.id, at, 'scene', scenes.length)
      return (source) => scenesResult(source, scenes, at, ids)
    }
    case 'image': {
      const input = row.input as GenerateImageRequest
      const answer = row.result as GenerateImageOutput
      const ids = resultNodeIds(row.id, at, 'image', 1)
      return (source) => imageResult(source, input, answer, at, ids)
    }
    case 'video':
      throw new Error('A video job writes onto its own node (writeVideoResult)')
  }
}

/**
 * Writes a render's result onto its Video node ({@link VIDEO_DATA_KEYS}) with the final job
 * state, in one transaction. Writing it twice writes the same values.
 */
function writeVideoResult(doc: Y.Doc, row: JobRow, nodeId: string, origin: unknown): boolean {
  const result = row.result as VideoJobResult
  const ynode = getNodesMap(doc).get(nodeId)
  if (!(ynode instanceof Y.Map)) return false
  doc.transact(() => {
    writeJobState(doc, nodeId, nodeStateOf(row), origin)
    updateNodeData(
      doc,
      nodeId,
      {
        [VIDEO_DATA_KEYS.mp4Url]: result.mp4Url,
        [VIDEO_DATA_KEYS.srtUrl]: result.srtUrl,
        [VIDEO_DATA_KEYS.vttUrl]: result.vttUrl,
        [VIDEO_DATA_KEYS.durationMs]: result.durationMs,
        [VIDEO_DATA_KEYS.inputHash]: result.inputHash,
      },
      origin,
    )
  }, origin)
  return true
}

/**
 * Writes a succeeded job's result and final state into its document, once: the result node
 * ids come from the job id, so a second write (a retry after a worker died) adds nothing.
 * Nothing is written when the project or the node is gone.
 * @throws Error when the document cannot be opened or stored (the job is retried).
 */
export async function writeResult(deps: Deps, row: JobRow): Promise<void> {
  const where = target(row)
  if (where && (await projectExists(deps, where.projectId))) {
    const outcome = await deps.documents.transact(where.projectId, (doc, origin) =>
      row.kind === 'video'
        ? writeVideoResult(doc, row, where.nodeId, origin)
          ? 'written'
          : 'source-missing'
        : writeJobResult(doc, where.nodeId, resultBuilder(row), nodeStateOf(row), origin),
    )
    if (outcome === 'source-missing') {
      deps.logger.info({ jobId: row.id }, 'the job node was deleted; its result is not placed')
    } else if (outcome === 'no-room') {
      deps.logger.info({ jobId: row.id }, 'the project is at its node limit; result not placed')
    }
  }
  await deps.db
    .updateTable('generation_jobs')
    .set({ result_written: true })
    .where('id', '=', row.id)
    .execute()
}
