import { safeFileName, videoRenderResult } from '@reelgraph/shared'
import type { AppDeps } from '../../app-env.ts'
import { AppError } from '../../lib/app-error.ts'
import { type ZipEntry, zipStream } from '../video/export/zip-stream.ts'
import { batchNotFound } from './batch-service.ts'

/**
 * The files of a batch (issue 42 item 3): one ZIP of every succeeded row's MP4 and SRT, named
 * from the rows' project names, made as it is read.
 */

const ASSET_URL = /^\/api\/assets\/([a-z2-7]{32})$/

/**
 * The ZIP of batch `batchId`'s succeeded rows (the batch's owner only): for each, its render's
 * MP4 and SRT (the job's result), named `<project name>.mp4` / `.srt` with shared's
 * `safeFileName` (a repeated name gets ` (2)`), streamed from storage as the archive is read
 * (`zip-stream.ts`, fflate; media stored, text deflated). A file of a project the row no longer
 * has (deleted) is left out.
 * @returns the archive as a stream and its download name (`<template name> batch <id>.zip`)
 * @throws AppError 404 when the batch is not the user's; 409 NOT_RENDERED when no row has
 *   succeeded yet.
 * @see issue 42 item 3
 */
export async function batchFiles(
  deps: Pick<AppDeps, 'db' | 'assets'>,
  { userId, batchId }: { userId: number; batchId: number },
): Promise<{ zip: ReadableStream<Uint8Array>; fileName: string }> {
  const batch = await deps.db
    .selectFrom('batches')
    .select(['id', 'template_name'])
    .where('id', '=', batchId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (!batch) throw batchNotFound()
  const rows = await deps.db
    .selectFrom('batch_rows as r')
    .innerJoin('generation_jobs as j', 'j.id', 'r.job_id')
    .select(['r.row_number', 'r.project_id', 'r.project_name', 'j.result'])
    .where('r.batch_id', '=', batchId)
    .where('r.status', '=', 'succeeded')
    .where('r.project_id', 'is not', null)
    .orderBy('r.row_number')
    .execute()
  const wanted: { projectId: number; base: string; mp4: string; srt: string }[] = []
  for (const row of rows) {
    const render = videoRenderResult.safeParse(row.result)
    const mp4 = render.success && ASSET_URL.exec(render.data.mp4Url)?.[1]
    const srt = render.success && ASSET_URL.exec(render.data.srtUrl)?.[1]
    if (!mp4 || !srt) continue
    wanted.push({
      projectId: row.project_id!,
      base: safeFileName(row.project_name ?? '', `row ${row.row_number}`),
      mp4,
      srt,
    })
  }
  if (wanted.length === 0) {
    throw new AppError('NOT_RENDERED', 'No row of this batch has made its video yet.')
  }
  const assets = await deps.db
    .selectFrom('assets')
    .select(['id', 'project_id', 'storage_key'])
    .where(
      'id',
      'in',
      wanted.flatMap((w) => [w.mp4, w.srt]),
    )
    .execute()
  const byId = new Map(assets.map((a) => [a.id, a]))
  const used = new Set<string>()
  const unique = (base: string) => {
    let name = base
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${base} (${n})`
    used.add(name.toLowerCase())
    return name
  }
  const entries: ZipEntry[] = []
  for (const w of wanted) {
    const mp4 = byId.get(w.mp4)
    const srt = byId.get(w.srt)
    if (mp4?.project_id !== w.projectId || srt?.project_id !== w.projectId) continue
    const name = unique(w.base)
    entries.push({ name: `${name}.mp4`, source: streamOf(deps, mp4.storage_key) })
    entries.push({ name: `${name}.srt`, source: streamOf(deps, srt.storage_key), compress: true })
  }
  return {
    zip: zipStream(entries, { mtime: new Date() }),
    fileName: `${safeFileName(batch.template_name, 'Batch')} batch ${batch.id}.zip`,
  }
}

function streamOf(deps: Pick<AppDeps, 'assets'>, key: string) {
  return async () => {
    const stream = await deps.assets.stream(key)
    if (!stream) throw new Error(`The file ${key} is gone from storage`)
    return stream
  }
}
