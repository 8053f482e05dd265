import { testDatabaseKinds } from '@reelgraph/db/testing'
import { MEMBER_MESSAGES } from '@reelgraph/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, addUser, createProjectAs } from '../../testing/members.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { getProject, renameProject } from '../projects/project-service.ts'
import { revokeInvitation } from './invitation-service.ts'
import { changeMemberRole, removeMember } from './member-service.ts'

// Services that take several ids take them by name, in one object (issue 14, thin
// handlers): a swapped user and project id cannot slip through unnoticed.
describe.each(testDatabaseKinds())('member and project services on $name', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp(kind)
  })
  afterAll(() => t.close())

  it('change a role, remove a member and rename a project with the ids named', async () => {
    const owner = await addUser(t, 'Olga')
    const member = await addUser(t, 'Milo')
    const projectId = await createProjectAs(t, owner, 'Named ids')
    await addMember(t, projectId, member.id, 'viewer')
    const { db, documents } = t.deps

    const changed = await changeMemberRole(db, documents, {
      ownerId: owner.id,
      projectId,
      memberId: member.id,
      role: 'editor',
    })
    expect(changed).toMatchObject({ userId: member.id, role: 'editor' })

    // The member (now an editor) renames the project, and reads it back.
    await renameProject(db, { userId: member.id, projectId, name: 'Renamed by Milo' })
    expect(await getProject(db, { userId: member.id, projectId })).toMatchObject({
      name: 'Renamed by Milo',
    })

    await expect(
      revokeInvitation(db, { ownerId: owner.id, projectId, invitationId: 1_000_000 }),
    ).rejects.toMatchObject({ status: 404, message: MEMBER_MESSAGES.invitationNotFound })

    await removeMember(db, documents, { actorId: owner.id, projectId, memberId: member.id })
    await expect(getProject(db, { userId: member.id, projectId })).rejects.toMatchObject({
      status: 404,
    })
  })
})
