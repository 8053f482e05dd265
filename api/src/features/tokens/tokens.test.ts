import { Writable } from 'node:stream'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import {
  API_TOKEN_PATTERN,
  createGraphNode,
  API_TOKENS_PER_USER_MAX,
  type TokenScope,
  TOKEN_MESSAGES,
} from '@reelgraph/shared'
import { sql } from 'kysely'
import pino from 'pino'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../app.ts'
import { storeGeneratedImage } from '../assets/asset-service.ts'
import { addUser, createProjectAs, type TestUser } from '../../testing/members.ts'
import { createTestApp, type TestApp, type TestResponse } from '../../testing/test-app.ts'
import {
  authenticateAuthorization,
  authenticateBearer,
  createApiToken,
  hashApiToken,
  requireTokenScope,
} from './token-service.ts'

const ALL_SCOPES: TokenScope[] = ['projects:read', 'projects:write', 'generate', 'billing:read']

describe.each(testDatabaseKinds())('personal access tokens on $name (issue 41 item 1)', (kind) => {
  let t: TestApp
  let app: ReturnType<typeof createApp>
  let owner: TestUser
  let stranger: TestUser
  let ownProject: number
  let otherProject: number
  let strangersProject: number

  /** A request as a program sends it: the bearer token, no cookie, no Origin. */
  function asProgram(
    token: string,
    method: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, ...options.headers }
    let body: string | undefined
    if (options.body !== undefined) {
      body = JSON.stringify(options.body)
      headers['content-type'] = 'application/json'
      headers['content-length'] = String(Buffer.byteLength(body))
    }
    return Promise.resolve(app.request(path, { method, headers, body })) as Promise<TestResponse>
  }

  /** Makes a token through the API with `owner`'s session, as the settings page does. */
  async function makeToken(body: Record<string, unknown>, user = owner) {
    const res = await t.request('POST', '/api/tokens', { body, cookie: user.cookie })
    expect(res.status).toBe(201)
    return res.json()
  }

  beforeAll(async () => {
    t = await createTestApp(kind)
    app = createApp(t.deps)
    owner = await addUser(t, 'Owner')
    stranger = await addUser(t, 'Stranger')
    ownProject = await createProjectAs(t, owner, 'Blog videos')
    otherProject = await createProjectAs(t, owner, 'Private film')
    strangersProject = await createProjectAs(t, stranger, 'Not yours')
  })
  afterAll(() => t.close())

  it('answers the secret once and stores only its SHA-256', async () => {
    const created = await makeToken({
      name: '  Blog robot ',
      scopes: ['projects:write', 'projects:read'],
      expiresInDays: 30,
    })
    expect(created).toEqual({
      id: expect.any(Number),
      token: expect.stringMatching(API_TOKEN_PATTERN),
      name: 'Blog robot',
      prefix: created.token.slice(0, 8),
      scopes: ['projects:read', 'projects:write'],
      projectIds: null,
      createdAt: expect.any(String),
      lastUsedAt: null,
      expiresAt: expect.any(String),
    })
    const days = (Date.parse(created.expiresAt) - Date.parse(created.createdAt)) / 86_400_000
    expect(days).toBe(30)
    const row = await t.deps.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow()
    expect(Buffer.from(row.token_hash).equals(hashApiToken(created.token))).toBe(true)
    // No column holds the secret.
    const stored = JSON.stringify(row, (_k, v) =>
      v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v,
    )
    expect(stored).not.toContain(created.token.slice(8))
  })

  it('lists tokens without their secrets, newest first', async () => {
    const created = await makeToken({ name: 'Lister', scopes: ['billing:read'] })
    const res = await t.request('GET', '/api/tokens', { cookie: owner.cookie })
    expect(res.status).toBe(200)
    const text = await res.text()
    expect(text).not.toContain(created.token)
    expect(text).not.toContain(created.token.slice(8))
    const list = JSON.parse(text)
    expect(list[0]).toEqual({
      id: created.id,
      name: 'Lister',
      prefix: created.prefix,
      scopes: ['billing:read'],
      projectIds: null,
      createdAt: created.createdAt,
      lastUsedAt: null,
      expiresAt: null,
    })
    // Another account sees none of them.
    const theirs = await (await t.request('GET', '/api/tokens', { cookie: stranger.cookie })).json()
    expect(theirs.map((x: { id: number }) => x.id)).not.toContain(created.id)
  })

  it('lists projects and creates one with Authorization: Bearer, no cookie and no Origin', async () => {
    const { token, id } = await makeToken({
      name: 'Writer',
      scopes: ['projects:read', 'projects:write'],
    })
    const list = await asProgram(token, 'GET', '/api/projects')
    expect(list.status).toBe(200)
    const ids = ((await list.json()) as { id: number }[]).map((p) => p.id)
    expect(ids).toEqual(expect.arrayContaining([ownProject, otherProject]))
    expect(ids).not.toContain(strangersProject)

    const made = await asProgram(token, 'POST', '/api/projects', {
      body: { name: 'From a script' },
    })
    expect(made.status).toBe(201)
    const project = await made.json()
    const row = await t.deps.db
      .selectFrom('projects')
      .select('user_id')
      .where('id', '=', project.id)
      .executeTakeFirstOrThrow()
    expect(row.user_id).toBe(owner.id)
    // Its use shows in the list.
    const listed = await (await t.request('GET', '/api/tokens', { cookie: owner.cookie })).json()
    expect(listed.find((x: { id: number }) => x.id === id).lastUsedAt).toEqual(expect.any(String))
  })

  it('builds a graph and generates into it with a token of those scopes, charged to its owner', async () => {
    const writer = await addUser(t, 'Writer', { credits: 5 })
    const project = await createProjectAs(t, writer, 'Tide pools')
    const { token } = await makeToken(
      { name: 'Agent', scopes: ['projects:read', 'projects:write', 'generate', 'billing:read'] },
      writer,
    )
    const node = createGraphNode('script-generator', { x: 0, y: 0 })
    const graph = await asProgram(token, 'PATCH', `/api/projects/${project}`, {
      body: { nodes: [node], connections: [] },
    })
    expect(graph.status).toBe(200)
    expect((await graph.json()).nodes.map((n: { id: string }) => n.id)).toEqual([node.id])
    const script = await asProgram(token, 'POST', '/api/ai/generate-script', {
      body: {
        style: 'Casual',
        tone: 'Enthusiastic',
        format: 'Tutorial',
        topic: 'Tide pools',
        projectId: project,
        nodeId: node.id,
      },
    })
    expect(script.status).toBe(200)
    expect((await script.json()).script).toMatch(/tide pool/i)
    const credits = await (await asProgram(token, 'GET', '/api/user/credits')).json()
    expect(credits.credits).toBeLessThan(5)
  })

  it('answers 403 naming the scope a token lacks, before reading the body', async () => {
    const { token } = await makeToken({ name: 'Reader', scopes: ['projects:read'] })
    const res = await asProgram(token, 'POST', '/api/ai/generate-script', {
      body: { topic: 'Tides' },
    })
    expect(res.status).toBe(403)
    expect(res.headers.get('www-authenticate')).toContain('insufficient_scope')
    expect(await res.json()).toEqual({
      error: { code: 'INSUFFICIENT_SCOPE', message: 'This token lacks the generate scope.' },
    })
    const write = await asProgram(token, 'POST', '/api/projects', { body: { name: 'No' } })
    expect((await write.json()).error.message).toBe('This token lacks the projects:write scope.')
    const credits = await asProgram(token, 'GET', '/api/user/credits')
    expect((await credits.json()).error.message).toBe('This token lacks the billing:read scope.')
    const billing = await makeToken({ name: 'Accountant', scopes: ['billing:read'] })
    const balance = await asProgram(billing.token, 'GET', '/api/user/credits')
    expect(balance.status).toBe(200)
    expect(await balance.json()).toMatchObject({ credits: expect.any(Number) })
  })

  it('shows a project-limited token other projects as 404, the answer a stranger gets', async () => {
    const { token, projectIds } = await makeToken({
      name: 'One project',
      scopes: ['projects:read', 'projects:write'],
      projectIds: [ownProject, ownProject],
    })
    expect(projectIds).toEqual([ownProject])
    expect((await asProgram(token, 'GET', `/api/projects/${ownProject}`)).status).toBe(200)

    const other = await asProgram(token, 'GET', `/api/projects/${otherProject}`)
    const strangers = await t.request('GET', `/api/projects/${otherProject}`, {
      cookie: stranger.cookie,
    })
    expect(other.status).toBe(404)
    expect(await other.json()).toEqual(await strangers.json())
    for (const [method, path] of [
      ['GET', `/api/projects/${otherProject}/members`],
      ['PATCH', `/api/projects/${otherProject}`],
      ['DELETE', `/api/projects/${otherProject}`],
    ] as const) {
      const res = await asProgram(
        token,
        method,
        path,
        method === 'PATCH' ? { body: { name: 'x' } } : {},
      )
      expect(`${method} ${path} ${res.status}`).toBe(`${method} ${path} 404`)
    }
    const list = (await (await asProgram(token, 'GET', '/api/projects')).json()) as { id: number }[]
    expect(list.map((p) => p.id)).toEqual([ownProject])
    const create = await asProgram(token, 'POST', '/api/projects', { body: { name: 'New' } })
    expect(create.status).toBe(403)
    expect((await create.json()).error.message).toBe(TOKEN_MESSAGES.projectLimited)
    // The same owner's session still sees everything.
    expect(
      (await t.request('GET', `/api/projects/${otherProject}`, { cookie: owner.cookie })).status,
    ).toBe(200)
  })

  it('keeps a project-limited token to its projects’ files too', async () => {
    const png = await sharp({
      create: { width: 8, height: 8, channels: 3, background: '#336699' },
    })
      .png()
      .toBuffer()
    const image = { bytes: new Uint8Array(png), mimeType: 'image/png' }
    const own = await storeGeneratedImage(t.deps.db, t.deps.assets, {
      userId: owner.id,
      projectId: ownProject,
      image,
    })
    const other = await storeGeneratedImage(t.deps.db, t.deps.assets, {
      userId: owner.id,
      projectId: otherProject,
      image,
    })
    const limited = await makeToken({
      name: 'Files of one project',
      scopes: ['projects:read'],
      projectIds: [ownProject],
    })
    const everything = await makeToken({ name: 'All files', scopes: ['projects:read'] })
    expect((await asProgram(limited.token, 'GET', own.url)).status).toBe(200)
    expect((await asProgram(limited.token, 'GET', other.url)).status).toBe(404)
    expect((await asProgram(everything.token, 'GET', other.url)).status).toBe(200)
  })

  it('refuses a token limited to a project that is not the account’s', async () => {
    const res = await t.request('POST', '/api/tokens', {
      cookie: owner.cookie,
      body: { name: 'Sneaky', scopes: ['projects:read'], projectIds: [strangersProject] },
    })
    expect(res.status).toBe(400)
    expect((await res.json()).error.message).toBe(
      `Project ${strangersProject} is not one of your projects.`,
    )
    for (const body of [
      { name: '', scopes: ['projects:read'] },
      { name: 'x'.repeat(81), scopes: ['projects:read'] },
      { name: 'No scopes', scopes: [] },
      { name: 'Bad scope', scopes: ['admin'] },
      { name: 'Forever and a day', scopes: ['generate'], expiresInDays: 367 },
      { name: 'Zero', scopes: ['generate'], expiresInDays: 0 },
    ]) {
      const bad = await t.request('POST', '/api/tokens', { cookie: owner.cookie, body })
      expect(`${JSON.stringify(body)} ${bad.status}`).toBe(`${JSON.stringify(body)} 400`)
    }
  })

  it('answers 401 in words once a token is revoked, or expired', async () => {
    const { token, id } = await makeToken({ name: 'Short-lived', scopes: ['projects:read'] })
    expect((await asProgram(token, 'GET', '/api/projects')).status).toBe(200)
    const revoke = await t.request('DELETE', `/api/tokens/${id}`, { cookie: owner.cookie })
    expect(revoke.status).toBe(200)
    const after = await asProgram(token, 'GET', '/api/projects')
    expect(after.status).toBe(401)
    expect(after.headers.get('www-authenticate')).toContain('invalid_token')
    expect(await after.json()).toEqual({
      error: { code: 'UNAUTHENTICATED', message: TOKEN_MESSAGES.revoked },
    })
    // Gone from the list; revoking again, or someone else's token, is a 404.
    const list = await (await t.request('GET', '/api/tokens', { cookie: owner.cookie })).json()
    expect(list.map((x: { id: number }) => x.id)).not.toContain(id)
    expect((await t.request('DELETE', `/api/tokens/${id}`, { cookie: owner.cookie })).status).toBe(
      404,
    )
    const mine = await makeToken({ name: 'Mine', scopes: ['projects:read'] })
    const theirs = await t.request('DELETE', `/api/tokens/${mine.id}`, { cookie: stranger.cookie })
    expect(theirs.status).toBe(404)
    expect((await asProgram(mine.token, 'GET', '/api/projects')).status).toBe(200)

    const expiring = await makeToken({ name: 'A day', scopes: ['projects:read'], expiresInDays: 1 })
    expect((await asProgram(expiring.token, 'GET', '/api/projects')).status).toBe(200)
    await t.deps.db
      .updateTable('api_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', expiring.id)
      .execute()
    const expired = await asProgram(expiring.token, 'GET', '/api/projects')
    expect(expired.status).toBe(401)
    expect((await expired.json()).error.message).toBe(TOKEN_MESSAGES.expired)

    const forged = await asProgram(`rg_${'A'.repeat(43)}`, 'GET', '/api/projects')
    expect(forged.status).toBe(401)
    expect((await forged.json()).error.message).toBe(TOKEN_MESSAGES.invalid)
    expect((await asProgram('not-a-token', 'GET', '/api/projects')).status).toBe(401)
  })

  it('keeps the account, sharing, billing changes and the tokens themselves to the session', async () => {
    const { token } = await makeToken({ name: 'Everything', scopes: ALL_SCOPES })
    for (const [method, path, body] of [
      ['GET', '/api/tokens', undefined],
      ['POST', '/api/tokens', { name: 'Child', scopes: ['generate'] }],
      ['GET', '/api/user', undefined],
      ['POST', '/api/logout', {}],
      ['POST', '/api/subscription/cancel', {}],
      [
        'POST',
        `/api/projects/${ownProject}/invitations`,
        { email: 'a@example.com', role: 'editor' },
      ],
    ] as const) {
      const res = await asProgram(token, method, path, body === undefined ? {} : { body })
      expect(`${method} ${path} ${res.status}`).toBe(`${method} ${path} 403`)
      expect(await res.json()).toEqual({
        error: { code: 'SESSION_REQUIRED', message: TOKEN_MESSAGES.sessionOnly },
      })
    }
  })

  it('ignores the cookie of a bearer request, and keeps the Origin rule for cookies', async () => {
    const { token } = await makeToken({
      name: 'Limited',
      scopes: ['projects:read'],
      projectIds: [ownProject],
    })
    const both = await asProgram(token, 'GET', '/api/projects', {
      headers: { cookie: owner.cookie },
    })
    expect(((await both.json()) as { id: number }[]).map((p) => p.id)).toEqual([ownProject])
    const badTokenGoodCookie = await asProgram(`rg_${'B'.repeat(43)}`, 'GET', '/api/projects', {
      headers: { cookie: owner.cookie },
    })
    expect(badTokenGoodCookie.status).toBe(401)
    // A cookie-session POST without Origin is still refused; Basic credentials are no token.
    const noOrigin = (await app.request('/api/projects', {
      method: 'POST',
      headers: {
        cookie: owner.cookie,
        authorization: 'Basic dXNlcjpwYXNz',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ name: 'CSRF' }),
    })) as TestResponse
    expect(noOrigin.status).toBe(403)
    expect((await noOrigin.json()).error.code).toBe('FORBIDDEN_ORIGIN')
  })

  it('writes last used at most once a minute per token', async () => {
    const created = await createApiToken(t.deps.db, {
      userId: owner.id,
      name: 'Clock',
      scopes: ['projects:read'],
    })
    const lastUsed = async () =>
      (
        await t.deps.db
          .selectFrom('api_tokens')
          .select('last_used_at')
          .where('id', '=', created.id)
          .executeTakeFirstOrThrow()
      ).last_used_at?.getTime()
    const start = new Date('2030-01-01T10:00:00Z')
    const actor = await authenticateBearer(t.deps.db, { token: created.token, now: start })
    expect(actor).toMatchObject({
      tokenId: created.id,
      scopes: ['projects:read'],
      projectIds: null,
    })
    expect(actor.user.id).toBe(owner.id)
    expect(await lastUsed()).toBe(start.getTime())
    await authenticateBearer(t.deps.db, {
      token: created.token,
      now: new Date(start.getTime() + 59_000),
    })
    expect(await lastUsed()).toBe(start.getTime())
    const later = new Date(start.getTime() + 60_000)
    await authenticateBearer(t.deps.db, { token: created.token, now: later })
    expect(await lastUsed()).toBe(later.getTime())
  })

  it('turns an Authorization header into its actor for callers outside REST (the MCP server)', async () => {
    const { token, id } = await createApiToken(t.deps.db, {
      userId: owner.id,
      name: 'Agent',
      scopes: ['generate', 'projects:read'],
      projectIds: [ownProject],
    })
    const actor = await authenticateAuthorization(t.deps.db, { authorization: `bearer  ${token}` })
    expect(actor).toMatchObject({ tokenId: id, scopes: ['projects:read', 'generate'] })
    expect(actor.projectIds).toEqual([ownProject])
    expect(() => requireTokenScope(actor, 'generate')).not.toThrow()
    expect(() => requireTokenScope(actor, 'projects:write')).toThrow(
      'This token lacks the projects:write scope.',
    )
    for (const authorization of [undefined, `Basic ${token}`, token]) {
      await expect(authenticateAuthorization(t.deps.db, { authorization })).rejects.toThrow(
        TOKEN_MESSAGES.badHeader,
      )
    }
  })

  it(`holds at most ${API_TOKENS_PER_USER_MAX} live tokens per account`, async () => {
    const user = await addUser(t, 'Collector')
    // Straight in the database (one statement), all live; a revoked one does not count.
    await t.deps.db
      .insertInto('api_tokens')
      .values(
        Array.from({ length: API_TOKENS_PER_USER_MAX }, (_, i) => ({
          user_id: user.id,
          name: `T${i}`,
          token_hash: hashApiToken(`rg_${i}`),
          display_prefix: 'rg_xxxxx',
          scopes: sql<string[]>`array['generate']::text[]`,
          revoked_at: i === 0 ? new Date() : null,
        })),
      )
      .execute()
    const last = await t.request('POST', '/api/tokens', {
      cookie: user.cookie,
      body: { name: 'The last one', scopes: ['generate'] },
    })
    expect(last.status).toBe(201)
    const res = await t.request('POST', '/api/tokens', {
      cookie: user.cookie,
      body: { name: 'One more', scopes: ['generate'] },
    })
    expect(res.status).toBe(400)
    expect((await res.json()).error.message).toBe(TOKEN_MESSAGES.tooMany)
  })

  it('never writes the Authorization header or the token to a log line, even on a 500', async () => {
    const lines: string[] = []
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk))
        done()
      },
    })
    // A logger without redaction: what our code logs must not hold the token at all.
    const logger = pino({ level: 'trace' }, sink)
    const failing = new Proxy(t.deps.documents, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver)
        return typeof value === 'function'
          ? () => Promise.reject(new Error('the document store is down'))
          : value
      },
    })
    const logged = createApp({ ...t.deps, logger, documents: failing })
    const { token, id } = await makeToken({ name: 'Logged', scopes: ALL_SCOPES })
    const call = (method: string, path: string, body?: unknown) =>
      logged.request(path, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    expect((await call('GET', '/api/projects')).status).toBe(200)
    expect((await call('GET', '/api/tokens')).status).toBe(403)
    const crash = await call('PATCH', `/api/projects/${ownProject}`, { nodes: [], connections: [] })
    expect(crash.status).toBe(500)
    await t.request('DELETE', `/api/tokens/${id}`, { cookie: owner.cookie })
    expect((await call('GET', '/api/projects')).status).toBe(401)
    const text = lines.join('')
    expect(text).toMatch(/unhandled error|server error/)
    expect(lines.length).toBeGreaterThanOrEqual(5)
    expect(text).not.toContain(token)
    expect(text).not.toContain(token.slice(3))
    expect(text.toLowerCase()).not.toContain('bearer')
  })
})
