import { randomUUID } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import type { DB } from '@reelgraph/db'
import {
  builtinMusicPath,
  createSpeechProvider,
  decodeMusicToWav,
  flacDurationMs,
  musicWavByteSize,
  narrationKey,
  parsePcmWav,
  readHead,
  VIDEO_PRESETS,
} from '@reelgraph/media'
import {
  collectVideoInputs,
  docFilm,
  docToGraph,
  type ExportFormat,
  type ExportInput,
  FILM_FPS,
  type FilmCut,
  planFilm,
  videoTakesOf,
  safeFileName,
} from '@reelgraph/shared'
import { filmMusic, filmMusicSource, musicChosen } from '../film-music.ts'
import type { Kysely } from 'kysely'
import type { AppDeps } from '../../../app-env.ts'
import { AppError } from '../../../lib/app-error.ts'
import { copyStoredAssetToFile } from '../../assets/asset-service.ts'
import { requireProjectRole } from '../../access/project-access.ts'
import { isSpoken } from '../narration-cache.ts'
import { renderDirs, speechSettingsOf } from '../render-scenes.ts'
import { buildEditList, type ExportMedia } from './edit-list.ts'
import { writeFcpxml } from './fcpxml.ts'
import { writeOtio } from './otio.ts'
import { type ZipEntry, zipStream } from './zip-stream.ts'

/**
 * The export for an editor (issue 24 item 3; ADR 018): a Video node's timeline, laid out by
 * shared's `planFilm` exactly as the renderer lays it out, as an OpenTimelineIO or FCPXML
 * file in a ZIP with the media it references — each scene's clip or picture as the render
 * reads it, each narration WAV the render spoke (from the narration cache), the music — all
 * read from the project's own assets (or the renderer's cached builtin music), never a path or
 * address from the request.
 */

/** Largest export, in bytes (1 GiB): far over a short film's media, far under ZIP's 4 GiB. */
export const EXPORT_MAX_BYTES = 1024 * 1024 * 1024

/** The timeline file's extension per format. */
const EXTENSIONS: Record<ExportFormat, string> = { otio: 'otio', fcpxml: 'fcpxml' }
/** Person-readable format names, for the download's name. */
const FORMAT_NAMES: Record<ExportFormat, string> = { otio: 'OTIO', fcpxml: 'FCPXML' }

/** File extensions of the media an export carries, by type. */
const MEDIA_EXTENSIONS: Record<string, string> = {
  'video/mp4': 'mp4',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'audio/wav': 'wav',
}

/** What the export sends: a ZIP stream and its download name. */
export interface TimelineExport {
  /** `<project name> - OTIO.zip`, `<project name> - FCPXML.zip`. */
  fileName: string
  /** The ZIP, made as it is read. */
  zip: ReadableStream<Uint8Array>
  /** The names of its entries, in order (the timeline file first). */
  entries: string[]
}

/** An asset of the project: where its bytes are. */
interface AssetRow {
  id: string
  storage_key: string
  mime_type: string
  byte_size: number
}

const idOfUrl = (url: string) => /^\/api\/assets\/([a-z2-7]{32})(?:\?.*)?$/.exec(url)?.[1]

/** The project's assets among `urls` (others' and unknown ones are not there), by URL. */
async function projectAssets(
  db: Kysely<DB>,
  projectId: number,
  urls: readonly string[],
): Promise<Map<string, AssetRow>> {
  const ids = [...new Set(urls.map(idOfUrl).filter((id): id is string => id !== undefined))]
  if (ids.length === 0) return new Map()
  const rows = await db
    .selectFrom('assets')
    .select(['id', 'storage_key', 'mime_type', 'byte_size'])
    .where('project_id', '=', projectId)
    .where('id', 'in', ids)
    .execute()
  const byId = new Map(rows.map((r) => [r.id, r]))
  return new Map(urls.flatMap((u) => (byId.get(idOfUrl(u)!) ? [[u, byId.get(idOfUrl(u)!)!]] : [])))
}

const frames = (ms: number) => Math.floor((ms * FILM_FPS) / 1000)

const notRendered = (message: string) => new AppError('NOT_RENDERED', message)

/** "scene 2" or "scenes 1, 3" for the cuts' scenes, each once. */
function scenesOf(cuts: readonly FilmCut[]): string {
  const numbers = [...new Set(cuts.map((c) => c.scene.sceneNumber))]
  return `${numbers.length === 1 ? 'scene' : 'scenes'} ${numbers.join(', ')}`
}

/** A WAV's length in ms from its first bytes (`header`) and its size in bytes. */
function wavMs(header: Uint8Array, byteSize: number): number {
  const wav = parsePcmWav(header)
  const dataStart = wav.samples.byteOffset - header.byteOffset
  const frameBytes = (wav.format.channels * wav.format.bitsPerSample) / 8
  return ((byteSize - dataStart) / frameBytes / wav.format.sampleRate) * 1000
}

/** How much of a WAV's start is read for its header, in bytes. */
const WAV_HEADER_READ_BYTES = 4096

/**
 * A music asset's length in ms from its first bytes: a FLAC's STREAMINFO (uploads since issue
 * 40 item 5) or a WAV's header (uploads before it); null for any other type.
 */
function musicMs(mimeType: string, header: Uint8Array, byteSize: number): number | null {
  if (mimeType === 'audio/flac') return flacDurationMs(header)
  if (mimeType === 'audio/wav') return wavMs(header, byteSize)
  return null
}

/** A source of an asset's bytes for the ZIP, failing in words when storage lost them. */
function assetSource(deps: Pick<AppDeps, 'assets'>, row: AssetRow) {
  return async () => {
    const stream = await deps.assets.stream(row.storage_key)
    if (!stream) throw new Error(`The file ${row.id} is gone from storage`)
    return stream
  }
}

/**
 * Where an export decodes its music (`DATA_DIR/export-work`): a folder per export's music,
 * removed once the ZIP has read the WAV, or failed or was cancelled.
 */
function exportWorkDir(env: Pick<AppDeps['env'], 'DATA_DIR'>): string {
  return join(env.DATA_DIR, 'export-work')
}

/**
 * A source of a FLAC music asset for the ZIP as a 48 kHz stereo 16-bit PCM WAV (issue 40
 * item 5: Final Cut Pro imports no FLAC; every editor reads WAV), decoded when the ZIP reaches
 * it: the asset streamed to a file, decoded by media's `decodeMusicToWav` (through the
 * external-input helper's pinning: the file was an upload once), the WAV streamed.
 */
function decodedMusicSource(deps: Pick<AppDeps, 'assets' | 'env'>, row: AssetRow) {
  return async (signal: AbortSignal) => {
    const dir = join(exportWorkDir(deps.env), randomUUID())
    await mkdir(dir, { recursive: true })
    const removeDir = () => rm(dir, { recursive: true, force: true })
    try {
      // No extension: ffmpeg reads it by its bytes, with the FLAC and WAV demuxers only.
      const flacPath = join(dir, 'music')
      const copied = await copyStoredAssetToFile(deps.assets, {
        storageKey: row.storage_key,
        path: flacPath,
        signal,
      })
      if (!copied) throw new Error(`The file ${row.id} is gone from storage`)
      const wavPath = join(dir, 'music.wav')
      await decodeMusicToWav(flacPath, wavPath, { ffmpegPath: deps.env.FFMPEG_PATH, signal })
      const wav = createReadStream(wavPath)
      // Closed when read to its end, failed, or cancelled with the ZIP.
      wav.once('close', () => void removeDir())
      return Readable.toWeb(wav) as unknown as ReadableStream<Uint8Array>
    } catch (error) {
      await removeDir()
      throw error
    }
  }
}

/**
 * Video node `nodeId`'s timeline for an editor, as a ZIP of `<name>.otio` (or `.fcpxml`),
 * `README.txt` and `media/` (the pictures, `narration-*.wav`, `music.wav`: a builtin track,
 * an upload from before issue 40 as stored, or an uploaded FLAC decoded to a 48 kHz stereo
 * 16-bit WAV as the ZIP is written, since Final Cut Pro imports no FLAC; issue 40 item 5).
 * Members only (viewers too); rate limited per user (`exportsPerUser`).
 * The ZIP fails (its stream errors) if storage lost a file or the music cannot be decoded.
 * @throws AppError 404 for a project the user is no member of or a node that is no Video
 *   node; 409 NOT_RENDERED before the node's first render or when a narration changed since
 *   (its voice is not spoken yet); 400 for an empty timeline, a scene without a picture,
 *   music the render would refuse (`filmMusicSource`: another project's, gone, no audio; issue
 *   40 item 7), or media over {@link EXPORT_MAX_BYTES}; 429 when limited.
 */
export async function exportTimeline(
  deps: Pick<AppDeps, 'db' | 'env' | 'documents' | 'assets' | 'rateLimits'>,
  { userId, projectId, nodeId, format }: ExportInput & { userId: number },
): Promise<TimelineExport> {
  await requireProjectRole(deps.db, { userId, projectId, needed: 'member' })
  await deps.rateLimits.exportsPerUser.consume(
    String(userId),
    'Too many exports. Please wait a while and try again.',
  )
  const read = await deps.documents.transact(projectId, (doc) => {
    const graph = docToGraph(doc)
    const inputs = collectVideoInputs(graph, nodeId)
    if (!inputs) return null
    const node = graph.nodes.find((n) => n.id === nodeId)!
    return {
      inputs,
      film: docFilm(doc, nodeId, inputs.scenes),
      takes: videoTakesOf(node.data),
      musicChosen: musicChosen(doc, nodeId),
    }
  })
  if (!read) throw new AppError('NOT_FOUND', 'This Video node does not exist.')
  const { inputs, film, takes } = read
  if (takes.length === 0) {
    throw notRendered('Render this video first: the export hands over the media the render made.')
  }
  const { settings } = film
  if (film.cuts.length === 0) {
    throw new AppError('BAD_REQUEST', 'The timeline has no cuts: put a scene back to export it.')
  }
  const missing = film.cuts.filter((c) => !c.scene.clip && !c.scene.imageUrl)
  if (missing.length > 0) {
    throw new AppError(
      'BAD_REQUEST',
      `Nothing to show for ${scenesOf(missing)}: give each an image or a clip to export.`,
    )
  }

  // The narration the render spoke, from the narration cache (exact length and WAV).
  const speech = createSpeechProvider(speechSettingsOf(deps.env))
  const voice = inputs.settings.voice || undefined
  const narratedCuts = film.cuts.filter((c) => c.narrated && isSpoken(c.scene.narration))
  const keys = new Map(
    narratedCuts.map((c) => [c.sceneId, narrationKey(speech, { text: c.scene.narration, voice })]),
  )
  const cached = keys.size
    ? await deps.db
        .selectFrom('narration_cache as n')
        .innerJoin('assets as a', 'a.id', 'n.asset_id')
        .select(['n.key', 'n.duration_ms', 'a.id', 'a.storage_key', 'a.mime_type', 'a.byte_size'])
        .where('n.project_id', '=', projectId)
        .where('n.key', 'in', [...new Set(keys.values())])
        .execute()
    : []
  const voices = new Map(cached.map((r) => [r.key, r]))
  const unspoken = narratedCuts.filter((c) => !voices.has(keys.get(c.sceneId)!))
  if (unspoken.length > 0) {
    throw notRendered(
      `The narration of ${scenesOf(unspoken)} changed since the last render: render again to export it.`,
    )
  }
  const voiceOf = (cut: FilmCut) => {
    const key = keys.get(cut.sceneId)
    return key === undefined ? undefined : voices.get(key)
  }

  // The pictures: each scene's clip, else its image, an asset of this project.
  const pictureUrl = (cut: FilmCut) => cut.scene.clip?.url ?? cut.scene.imageUrl!
  const music = filmMusic({
    chosen: read.musicChosen,
    timelineMusic: settings.music,
    nodeMusic: inputs.settings.music,
  })
  const assets = await projectAssets(deps.db, projectId, [
    ...film.cuts.map(pictureUrl),
    ...(music.startsWith('/api/assets/') ? [music] : []),
  ])
  const gone = film.cuts.filter((c) => {
    const row = assets.get(pictureUrl(c))
    return (
      !row ||
      !(row.mime_type in MEDIA_EXTENSIONS) ||
      (c.scene.clip && row.mime_type !== 'video/mp4')
    )
  })
  if (gone.length > 0) {
    throw new AppError(
      'BAD_REQUEST',
      `The picture of ${scenesOf(gone)} is gone or is no image or MP4 clip.`,
    )
  }
  // The render's rule for the music (issue 40 item 7): another project's asset, a missing
  // one, one that is no audio or an unknown track is refused in the render's words, never
  // left out of the export.
  const musicRow = assets.get(music)
  const musicSource = filmMusicSource(music, musicRow ? { mimeType: musicRow.mime_type } : null)
  if ('problem' in musicSource) throw new AppError('BAD_REQUEST', musicSource.problem)

  const entries: ZipEntry[] = []
  let bytes = 0
  const pictures = new Map<string, ExportMedia>()
  const usedNames = new Set<string>()
  const unique = (base: string, ext: string) => {
    let name = `media/${base}.${ext}`
    for (let n = 2; usedNames.has(name); n++) name = `media/${base}-${n}.${ext}`
    usedNames.add(name)
    return name
  }
  const sceneBase = (cut: FilmCut) => {
    const n = cut.scene.sceneNumber.trim()
    // Only URL- and file-safe signs: the timeline file references it as a relative URL.
    if (/^\d{1,6}$/.test(n)) return n.padStart(2, '0')
    return n.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 40) || 'x'
  }
  for (const cut of film.cuts) {
    const url = pictureUrl(cut)
    if (pictures.has(url)) continue
    const row = assets.get(url)!
    const path = unique(`scene-${sceneBase(cut)}`, MEDIA_EXTENSIONS[row.mime_type]!)
    const clip = cut.scene.clip
    pictures.set(url, {
      path,
      kind: clip ? 'video' : 'image',
      frames: clip ? frames(clip.durationMs) : null,
      hasAudio: clip?.hasAudio ?? false,
    })
    entries.push({ name: path, source: assetSource(deps, row) })
    bytes += row.byte_size
  }
  const narrations = new Map<string, ExportMedia>()
  for (const cut of narratedCuts) {
    const row = voiceOf(cut)!
    const path = unique(`narration-scene-${sceneBase(cut)}`, 'wav')
    narrations.set(cut.id, { path, kind: 'audio', frames: frames(row.duration_ms), hasAudio: true })
    entries.push({ name: path, source: assetSource(deps, { ...row }) })
    bytes += row.byte_size
  }
  let musicMedia: ExportMedia | null = null
  if (musicSource.kind === 'builtin') {
    // The renderer's own cached loop (synthesized once per machine, a second of CPU).
    const path = await builtinMusicPath(musicSource.track, renderDirs(deps.env).cache)
    const size = (await stat(path)).size
    musicMedia = {
      path: unique('music', 'wav'),
      kind: 'audio',
      frames: frames(wavMs(await readHead(path, WAV_HEADER_READ_BYTES), size)),
      hasAudio: true,
    }
    entries.push({
      name: musicMedia.path,
      source: async () =>
        Readable.toWeb(createReadStream(path)) as unknown as ReadableStream<Uint8Array>,
    })
    bytes += size
  } else if (musicSource.kind === 'asset') {
    const row = assets.get(music)
    const header = row ? await deps.assets.getRange(row.storage_key, 0, 4095) : null
    const lengthMs = row && header ? musicMs(row.mime_type, header, row.byte_size) : null
    if (row && lengthMs !== null) {
      // Every editor gets a WAV (issue 40 item 5): Final Cut Pro imports no FLAC, so a FLAC
      // is decoded as the ZIP reaches it, at the length its STREAMINFO states.
      const flac = row.mime_type === 'audio/flac'
      musicMedia = {
        path: unique('music', 'wav'),
        kind: 'audio',
        frames: frames(lengthMs),
        hasAudio: true,
      }
      entries.push({
        name: musicMedia.path,
        source: flac ? decodedMusicSource(deps, row) : assetSource(deps, row),
      })
      bytes += flac ? musicWavByteSize(lengthMs) : row.byte_size
    }
  }
  if (bytes > EXPORT_MAX_BYTES) {
    throw new AppError(
      'BAD_REQUEST',
      `This film's media is ${Math.ceil(bytes / 1024 / 1024)} MiB, over the export limit of ${EXPORT_MAX_BYTES / 1024 / 1024} MiB.`,
    )
  }

  const plan = planFilm(film.cuts, settings, (cut) => ({
    clipMs: cut.scene.clip?.durationMs ?? null,
    narrationMs: voiceOf(cut)?.duration_ms ?? 0,
  }))
  const projectName =
    (
      await deps.db
        .selectFrom('projects')
        .select('name')
        .where('id', '=', projectId)
        .executeTakeFirst()
    )?.name.trim() || 'Film'
  const preset = VIDEO_PRESETS[inputs.settings.preset]
  const edit = buildEditList({
    name: projectName,
    plan,
    width: preset.width,
    height: preset.height,
    settings,
    picture: (piece) => pictures.get(pictureUrl(piece.cut!))!,
    narration: (piece) => narrations.get(piece.id) ?? null,
    music: musicMedia,
    sceneName: (piece) => `Scene ${piece.cut!.scene.sceneNumber}`,
  })
  const base = safeFileName(projectName, 'Film')
  const timelineName = `${base}.${EXTENSIONS[format]}`
  const text = new TextEncoder().encode(format === 'otio' ? writeOtio(edit) : writeFcpxml(edit))
  const readme = new TextEncoder().encode(readmeText(format, timelineName))
  const all: ZipEntry[] = [
    { name: timelineName, source: text, compress: true },
    { name: 'README.txt', source: readme, compress: true },
    ...entries,
  ]
  return {
    fileName: `${base} - ${FORMAT_NAMES[format]}.zip`,
    zip: zipStream(all, { mtime: new Date() }),
    entries: all.map((e) => e.name),
  }
}

function readmeText(format: ExportFormat, timelineName: string): string {
  const open =
    format === 'otio'
      ? 'Open it with an editor that reads OpenTimelineIO (DaVinci Resolve: File > Import > Timeline; others through OpenTimelineIO adapters).'
      : 'Open it in Final Cut Pro (File > Import > XML) or DaVinci Resolve (File > Import > Timeline).'
  return [
    `${timelineName}: the film's timeline at ${FILM_FPS} frames per second, exported by Reelgraph.`,
    open,
    'Unzip everything first: the timeline refers to the files in media/ by relative paths. If your editor asks, relink them to that folder.',
    'Title and end cards are gaps named after their text; captions are not part of the timeline.',
    '',
  ].join('\r\n')
}
