import type { Graph } from '@reelgraph/shared'
import { docToGraph } from '@reelgraph/shared'
import type { TestUser } from './members.ts'
import type { TestApp } from './test-app.ts'

/**
 * What job and video tests read back: a user's balance, the live document, a job as its
 * member sees it.
 */

/** The user's balance in credits: plan plus purchased. */
export async function balance(t: TestApp, userId: number): Promise<number> {
  const row = await t.deps.db
    .selectFrom('users')
    .select(['plan_credits', 'purchased_credits'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow()
  return row.plan_credits + row.purchased_credits
}

/** The project's live document as a graph (through the sync server's gateway). */
export function liveGraph(t: TestApp, projectId: number): Promise<Graph> {
  return t.deps.documents.transact(projectId, (doc) => docToGraph(doc))
}

/** `GET /api/jobs/:id` as `user` sees it (the JSON body, whatever the status). */
export async function jobAs(
  t: TestApp,
  user: Pick<TestUser, 'cookie'>,
  id: string,
  // The answer's fields are what each test asserts on.
): Promise<any> {
  return (await t.request('GET', `/api/jobs/${id}`, { cookie: user.cookie })).json()
}
