import { testDatabaseKinds } from '@reelgraph/db/testing'
import { MEMBER_MESSAGES } from '@reelgraph/shared'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { LOOSE_RATE_LIMITS } from '../../testing/test-app.ts'
import { createRateLimits } from '../../services/rate-limiter.ts'
import { addMember, addUser, createProjectAs, type TestUser } from '../../testing/members.ts'
import { createTestApp, linkIn, sessionCookieFrom, type TestApp } from '../../testing/test-app.ts'

describe.each(testDatabaseKinds())('project members and invitations on $name', (kind) => {
  let t: TestApp
  let owner: TestUser
  let closeUserConnections: ReturnType<typeof vi.spyOn>

  beforeAll(async () => {
    t = await createTestApp(kind)
    owner = await addUser(t, 'Olive')
    // The real gateway (the sync server of the test app), recorded.
    closeUserConnections = vi.spyOn(t.deps.documents, 'closeUserConnections')
  })
  beforeEach(() => {
    closeUserConnections.mockClear()
  })
  afterAll(() => t.close())

  function invite(projectId: number, body: unknown, cookie = owner.cookie) {
    return t.request('POST', `/api/projects/${projectId}/invitations`, { body, cookie })
  }

  function accept(token: string, cookie?: string) {
    return t.request('POST', '/api/invitations/accept', { body: { token }, cookie })
  }

  async function members(projectId: number, cookie = owner.cookie) {
    const res = await t.request('GET', `/api/projects/${projectId}/members`, { cookie })
    return { status: res.status, body: await res.json() }
  }

  /** The invitation emails sent to `email`, newest last, as their link tokens. */
  async function invitationTokens(email: string): Promise<string[]> {
    const mails = (await t.emailsTo(email)).filter((m) => /invited you to/.test(m))
    return mails.map((m) => new URL(linkIn(m)).searchParams.get('token') ?? '')
  }

  async function invitedToken(projectId: number, email: string, role = 'editor') {
    const res = await invite(projectId, { email, role })
    expect(res.status).toBe(201)
    return (await invitationTokens(email)).at(-1) ?? ''
  }

  function newEmail(name: string): string {
    return `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`
  }

  it('answers a path id that is not an id with a 404 naming what is missing, and documents the path ids (issue 14)', async () => {
    const projectId = await createProjectAs(t, owner, 'Path ids')
    const cases: [string, string, string][] = [
      ['GET', '/api/projects/abc/members', 'This project does not exist'],
      ['DELETE', `/api/projects/${projectId}/invitations/0`, MEMBER_MESSAGES.invitationNotFound],
      ['DELETE', `/api/projects/007/invitations/1`, 'This project does not exist'],
      ['DELETE', `/api/projects/${projectId}/members/abc`, MEMBER_MESSAGES.memberNotFound],
      ['PATCH', `/api/projects/${projectId}/members/2147483648`, MEMBER_MESSAGES.memberNotFound],
    ]
    for (const [method, path, message] of cases) {
      const body = method === 'PATCH' ? { role: 'viewer' } : undefined
      const res = await t.request(method, path, { body, cookie: owner.cookie })
      expect(res.status, path).toBe(404)
      expect((await res.json()).error.message, path).toContain(message)
    }
    // validate('param', ...) puts the ids in the OpenAPI document.
    const doc = await (await t.request('GET', '/api/openapi.json')).json()
    const parameters = (path: string, method: string) =>
      (doc.paths[path][method].parameters ?? []).map(
        (p: { name: string; in: string }) => `${p.in}:${p.name}`,
      )
    expect(parameters('/projects/{id}/members/{userId}', 'delete')).toEqual(
      expect.arrayContaining(['path:id', 'path:userId']),
    )
    expect(parameters('/projects/{id}', 'get')).toContain('path:id')
  })

  it('invites by email; the emailed link previews and, accepted, makes a member', async () => {
    const projectId = await createProjectAs(t, owner, 'Harbour film')
    const email = newEmail('ivy')
    const res = await invite(projectId, { email: `  ${email.toUpperCase()} `, role: 'editor' })
    expect(res.status).toBe(201)
    const invitation = await res.json()
    expect(invitation).toEqual({
      id: expect.any(Number),
      email,
      role: 'editor',
      invitedAt: expect.any(String),
      expiresAt: expect.any(String),
    })
    const ttl = Date.parse(invitation.expiresAt) - Date.parse(invitation.invitedAt)
    expect(ttl).toBe(7 * 24 * 60 * 60 * 1000)

    const [mail] = (await t.emailsTo(email)).filter((m) => /invited you to/.test(m))
    expect(mail).toMatch(/^Subject: Olive invited you to Harbour film on Reelgraph$/m)
    const text = (mail ?? '').replace(/=\r?\n/g, '')
    expect(text).toMatch(/as an editor/)
    expect(text).toMatch(/7 days/)
    const link = new URL(linkIn(mail ?? ''))
    expect(`${link.origin}${link.pathname}`).toBe('http://localhost:3000/invite')
    const token = link.searchParams.get('token') ?? ''

    const preview = await t.request('GET', `/api/invitations/${token}`)
    expect(preview.status).toBe(200)
    expect(await preview.json()).toEqual({
      projectName: 'Harbour film',
      inviterName: 'Olive',
      role: 'editor',
      email,
    })
    expect((await members(projectId)).body.invitations).toEqual([invitation])

    const ivy = await addUser(t, 'Ivy', { email })
    expect((await accept(token)).status).toBe(401)
    const accepted = await accept(token, ivy.cookie)
    expect(accepted.status).toBe(200)
    expect(await accepted.json()).toEqual({ projectId, role: 'editor' })

    const project = await t.request('GET', `/api/projects/${projectId}`, { cookie: ivy.cookie })
    expect(await project.json()).toMatchObject({ role: 'editor', ownerName: 'Olive' })
    const list = await members(projectId)
    expect(list.body.invitations).toEqual([])
    expect(list.body.members).toMatchObject([
      { userId: owner.id, role: 'owner', name: 'Olive' },
      { userId: ivy.id, role: 'editor', name: 'Ivy', email },
    ])
    const user = await t.deps.db
      .selectFrom('users')
      .select('email_verified_at')
      .where('id', '=', ivy.id)
      .executeTakeFirstOrThrow()
    expect(user.email_verified_at).toBeInstanceOf(Date)

    // Used once: previewing or accepting again is refused.
    const again = await accept(token, ivy.cookie)
    expect(again.status).toBe(404)
    expect((await again.json()).error.message).toBe(MEMBER_MESSAGES.invitationInvalid)
    expect((await t.request('GET', `/api/invitations/${token}`)).status).toBe(404)
  })

  it('lets someone without an account register with the invited address, then accept', async () => {
    const projectId = await createProjectAs(t, owner)
    const email = newEmail('newcomer')
    const token = await invitedToken(projectId, email, 'viewer')
    const reg = await t.request('POST', '/api/register', {
      body: { name: 'Nina', email: email.toUpperCase(), password: 'paper lantern river' },
    })
    const res = await accept(token, sessionCookieFrom(reg))
    expect(await res.json()).toEqual({ projectId, role: 'viewer' })
  })

  it('refuses another account with 403 and changes nothing', async () => {
    const projectId = await createProjectAs(t, owner)
    const token = await invitedToken(projectId, newEmail('right'))
    const wrong = await addUser(t, 'Wanda')
    const res = await accept(token, wrong.cookie)
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({
      error: { code: 'FORBIDDEN', message: MEMBER_MESSAGES.invitationWrongAccount },
    })
    expect((await members(projectId)).body.members).toHaveLength(1)
    expect((await members(projectId)).body.invitations).toHaveLength(1)
  })

  it('refuses an expired invitation, an unknown token and a malformed one with 404', async () => {
    const projectId = await createProjectAs(t, owner)
    const email = newEmail('late')
    const token = await invitedToken(projectId, email)
    await t.deps.db
      .updateTable('project_invitations')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('email', '=', email)
      .execute()
    const late = await addUser(t, 'Lee', { email })
    for (const res of [
      await accept(token, late.cookie),
      await t.request('GET', `/api/invitations/${token}`),
      await accept('a'.repeat(32), late.cookie),
      await t.request('GET', `/api/invitations/${'x'.repeat(300)}`),
    ]) {
      expect(res.status).toBe(404)
      expect((await res.json()).error.message).toBe(MEMBER_MESSAGES.invitationInvalid)
    }
    expect((await members(projectId)).body.members).toHaveLength(1)
    // An expired invitation is no longer listed as open.
    expect((await members(projectId)).body.invitations).toEqual([])
  })

  it('adds one member when the same link is accepted several times at once', async () => {
    const projectId = await createProjectAs(t, owner)
    const email = newEmail('twice')
    const token = await invitedToken(projectId, email, 'viewer')
    const user = await addUser(t, 'Tom', { email })
    const results = await Promise.all(Array.from({ length: 4 }, () => accept(token, user.cookie)))
    expect(results.map((r) => r.status).sort()).toEqual([200, 404, 404, 404])
    const rows = await t.deps.db
      .selectFrom('project_members')
      .select('role')
      .where('project_id', '=', projectId)
      .where('user_id', '=', user.id)
      .execute()
    expect(rows).toEqual([{ role: 'viewer' }])
  })

  it('keeps an existing member’s role when they accept another invitation', async () => {
    const projectId = await createProjectAs(t, owner)
    const email = newEmail('keeper')
    const token = await invitedToken(projectId, email, 'viewer')
    const member = await addUser(t, 'Kim', { email })
    // Made an editor meanwhile (e.g. by an earlier invitation).
    await addMember(t, projectId, member.id, 'editor')
    const res = await accept(token, member.cookie)
    expect(await res.json()).toEqual({ projectId, role: 'editor' })
    expect((await members(projectId)).body.invitations).toEqual([])
  })

  it('replaces an open invitation when the address is invited again', async () => {
    const projectId = await createProjectAs(t, owner)
    const email = newEmail('again')
    const first = await invitedToken(projectId, email, 'viewer')
    const second = await invitedToken(projectId, email, 'editor')
    expect(second).not.toBe(first)
    expect(await invitationTokens(email)).toHaveLength(2)
    expect((await members(projectId)).body.invitations).toMatchObject([{ email, role: 'editor' }])
    const user = await addUser(t, 'Ada', { email })
    expect((await accept(first, user.cookie)).status).toBe(404)
    expect(await (await accept(second, user.cookie)).json()).toEqual({ projectId, role: 'editor' })
  })

  it('lets only the owner invite; refuses members, the owner’s own address and bad input', async () => {
    const projectId = await createProjectAs(t, owner)
    const editor = await addUser(t, 'Eddie')
    const viewer = await addUser(t, 'Vera')
    const stranger = await addUser(t, 'Sam')
    await addMember(t, projectId, editor.id, 'editor')
    await addMember(t, projectId, viewer.id, 'viewer')
    const body = { email: newEmail('someone'), role: 'viewer' }

    const expectations: [TestUser, number, string][] = [
      [editor, 403, MEMBER_MESSAGES.ownerOnly],
      [viewer, 403, MEMBER_MESSAGES.ownerOnly],
      [stranger, 404, 'This project does not exist, or you do not have access to it.'],
    ]
    for (const [who, status, message] of expectations) {
      const res = await invite(projectId, body, who.cookie)
      expect(res.status, who.name).toBe(status)
      expect((await res.json()).error.message).toBe(message)
    }

    const member = await invite(projectId, { email: editor.email.toUpperCase(), role: 'viewer' })
    expect(member.status).toBe(409)
    expect(await member.json()).toMatchObject({
      error: { code: 'ALREADY_MEMBER', message: MEMBER_MESSAGES.alreadyMember },
    })
    const self = await invite(projectId, { email: owner.email.toUpperCase(), role: 'editor' })
    expect(self.status).toBe(400)
    expect((await self.json()).error.fields.email).toBe(MEMBER_MESSAGES.inviteSelf)

    const bad = await invite(projectId, { email: 'not an email', role: 'owner' })
    expect(bad.status).toBe(400)
    const { error } = await bad.json()
    expect(error.code).toBe('VALIDATION_FAILED')
    expect(error.fields.email).toBe('Please enter a valid email address')
    expect(error.fields.role).toBe('Choose a role: editor or viewer.')

    const stored = await t.deps.db
      .selectFrom('project_invitations')
      .select('id')
      .where('project_id', '=', projectId)
      .execute()
    expect(stored).toEqual([])
    expect(await t.emailsTo(body.email)).toEqual([])
  })

  it('lists members owner first then by name, invitations for the owner only', async () => {
    const projectId = await createProjectAs(t, owner)
    const zed = await addUser(t, 'Zed')
    const amy = await addUser(t, 'amy')
    await addMember(t, projectId, zed.id, 'editor')
    await addMember(t, projectId, amy.id, 'viewer')
    await invite(projectId, { email: newEmail('pending'), role: 'viewer' })

    const asOwner = await members(projectId)
    expect(asOwner.body.role).toBe('owner')
    expect(asOwner.body.members.map((m: { name: string }) => m.name)).toEqual([
      'Olive',
      'amy',
      'Zed',
    ])
    expect(asOwner.body.invitations).toHaveLength(1)
    const asViewer = await members(projectId, amy.cookie)
    expect(asViewer.status).toBe(200)
    expect(asViewer.body).toMatchObject({ role: 'viewer', invitations: [] })
    expect(asViewer.body.members).toHaveLength(3)
    const stranger = await addUser(t, 'Sam')
    expect((await members(projectId, stranger.cookie)).status).toBe(404)
    expect((await t.request('GET', `/api/projects/${projectId}/members`)).status).toBe(401)
  })

  it('changes a role (owner only) and closes the member’s connections', async () => {
    const projectId = await createProjectAs(t, owner)
    const editor = await addUser(t, 'Eddie')
    const viewer = await addUser(t, 'Vera')
    await addMember(t, projectId, editor.id, 'editor')
    await addMember(t, projectId, viewer.id, 'viewer')
    const change = (userId: number | string, body: unknown, cookie = owner.cookie) =>
      t.request('PATCH', `/api/projects/${projectId}/members/${userId}`, { body, cookie })

    const res = await change(viewer.id, { role: 'editor' })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      userId: viewer.id,
      name: 'Vera',
      email: viewer.email,
      role: 'editor',
      joinedAt: expect.any(String),
    })
    expect(closeUserConnections).toHaveBeenCalledExactlyOnceWith(projectId, viewer.id)
    closeUserConnections.mockClear()

    const refusals: [Promise<Response>, number, string][] = [
      [change(owner.id, { role: 'viewer' }), 400, MEMBER_MESSAGES.ownerRoleFixed],
      [change(999_999, { role: 'viewer' }), 404, MEMBER_MESSAGES.memberNotFound],
      [change('abc', { role: 'viewer' }), 404, MEMBER_MESSAGES.memberNotFound],
      [change(viewer.id, { role: 'viewer' }, editor.cookie), 403, MEMBER_MESSAGES.ownerOnly],
      [change(viewer.id, { role: 'owner' }), 400, 'Choose a role: editor or viewer.'],
    ]
    for (const [pending, status, message] of refusals) {
      const refused = await pending
      expect(refused.status).toBe(status)
      expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(message)
    }
    expect(closeUserConnections).not.toHaveBeenCalled()
    const roles = (await members(projectId)).body.members.map((m: { role: string }) => m.role)
    expect(roles.sort()).toEqual(['editor', 'editor', 'owner'])
  })

  it('removes a member (owner), lets a member leave, never the owner', async () => {
    const projectId = await createProjectAs(t, owner)
    const editor = await addUser(t, 'Eddie')
    const viewer = await addUser(t, 'Vera')
    await addMember(t, projectId, editor.id, 'editor')
    await addMember(t, projectId, viewer.id, 'viewer')
    const remove = (userId: number, cookie: string) =>
      t.request('DELETE', `/api/projects/${projectId}/members/${userId}`, { cookie })

    const notOwner = await remove(editor.id, viewer.cookie)
    expect(notOwner.status).toBe(403)
    expect((await notOwner.json()).error.message).toBe(MEMBER_MESSAGES.ownerOnly)
    const ownerLeaves = await remove(owner.id, owner.cookie)
    expect(ownerLeaves.status).toBe(400)
    expect((await ownerLeaves.json()).error.message).toBe(MEMBER_MESSAGES.ownerCannotLeave)
    const removeOwner = await remove(owner.id, editor.cookie)
    expect(removeOwner.status).toBe(403)
    expect(closeUserConnections).not.toHaveBeenCalled()

    expect((await remove(editor.id, owner.cookie)).status).toBe(200)
    expect(closeUserConnections).toHaveBeenCalledExactlyOnceWith(projectId, editor.id)
    expect(
      (await t.request('GET', `/api/projects/${projectId}`, { cookie: editor.cookie })).status,
    ).toBe(404)
    const gone = await remove(editor.id, owner.cookie)
    expect(gone.status).toBe(404)
    expect((await gone.json()).error.message).toBe(MEMBER_MESSAGES.memberNotFound)

    closeUserConnections.mockClear()
    expect((await remove(viewer.id, viewer.cookie)).status).toBe(200)
    expect(closeUserConnections).toHaveBeenCalledExactlyOnceWith(projectId, viewer.id)
    expect((await members(projectId)).body.members).toMatchObject([{ userId: owner.id }])
  })

  it('withdraws an invitation (owner only); its link stops working', async () => {
    const projectId = await createProjectAs(t, owner)
    const other = await createProjectAs(t, owner)
    const editor = await addUser(t, 'Eddie')
    await addMember(t, projectId, editor.id, 'editor')
    const email = newEmail('revoked')
    const token = await invitedToken(projectId, email)
    const [{ id }] = (await members(projectId)).body.invitations
    const revoke = (project: number, cookie = owner.cookie, invitationId: number | string = id) =>
      t.request('DELETE', `/api/projects/${project}/invitations/${invitationId}`, { cookie })

    expect((await revoke(projectId, editor.cookie)).status).toBe(403)
    const elsewhere = await revoke(other)
    expect(elsewhere.status).toBe(404)
    expect((await elsewhere.json()).error.message).toBe(MEMBER_MESSAGES.invitationNotFound)
    expect((await revoke(projectId, owner.cookie, 'x1')).status).toBe(404)
    expect((await revoke(projectId)).status).toBe(200)
    expect((await revoke(projectId)).status).toBe(404)
    expect((await t.request('GET', `/api/invitations/${token}`)).status).toBe(404)
    expect((await members(projectId)).body.invitations).toEqual([])
  })

  it('limits the invitations a user sends, answering 429', async () => {
    const projectId = await createProjectAs(t, owner)
    const loose = t.deps.rateLimits.invitationsPerUser
    t.deps.rateLimits.invitationsPerUser = createRateLimits({
      ...LOOSE_RATE_LIMITS,
      invitationsPerUser: { points: 2, durationSeconds: 3600, blockSeconds: 3600 },
    }).invitationsPerUser
    try {
      for (const expected of [201, 201, 429]) {
        const res = await invite(projectId, { email: newEmail('many'), role: 'viewer' })
        expect(res.status).toBe(expected)
        if (expected === 429) {
          expect((await res.json()).error.code).toBe('RATE_LIMITED')
          expect(res.headers.get('retry-after')).toMatch(/^\d+$/)
        }
      }
      expect((await members(projectId)).body.invitations).toHaveLength(2)
    } finally {
      t.deps.rateLimits.invitationsPerUser = loose
    }
  })

  it('refuses state changes from another origin', async () => {
    const projectId = await createProjectAs(t, owner)
    const headers = { origin: 'https://evil.example' }
    const calls: [string, string, unknown?][] = [
      ['POST', `/api/projects/${projectId}/invitations`, { email: newEmail('x'), role: 'viewer' }],
      ['PATCH', `/api/projects/${projectId}/members/${owner.id}`, { role: 'viewer' }],
      ['DELETE', `/api/projects/${projectId}/members/${owner.id}`],
      ['DELETE', `/api/projects/${projectId}/invitations/1`],
      ['POST', '/api/invitations/accept', { token: 'a'.repeat(32) }],
    ]
    for (const [method, path, body] of calls) {
      const res = await t.request(method, path, { body, cookie: owner.cookie, headers })
      expect(res.status, `${method} ${path}`).toBe(403)
      expect((await res.json()).error.code).toBe('FORBIDDEN_ORIGIN')
    }
  })
})
