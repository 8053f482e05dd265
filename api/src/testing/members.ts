import { createSession } from '@reelgraph/db'
import type { ProjectRole } from '@reelgraph/shared'
import type { TestApp } from './test-app.ts'

/** A signed-in test user. */
export interface TestUser {
  id: number
  name: string
  email: string
  /** The `session=...` cookie of a fresh session. */
  cookie: string
}

let sequence = 0

/**
 * A user with a session, made straight in the database (no argon2 hashing: tests that need
 * many users stay fast; they never log in with a password). `credits` go to the purchased
 * bucket.
 */
export async function addUser(
  t: TestApp,
  name: string,
  options: { email?: string; credits?: number } = {},
): Promise<TestUser> {
  const email =
    options.email ?? `${name.toLowerCase()}-${++sequence}-${process.pid}-${Date.now()}@example.com`
  const { id } = await t.deps.db
    .insertInto('users')
    .values({
      name,
      email: email.toLowerCase(),
      password_hash: 'not-a-password-hash',
      purchased_credits: options.credits ?? 0,
      stripe_customer_id: null,
      stripe_subscription_id: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const { token } = await createSession(t.deps.db, id)
  return { id, name, email: email.toLowerCase(), cookie: `session=${token}` }
}

/** Makes `userId` a member of the project with `role`, straight in the database. */
export async function addMember(
  t: TestApp,
  projectId: number,
  userId: number,
  role: Exclude<ProjectRole, 'owner'>,
): Promise<void> {
  await t.deps.db
    .insertInto('project_members')
    .values({ project_id: projectId, user_id: userId, role })
    .execute()
}

/** Creates a project through the API as `owner` and answers its id. */
export async function createProjectAs(
  t: TestApp,
  owner: TestUser,
  name = 'Shared film',
): Promise<number> {
  const res = await t.request('POST', '/api/projects', { body: { name }, cookie: owner.cookie })
  if (res.status !== 201) throw new Error(`creating a project answered ${res.status}`)
  return ((await res.json()) as { id: number }).id
}
