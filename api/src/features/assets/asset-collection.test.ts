import { testDatabaseKinds } from '@reelgraph/db/testing'
import {
  type ClipTake,
  clipResultData,
  createGraphNode,
  editTimelineSettings,
  removeNodes,
} from '@reelgraph/shared'
import { sql } from 'kysely'
import * as Y from 'yjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, createProjectAs, type TestUser } from '../../testing/members.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { ASSET_COLLECTION_TASK, collectUnusedAssets } from './asset-collection.ts'
import {
  ASSET_REFERENCE_SOURCES,
  type AssetReferenceSource,
  assetIdsInDoc,
} from './asset-references.ts'
import { storeMediaAsset } from './asset-service.ts'

const GRACE_HOURS = 48

/**
 * The asset collector (issue 40 item 5, decision 026): media nothing references is deleted
 * (row and bytes) once unreferenced for longer than the grace period; what the document names
 * anywhere (node data, clip takes, the timeline's music), the narration cache, an open job or
 * a further source (the version history's, issue 43) keeps its asset; a fresh unreferenced
 * asset (a job's result not written yet) is inside its grace period.
 */
describe.each(testDatabaseKinds())('asset collection on $name', (kind) => {
  let t: TestApp
  let owner: TestUser

  beforeAll(async () => {
    t = await createTestApp(kind)
    owner = await addUser(t, 'Gale')
  })
  afterAll(() => t.close())

  const collect = (sources?: readonly AssetReferenceSource[]) =>
    collectUnusedAssets(
      { db: t.deps.db, storage: t.deps.assets, logger: t.deps.logger },
      { graceHours: GRACE_HOURS, ...(sources && { sources }) },
    )
  const newAsset = async (projectId: number, mimeType: 'video/mp4' | 'image/jpeg' = 'video/mp4') =>
    (
      await storeMediaAsset(t.deps.db, t.deps.assets, {
        userId: owner.id,
        projectId,
        content: new TextEncoder().encode(`bytes of ${Math.random()}`),
        mimeType,
      })
    ).assetId
  /** Makes assets look `hours` old (made then, and last referenced then if ever). */
  const age = (ids: string[], hours: number) =>
    t.deps.db
      .updateTable('assets')
      .set({
        created_at: sql`now() - make_interval(hours => ${hours})`,
        last_referenced_at: sql`case when last_referenced_at is null then null else now() - make_interval(hours => ${hours}) end`,
      })
      .where('id', 'in', ids)
      .execute()
  /** Which of `ids` still have a row and bytes (both, or the test fails). */
  const surviving = async (ids: string[]) => {
    const rows = await t.deps.db
      .selectFrom('assets')
      .select(['id', 'storage_key'])
      .where('id', 'in', ids)
      .execute()
    const keys = new Map(rows.map((r) => [r.id, r.storage_key]))
    const left: string[] = []
    for (const id of ids) {
      const key = keys.get(id)
      const bytes = key ? await t.deps.assets.get(key) : null
      if (key && !bytes) throw new Error(`asset ${id} has a row without bytes`)
      if (key) left.push(id)
    }
    return left
  }
  const url = (id: string) => `/api/assets/${id}`

  it('deletes what nothing references past the grace period, keeping what the document names anywhere', async () => {
    const projectId = await createProjectAs(t, owner, 'Harbour')
    const [image, clip, poster, oldTake, music, unused, fresh, narration] = [
      await newAsset(projectId, 'image/jpeg'),
      await newAsset(projectId),
      await newAsset(projectId, 'image/jpeg'),
      await newAsset(projectId),
      await newAsset(projectId),
      await newAsset(projectId),
      await newAsset(projectId),
      await newAsset(projectId),
    ] as string[] as [string, string, string, string, string, string, string, string]
    const take = (videoUrl: string, posterUrl: string): ClipTake => ({
      videoUrl,
      posterUrl,
      durationMs: 4_000,
      hasAudio: false,
      modelId: 'builtin-motion',
      prompt: 'waves',
      seed: 1,
      createdAt: new Date().toISOString(),
    })
    const imageNode = createGraphNode('image', { x: 0, y: 0 })
    imageNode.data = { ...imageNode.data, imageUrl: url(image) }
    const clipNode = createGraphNode('clip', { x: 400, y: 0 })
    clipNode.data = {
      ...clipNode.data,
      ...clipResultData(
        [take(url(clip), `${url(poster)}?v=1`), take(url(oldTake), '')],
        take(url(clip), url(poster)),
      ),
    }
    const video = createGraphNode('video', { x: 800, y: 0 })
    await t.deps.documents.applyGraph(projectId, {
      nodes: [imageNode, clipNode, video],
      connections: [],
    })
    await t.deps.documents.transact(projectId, (doc, origin) =>
      editTimelineSettings(doc, video.id, { music: url(music) }, origin),
    )
    await t.deps.db
      .insertInto('narration_cache')
      .values({
        project_id: projectId,
        key: 'a'.repeat(64),
        asset_id: narration,
        duration_ms: 1_000,
        words: '[]',
        byte_size: 10,
      })
      .execute()
    const all = [image, clip, poster, oldTake, music, unused, fresh, narration]
    await age(
      all.filter((id) => id !== fresh),
      GRACE_HOURS + 1,
    )

    const summary = await collect()
    expect(summary).toMatchObject({ deleted: 1, unreadableProjects: [] })
    expect(await surviving(all)).toEqual(all.filter((id) => id !== unused))

    // The image node is removed: its image goes once unreferenced past the grace period (its
    // last mark aged), not before; the fresh asset, unreferenced, is still inside its own.
    await t.deps.documents.transact(projectId, (doc, origin) =>
      removeNodes(doc, [imageNode.id], origin),
    )
    expect((await collect()).deleted).toBe(0) // marked just now: inside the grace period
    await age([image], GRACE_HOURS + 1)
    expect((await collect()).deleted).toBe(1)
    expect(await surviving(all)).toEqual(all.filter((id) => id !== unused && id !== image))
  })

  it('keeps what a further source names (a kept version) and every asset of an unreadable project', async () => {
    const kept = await createProjectAs(t, owner, 'Versions')
    const broken = await createProjectAs(t, owner, 'Broken')
    const inVersion = await newAsset(kept)
    const lost = await newAsset(kept)
    const ofBroken = await newAsset(broken)
    await age([inVersion, lost, ofBroken], GRACE_HOURS + 1)
    const versions: AssetReferenceSource = {
      name: 'kept versions',
      async *references() {
        yield { assetIds: [inVersion] }
        yield { unreadableProjectId: broken, error: new Error('a corrupt version') }
      },
    }
    const summary = await collect([...ASSET_REFERENCE_SOURCES, versions])
    expect(summary.unreadableProjects).toEqual([broken])
    expect(await surviving([inVersion, lost, ofBroken])).toEqual([inVersion, ofBroken])
    // A source that cannot be read at all stops the sweep before anything is deleted.
    const failing: AssetReferenceSource = {
      name: 'failing',
      // eslint-disable-next-line require-yield -- it fails before its first batch
      async *references() {
        throw new Error('the versions table is unreachable')
      },
    }
    await age([inVersion], GRACE_HOURS + 1)
    await expect(collect([failing])).rejects.toThrow('unreachable')
    expect(await surviving([inVersion, ofBroken])).toEqual([inVersion, ofBroken])
  })

  it('finds asset URLs in any root of a document, in text typed in pieces, never in deleted items', () => {
    const doc = new Y.Doc()
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((x) => x.repeat(32)) as [
      string,
      string,
      string,
      string,
    ]
    const notes = doc.getArray<Y.Text>('later-root')
    const text = new Y.Text()
    notes.push([text])
    text.insert(0, `see /api/as`)
    text.insert(text.length, `sets/${a} and`)
    const map = doc.getMap('nodes')
    map.set('n', { nested: [{ url: `/api/assets/${b}?v=2` }] })
    map.set('gone', `/api/assets/${c}`)
    map.delete('gone')
    map.set('other', `https://example.com/api/assets/${d}x`) // not an id: 33 characters
    const untyped = new Y.Doc()
    Y.applyUpdate(untyped, Y.encodeStateAsUpdate(doc))
    expect(assetIdsInDoc(untyped).sort()).toEqual([a, b])
  })

  it('is scheduled for the worker processes on ASSET_GC_CRON', async () => {
    await t.deps.jobs.start()
    expect(await t.deps.jobs.queue.scheduleOf(ASSET_COLLECTION_TASK)).toBe(t.deps.env.ASSET_GC_CRON)
  })
})
