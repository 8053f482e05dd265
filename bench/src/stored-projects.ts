import { type DB, seedSnapshot } from '@reelgraph/db'
import type { Graph } from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import { createProject } from '../../sync-server/src/testing/sync-test-kit.ts'

/**
 * Makes `count` projects of `userId` holding `graph`, each with its document stored as the
 * sync server seeds one (the snapshot and its graph index): projects opened before, as the
 * REST autosave benchmarks edit. Resolves with their ids, in the order made.
 */
export async function createStoredProjects(options: {
  db: Kysely<DB>
  userId: number
  graph: Graph
  count: number
}): Promise<number[]> {
  const { db, userId, graph, count } = options
  const snapshot = seedSnapshot(graph)
  const projectIds: number[] = []
  for (let i = 0; i < count; i++) {
    const id = await createProject(db, userId, graph)
    await db
      .insertInto('project_documents')
      .values({ project_id: id, ...snapshot, updated_at: new Date() })
      .execute()
    projectIds.push(id)
  }
  return projectIds
}
