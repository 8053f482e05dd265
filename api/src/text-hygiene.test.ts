import { testDatabaseKinds } from '@reelgraph/db/testing'
import { createNodeId, type GraphNode, TEXT_PROBLEMS } from '@reelgraph/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, sessionCookieFrom, type TestApp } from './testing/test-app.ts'

/**
 * Issue 11 (REST text hygiene): every string the API accepts refuses U+0000 and unpaired
 * surrogates with a 400 naming the field, and nothing is stored. On main a NUL in a node
 * label answered 500 after 15 s, stayed in the live document and failed every later store.
 */

const NUL = 'bad\u0000text'
const SURROGATE = 'bad\ud800text'

function node(patch: Partial<GraphNode> = {}): GraphNode {
  return {
    id: createNodeId('scene'),
    type: 'scene',
    label: 'Scene',
    position: { x: 0, y: 0 },
    data: { narration: 'fine' },
    connectionPoints: 'both',
    ...patch,
  }
}

describe.each(testDatabaseKinds())('text hygiene on $name (issue 11)', (kind) => {
  let t: TestApp
  let cookie: string | undefined
  let projectId: number
  let counter = 0
  const kept = node()

  beforeAll(async () => {
    t = await createTestApp(kind)
    const res = await t.request('POST', '/api/register', {
      body: { name: 'Ada', email: 'ada-hygiene@example.com', password: 'paper lantern river' },
    })
    cookie = sessionCookieFrom(res)
    const created = await t.request('POST', '/api/projects', {
      body: { name: 'Kept', nodes: [kept], connections: [] },
      cookie,
    })
    projectId = ((await created.json()) as { id: number }).id
  })
  afterAll(() => t.close())

  const projectState = async () =>
    (await t.request('GET', `/api/projects/${projectId}`, { cookie })).json()
  const counts = async () => ({
    users: (await t.deps.db.selectFrom('users').select('id').execute()).length,
    projects: (await t.deps.db.selectFrom('projects').select('id').execute()).length,
    ledger: (await t.deps.db.selectFrom('credit_transactions').select('id').execute()).length,
  })

  type Case = [string, () => [method: string, path: string, body: unknown, anonymous?: boolean]]
  const cases = (bad: string): Case[] => [
    [
      'name',
      () => [
        'POST',
        '/api/register',
        { name: bad, email: `n${++counter}@example.com`, password: 'paper lantern river' },
        true,
      ],
    ],
    [
      'email',
      () => [
        'POST',
        '/api/register',
        { name: 'Lin', email: `l${++counter}${bad}@example.com`, password: 'paper lantern river' },
        true,
      ],
    ],
    ['name', () => ['POST', '/api/projects', { name: bad }]],
    ['name', () => ['PATCH', `/api/projects/${projectId}`, { name: bad }]],
    ['nodes.0.label', () => ['PATCH', `/api/projects/${projectId}`, graphWith({ label: bad })]],
    [
      'nodes.0.data.narration',
      () => ['PATCH', `/api/projects/${projectId}`, graphWith({ data: { narration: bad } })],
    ],
    [
      `nodes.0.data.${bad}`,
      () => ['PATCH', `/api/projects/${projectId}`, graphWith({ data: { [bad]: 'value' } })],
    ],
    ['email', () => ['POST', `/api/projects/${projectId}/invitations`, invite(bad)]],
    [
      'topic',
      () => [
        'POST',
        '/api/ai/generate-script',
        { style: 'Casual', tone: 'Enthusiastic', format: 'Tutorial', topic: bad },
      ],
    ],
  ]
  const graphWith = (patch: Partial<GraphNode>) => ({
    nodes: [node(patch)],
    connections: [],
  })
  const invite = (bad: string) => ({ email: `x${bad}@example.com`, role: 'editor' })

  for (const [what, bad, problem] of [
    ['U+0000', NUL, TEXT_PROBLEMS.nul],
    ['an unpaired surrogate', SURROGATE, TEXT_PROBLEMS.surrogate],
  ] as const) {
    it.each(cases(bad))(`refuses ${what} in %s with 400, storing nothing`, async (field, make) => {
      const [method, path, body, anonymous] = make()
      const before = await counts()
      const graphBefore = await projectState()
      const started = performance.now()
      const res = await t.request(method, path, { body, cookie: anonymous ? undefined : cookie })
      expect(res.status).toBe(400)
      const { error } = (await res.json()) as {
        error: { code: string; message: string; fields: Record<string, string> }
      }
      expect(error.code).toBe('VALIDATION_FAILED')
      expect(error.fields[field]).toBe(`This text ${problem}`)
      expect(error.message).toContain(problem)
      // Refused at once, not after a store timed out.
      expect(performance.now() - started).toBeLessThan(5_000)
      expect(await counts()).toEqual(before)
      expect(await projectState()).toEqual(graphBefore)
    })
  }

  it('still takes well-formed text of every script, emoji included', async () => {
    const text = 'ünïcödé — 日本語 — 🎬🎞️ — \u00a0tab\tline\nend'
    const res = await t.request('PATCH', `/api/projects/${projectId}`, {
      body: graphWith({ label: 'Émoji 🎬', data: { narration: text } }),
      cookie,
    })
    expect(res.status).toBe(200)
    const project = (await projectState()) as { nodes: GraphNode[] }
    expect(project.nodes[0]?.data.narration).toBe(text)
  })
})
