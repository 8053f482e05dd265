import { applyStoredDocument, type DB, readProjectDocument } from '@reelgraph/db'
import { type Kysely, sql } from 'kysely'
import * as Y from 'yjs'
import { ASSET_GC_PROJECT_PAGE } from '../../config.ts'

/**
 * What keeps an asset (issue 40 item 5, decision 026): the places that may hold an asset's URL,
 * as a registry of reference sources. The asset collector (`asset-collection.ts`) asks every
 * source of {@link ASSET_REFERENCE_SOURCES} and marks what they name as seen; an asset that no
 * source named for longer than the grace period is deleted. Adding a place that keeps media
 * alive (the kept versions of the version history, issue 43) is one new source and one line
 * in the list; the collector knows no source by name.
 */

/** What a source found: asset ids, or a project it could not read (its assets are kept). */
export type AssetReferences =
  { assetIds: readonly string[] } | { unreadableProjectId: number; error: unknown }

/** One place that may reference assets. */
export interface AssetReferenceSource {
  /** Its name in the collector's log and summary. */
  readonly name: string
  /**
   * Every asset id it references now, in batches (a project's document at a time, a page of
   * rows at a time): a source never holds all of them at once. A project it cannot read is
   * reported as unreadable rather than thrown, so one broken document keeps its own assets
   * without stopping the sweep of the others.
   * @throws Error when it cannot be read at all (the collector then deletes nothing).
   */
  references(db: Kysely<DB>): AsyncIterable<AssetReferences>
}

/**
 * An asset's URL anywhere in a text (`/api/assets/<id>`, maybe with a query): its id. The
 * document keeps URLs, never bytes (ARCHITECTURE decision 8).
 */
const ASSET_URL = /\/api\/assets\/([a-z2-7]{32})(?![a-z2-7])/g

/** The asset ids named in `texts` (each id once). */
export function assetIdsIn(texts: Iterable<string>): string[] {
  const ids = new Set<string>()
  for (const text of texts) for (const match of text.matchAll(ASSET_URL)) ids.add(match[1]!)
  return [...ids]
}

/** The strings of a JSON-like value, with their nesting as JSON (URLs stay whole). */
function textOf(value: unknown): string | null {
  if (typeof value === 'string') return value
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return null
  try {
    return JSON.stringify(value)
  } catch {
    return null
  }
}

/**
 * Every text a Yjs type holds, its nested types included, whatever the type (a map, an array,
 * a text, or a root no code of ours has typed yet): read from the type's items, so a root a
 * later version of the document adds is scanned too. Deleted items are skipped (what Undo may
 * bring back is covered by the grace period); a text's adjacent pieces are joined, so a URL
 * typed into a Y.Text in several edits is found whole.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any type of any root
function textsOfType(type: Y.AbstractType<any>, into: string[] = []): string[] {
  const contentTexts = (item: Y.Item, run: string[]) => {
    if (item.deleted) return
    const content = item.content
    if (content instanceof Y.ContentString) {
      run.push(content.str)
      return
    }
    if (run.length > 0) into.push(run.splice(0).join(''))
    if (content instanceof Y.ContentType) {
      textsOfType(content.type, into)
      return
    }
    if (content instanceof Y.ContentAny || content instanceof Y.ContentJSON) {
      for (const value of content.getContent()) {
        const text = textOf(value)
        if (text) into.push(text)
      }
    }
  }
  for (const item of type._map.values()) {
    const run: string[] = []
    contentTexts(item, run)
    if (run.length > 0) into.push(run.join(''))
  }
  const run: string[] = []
  for (let item = type._start; item; item = item.right) contentTexts(item, run)
  if (run.length > 0) into.push(run.join(''))
  return into
}

/** The asset ids a project's document names anywhere (nodes, takes, timelines, any root). */
export function assetIdsInDoc(doc: Y.Doc): string[] {
  const texts: string[] = []
  for (const type of doc.share.values()) textsOfType(type, texts)
  return assetIdsIn(texts)
}

/**
 * Each project's live document, as stored (the snapshot with its log: what every editor sees
 * once saved): every asset URL anywhere in it — node data, clip and render takes, the
 * timelines' music. Each document is decoded once per sweep, one at a time. A project whose
 * document was never stored is read from its `nodes` and `connections` columns.
 */
export const projectDocumentReferences: AssetReferenceSource = {
  name: 'project documents',
  async *references(db) {
    let after = 0
    for (;;) {
      const page = await db
        .selectFrom('projects')
        .select('id')
        .where('id', '>', after)
        .orderBy('id')
        .limit(ASSET_GC_PROJECT_PAGE)
        .execute()
      if (page.length === 0) return
      for (const { id } of page) {
        after = id
        let found: AssetReferences
        try {
          found = { assetIds: await projectAssetIds(db, id) }
        } catch (error) {
          found = { unreadableProjectId: id, error }
        }
        yield found
      }
    }
  },
}

/** The asset ids project `projectId`'s stored document (or, without one, its columns) names. */
async function projectAssetIds(db: Kysely<DB>, projectId: number): Promise<string[]> {
  const stored = await readProjectDocument({ db, projectId })
  if (stored) {
    const doc = new Y.Doc()
    try {
      applyStoredDocument(doc, stored)
      return assetIdsInDoc(doc)
    } finally {
      doc.destroy()
    }
  }
  const row = await db
    .selectFrom('projects')
    .select([
      sql<string>`nodes::text`.as('nodes'),
      sql<string>`connections::text`.as('connections'),
    ])
    .where('id', '=', projectId)
    .executeTakeFirst()
  return row ? assetIdsIn([row.nodes, row.connections]) : []
}

/**
 * The narration cache (issue 21 item 4): its WAVs are assets no document names; the cache
 * prunes them itself, least recently used first, past `NARRATION_CACHE_MAX_BYTES`.
 */
export const narrationCacheReferences: AssetReferenceSource = {
  name: 'narration cache',
  async *references(db) {
    let after = ''
    for (;;) {
      const page = await db
        .selectFrom('narration_cache')
        .select('asset_id')
        .where('asset_id', '>', after)
        .orderBy('asset_id')
        .limit(ASSET_GC_PROJECT_PAGE * 10)
        .execute()
      if (page.length === 0) return
      after = page.at(-1)!.asset_id
      yield { assetIds: page.map((r) => r.asset_id) }
    }
  },
}

/**
 * Jobs that still hold assets outside any document: open ones (a clip's start image, named
 * in its input) and finished ones whose result is not written into the document yet.
 */
export const openJobReferences: AssetReferenceSource = {
  name: 'open jobs',
  async *references(db) {
    let after = '00000000-0000-0000-0000-000000000000' // below every UUID
    for (;;) {
      const page = await db
        .selectFrom('generation_jobs')
        .select([
          'id',
          sql<string>`input::text`.as('input'),
          sql<string>`result::text`.as('result'),
        ])
        .where((eb) =>
          eb.or([
            eb('status', 'in', ['queued', 'running']),
            eb.and([eb('status', '=', 'succeeded'), eb('result_written', '=', false)]),
          ]),
        )
        .where('id', '>', after)
        .orderBy('id')
        .limit(ASSET_GC_PROJECT_PAGE)
        .execute()
      if (page.length === 0) return
      after = page.at(-1)!.id
      yield { assetIds: assetIdsIn(page.flatMap((r) => [r.input, r.result ?? ''])) }
    }
  },
}

/**
 * Templates (issue 42 item 2): a saved template's preview frame and every asset its graph
 * names (its pictures), which outlive the project it was saved from only through it.
 */
export const templateReferences: AssetReferenceSource = {
  name: 'templates',
  async *references(db) {
    let after = 0
    for (;;) {
      const page = await db
        .selectFrom('templates')
        .select(['id', 'preview_asset_id', sql<string>`graph::text`.as('graph')])
        .where('id', '>', after)
        .orderBy('id')
        .limit(ASSET_GC_PROJECT_PAGE)
        .execute()
      if (page.length === 0) return
      after = page.at(-1)!.id
      yield {
        assetIds: [
          ...page.flatMap((r) => (r.preview_asset_id ? [r.preview_asset_id] : [])),
          ...assetIdsIn(page.map((r) => r.graph)),
        ],
      }
    }
  },
}

/**
 * Every place that keeps an asset today. The version history (issue 43) adds its kept
 * versions here: each version's stored state, read as {@link projectDocumentReferences} reads
 * the live one.
 */
export const ASSET_REFERENCE_SOURCES: readonly AssetReferenceSource[] = [
  projectDocumentReferences,
  narrationCacheReferences,
  openJobReferences,
  templateReferences,
]
