import * as Y from 'yjs'
import {
  addVideoTake,
  getNodesMap,
  readNodeData,
  type VideoTake,
  updateNodeData,
  videoResultData,
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
import type { MakeVideoJobResult } from '../video/make-video-job.ts'
import { discardVideoFiles, type VideoJobResult } from '../video/video-job.ts'
import { type JobRow, nodeStateOf } from './job-store.ts'

/**
 * A job's writes into its project's document (issue 12), through the sync server's gateway:
 * its state on the generator node, and its result beside it (spec §4 placement, in free space).
 */

type Deps = Pick<AppDeps, 'db' | 'documents' | 'logger'>
/** Writing a result may remove the files of renders it replaces. */
type ResultDeps = Deps & Pick<AppDeps, 'assets'>

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
    case 'make-video':
      throw new Error('A render writes onto its Video node (writeVideoResult)')
  }
}

/**
 * Writes a render's result onto Video node `videoId` (shared `videoResultData`), the render
 * added in front of the node's takes (the last `MAX_VIDEO_TAKES`), and the final job
 * state onto `stateNodeId` (the Video node for a render, the Script Generator for "Make
 * video"), in one transaction. Writing it twice writes the same values.
 * @returns the takes that fell off the end (their files can go), or null when the Video
 *   node is gone (nothing is written).
 */
function writeVideoResult(
  doc: Y.Doc,
  row: JobRow,
  videoId: string,
  stateNodeId: string,
  origin: unknown,
): VideoTake[] | null {
  const result = row.result as VideoJobResult
  const ynode = getNodesMap(doc).get(videoId)
  if (!(ynode instanceof Y.Map)) return null
  const data = ynode.get('data')
  const { videoTakes: takes } = readNodeData('video', data instanceof Y.Map ? data.toJSON() : {})
  const { kept, dropped } = addVideoTake(takes, {
    mp4Url: result.mp4Url,
    srtUrl: result.srtUrl,
    vttUrl: result.vttUrl,
    durationMs: result.durationMs,
    inputHash: result.inputHash,
    renderedAt: row.updated_at.toISOString(),
    preset: result.preset,
  })
  doc.transact(() => {
    writeJobState(doc, stateNodeId, nodeStateOf(row), origin)
    updateNodeData(doc, videoId, videoResultData(kept), origin)
  }, origin)
  return dropped
}

/**
 * Writes a succeeded job's result and final state into its document, once: the result node
 * ids come from the job id, so a second write (a retry after a worker died) adds nothing.
 * Nothing is written when the project or the node is gone.
 * @throws Error when the document cannot be opened or stored (the job is retried).
 */
export async function writeResult(deps: ResultDeps, row: JobRow): Promise<void> {
  const where = target(row)
  if (where && (await projectExists(deps, where.projectId))) {
    let dropped: VideoTake[] = []
    const outcome = await deps.documents.transact(where.projectId, (doc, origin) => {
      if (row.kind !== 'video' && row.kind !== 'make-video') {
        return writeJobResult(doc, where.nodeId, resultBuilder(row), nodeStateOf(row), origin)
      }
      const videoId =
        row.kind === 'video' ? where.nodeId : (row.result as MakeVideoJobResult).videoNodeId
      const written = writeVideoResult(doc, row, videoId, where.nodeId, origin)
      if (!written) {
        // The Video node is gone; the chain's generator still shows how it ended.
        writeJobState(doc, where.nodeId, nodeStateOf(row), origin)
        return 'source-missing'
      }
      dropped = written
      return 'written'
    })
    if (dropped.length > 0) await discardVideoFiles(deps, dropped)
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
