import type { DB } from '@reelgraph/db'
import {
  addVideoTake,
  type DocumentGateway,
  getNodesMap,
  type JobNodeState,
  readNodeData,
  updateNodeData,
  type VideoRenderResult,
  videoResultData,
  type VideoTake,
  writeJobState,
} from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import * as Y from 'yjs'
import type { AssetStorage } from '../assets/asset-storage.ts'
import type { WriteOutcome } from '../jobs/job-kind.ts'

/**
 * Where a render's result goes (issue 13 items 4 and 5): onto its Video node, in front of the
 * node's takes, and what happens to the files nothing points at any more.
 */

/** What writing and discarding renders use. */
export interface VideoResultDeps {
  db: Kysely<DB>
  assets: AssetStorage
  documents: DocumentGateway
  logger: { warn(object: object, message: string): void }
}

/**
 * Writes `result` onto Video node `videoId` (shared `videoResultData`), the render added in
 * front of the node's takes (the last `MAX_VIDEO_TAKES`), and `state` onto `stateNodeId` (the
 * Video node for a render, the Script Generator for Make video), in one transaction; then
 * removes the files of the takes that fell off. Writing it twice writes the same values.
 * @returns `source-missing` when the Video node is gone (only the state is written).
 */
export async function writeVideoResult(
  deps: VideoResultDeps,
  where: { projectId: number; videoId: string; stateNodeId: string },
  result: VideoRenderResult,
  state: JobNodeState,
): Promise<WriteOutcome> {
  let dropped: VideoTake[] = []
  const outcome = await deps.documents.transact(where.projectId, (doc, origin) => {
    const ynode = getNodesMap(doc).get(where.videoId)
    if (!(ynode instanceof Y.Map)) {
      // The Video node is gone; the node that asked still shows how it ended.
      writeJobState(doc, where.stateNodeId, state, origin)
      return 'source-missing' as const
    }
    const data = ynode.get('data')
    const { videoTakes: takes } = readNodeData('video', data instanceof Y.Map ? data.toJSON() : {})
    const added = addVideoTake(takes, {
      mp4Url: result.mp4Url,
      srtUrl: result.srtUrl,
      vttUrl: result.vttUrl,
      durationMs: result.durationMs,
      inputHash: result.inputHash,
      renderedAt: state.updatedAt.toISOString(),
      preset: result.preset,
      voicesReused: result.voicesReused,
      voicesTotal: result.voicesTotal,
    })
    dropped = added.dropped
    doc.transact(() => {
      writeJobState(doc, where.stateNodeId, state, origin)
      updateNodeData(doc, where.videoId, videoResultData(added.kept), origin)
    }, origin)
    return 'written' as const
  })
  if (dropped.length > 0) await discardVideoFiles(deps, dropped)
  return outcome
}

/**
 * Removes the stored files of renders nothing points at any more: a render whose job was
 * cancelled while they were being stored (the cancel won), or takes that fell off a Video
 * node's takes (shared's `MAX_VIDEO_TAKES`). Never throws: a file left behind is logged.
 */
export async function discardVideoFiles(
  deps: Pick<VideoResultDeps, 'db' | 'assets' | 'logger'>,
  renders: readonly Pick<VideoRenderResult, 'mp4Url' | 'srtUrl' | 'vttUrl'>[],
): Promise<void> {
  const ids = renders.flatMap((r) =>
    [r.mp4Url, r.srtUrl, r.vttUrl].map((url) => url.split('/').pop()!),
  )
  if (ids.length === 0) return
  try {
    const rows = await deps.db
      .deleteFrom('assets')
      .where('id', 'in', ids)
      .returning('storage_key')
      .execute()
    for (const row of rows) await deps.assets.delete(row.storage_key)
  } catch (err) {
    deps.logger.warn({ err }, 'the files of a discarded render were not removed')
  }
}
