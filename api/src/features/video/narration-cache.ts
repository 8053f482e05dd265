import type { DB } from '@reelgraph/db'
import {
  narrationKey,
  type SpeechProvider,
  type SpeechRequest,
  type WordTiming,
} from '@reelgraph/media'
import { type Kysely, sql } from 'kysely'
import type { AssetStorage } from '../assets/asset-storage.ts'
import { storeMediaAsset } from '../assets/asset-service.ts'

/**
 * Narration as its own cached step (issue 21 item 4): a project's narrations by their
 * `narrationKey` (provider identity, voice, exact text), the WAV stored as an asset of the
 * project and its word timings beside it. A render and a scene's play button speak a text
 * once; every later render reuses the voice, its timings and therefore its segments, with any
 * provider (OpenAI's and ElevenLabs' audio differs from call to call). Shared by every process
 * through the database and asset storage; bounded by `NARRATION_CACHE_MAX_BYTES`.
 */

/** What the cache uses. */
export interface NarrationCacheDeps {
  db: Kysely<DB>
  assets: AssetStorage
}

/** A narration from the cache, or just made and put in it. */
export interface CachedNarration {
  key: string
  /** PCM WAV (media's `Narration.wav`); empty for blank text. */
  wav: Uint8Array
  durationMs: number
  words: WordTiming[]
  /** True when it came from the cache (nothing was synthesized or paid). */
  reused: boolean
}

/** Cache entries used within this long are never pruned: 1 h, longer than any render. */
export const NARRATION_CACHE_MIN_AGE_MS = 60 * 60 * 1000

/** True when `text` would be spoken at all (blank text is no narration, and is never cached). */
export function isSpoken(text: string): boolean {
  return text.trim() !== ''
}

/**
 * Which of `keys` project `projectId` has cached.
 * @returns the cached keys.
 */
export async function cachedNarrationKeys(
  db: Kysely<DB>,
  { projectId, keys }: { projectId: number; keys: readonly string[] },
): Promise<Set<string>> {
  if (keys.length === 0) return new Set()
  const rows = await db
    .selectFrom('narration_cache')
    .select('key')
    .where('project_id', '=', projectId)
    .where('key', 'in', [...new Set(keys)])
    .execute()
  return new Set(rows.map((r) => r.key))
}

/**
 * The cached narration `key` of project `projectId` (marked used), or null. An entry whose
 * bytes storage lost is forgotten (and null answered), so it is spoken again.
 */
export async function readCachedNarration(
  deps: NarrationCacheDeps,
  { projectId, key }: { projectId: number; key: string },
): Promise<Omit<CachedNarration, 'reused'> | null> {
  const found = await deps.db
    .updateTable('narration_cache')
    .set({ last_used_at: sql`now()` })
    .where('project_id', '=', projectId)
    .where('key', '=', key)
    .returning(['asset_id', 'duration_ms', 'words'])
    .executeTakeFirst()
  if (!found) return null
  const asset = await deps.db
    .selectFrom('assets')
    .select('storage_key')
    .where('id', '=', found.asset_id)
    .executeTakeFirst()
  const wav = asset ? await deps.assets.get(asset.storage_key) : null
  if (!wav) {
    await removeAssets(deps, [found.asset_id])
    return null
  }
  return { key, wav, durationMs: found.duration_ms, words: found.words as WordTiming[] }
}

/** What {@link narrate} speaks, for whom, with which provider. */
export interface NarrateRequest {
  projectId: number
  /** Who asked: a new WAV is stored as their asset of the project. */
  userId: number
  speech: SpeechProvider
  request: SpeechRequest
  signal: AbortSignal
}

/**
 * The narration of `request` for project `projectId`: from the cache when it holds the key
 * (marked used), else synthesized by `speech` and stored (two renders speaking one text at
 * once store it once: the later one's row is dropped and its asset removed). Blank text is
 * neither synthesized nor cached.
 * @throws SpeechError and RangeError as `SpeechProvider.synthesize` does.
 * @see issue 21 item 4
 */
export async function narrate(
  deps: NarrationCacheDeps,
  { projectId, userId, speech, request, signal }: NarrateRequest,
): Promise<CachedNarration> {
  const key = narrationKey(speech, request)
  const cached = await readCachedNarration(deps, { projectId, key })
  if (cached) return { ...cached, reused: true }
  const narration = await speech.synthesize(request, signal)
  if (!isSpoken(request.text) || narration.durationMs <= 0) {
    return { key, wav: narration.wav, durationMs: 0, words: [], reused: false }
  }
  const stored = await storeMediaAsset(deps.db, deps.assets, {
    userId,
    projectId,
    content: narration.wav,
    mimeType: 'audio/wav',
  })
  const inserted = await deps.db
    .insertInto('narration_cache')
    .values({
      project_id: projectId,
      key,
      asset_id: stored.assetId,
      duration_ms: narration.durationMs,
      words: JSON.stringify(narration.words),
      byte_size: narration.wav.byteLength,
    })
    .onConflict((oc) => oc.columns(['project_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst()
  if (!inserted) await removeAssets(deps, [stored.assetId])
  return {
    key,
    wav: narration.wav,
    durationMs: narration.durationMs,
    words: narration.words,
    reused: false,
  }
}

async function removeAssets(deps: NarrationCacheDeps, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return
  const rows = await deps.db
    .deleteFrom('assets')
    .where('id', 'in', [...ids])
    .returning('storage_key')
    .execute()
  for (const row of rows) await deps.assets.delete(row.storage_key)
}

/** What {@link pruneNarrationCache} did. */
export interface NarrationPruneResult {
  /** Bytes the cache held before and after. */
  bytesBefore: number
  bytesAfter: number
  removed: number
}

/**
 * Removes the least recently used narrations of every project until the cache holds at most
 * `maxBytes`, never one used within `minAgeMs` (a render may be about to read it), as the
 * render cache is pruned (`pruneRenderCache`). Their assets go with them.
 * @see issue 21 item 4
 */
export async function pruneNarrationCache(
  deps: NarrationCacheDeps,
  { maxBytes, minAgeMs = NARRATION_CACHE_MIN_AGE_MS }: { maxBytes: number; minAgeMs?: number },
): Promise<NarrationPruneResult> {
  const total = await deps.db
    .selectFrom('narration_cache')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('byte_size'), eb.lit(0)).as('bytes'))
    .executeTakeFirstOrThrow()
  const bytesBefore = Number(total.bytes)
  let bytes = bytesBefore
  let removed = 0
  const cutoff = new Date(Date.now() - minAgeMs)
  while (bytes > maxBytes) {
    const oldest = await deps.db
      .selectFrom('narration_cache')
      .select(['project_id', 'key', 'asset_id', 'byte_size'])
      .where('last_used_at', '<=', cutoff)
      .orderBy('last_used_at')
      .limit(100)
      .execute()
    if (oldest.length === 0) break
    const batch: typeof oldest = []
    for (const row of oldest) {
      if (bytes <= maxBytes) break
      batch.push(row)
      bytes -= row.byte_size
    }
    // Deleting the asset deletes its cache row (foreign key, on delete cascade).
    await removeAssets(
      deps,
      batch.map((row) => row.asset_id),
    )
    removed += batch.length
  }
  return { bytesBefore, bytesAfter: bytes, removed }
}
