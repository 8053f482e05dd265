import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { createAdaptorServer } from '@hono/node-server'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { testDatabaseKinds } from '@reelgraph/db/testing'
import {
  BATCH_MESSAGES,
  makeVideoCost,
  MCP_PATH,
  type TemplateSettings,
  TOKEN_MESSAGES,
  type TokenScope,
} from '@reelgraph/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { balance, liveGraph } from '../../testing/jobs.ts'
import { addUser, createProjectAs, type TestUser } from '../../testing/members.ts'
import { itRendersOn } from '../../testing/renders.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { until } from '../../testing/until.ts'
import { builtinGraph } from '../templates/builtin-templates.ts'

/**
 * The MCP tools of issue 42 ("batches are driven by tokens and MCP too"), driven by the MCP
 * SDK's own client over Streamable HTTP against the app on a socket: templates listed and a
 * project made from one, a batch quoted (a bad row refused naming it, nothing stored), and
 * started and followed to its MP4 once; a run of what is stale priced; what a token may not do
 * comes back as a tool error in words.
 */

const run = promisify(execFile)
const COSTS = {
  COST_SCRIPT: '1',
  COST_SCENES: '1',
  COST_IMAGE: '2',
  COST_VOICE: '1',
  COST_VIDEO: '3',
}
const costs = { script: 1, scenes: 1, image: 2, voice: 1, video: 3 }
/** A short template's settings: one 15-second scene, so its one render stays cheap. */
const SHORT: TemplateSettings = { preset: '9:16', targetSeconds: 15, sceneCount: 1, voice: '' }
const BATCH_DONE_MS = 180_000

/** The structured answer of a successful call; fails the test on a tool error. */
function answer<T = Record<string, any>>(result: unknown): T {
  const call = result as CallToolResult
  if (call.isError) throw new Error(`tool error: ${JSON.stringify(call.content)}`)
  const text = (call.content[0] as { text: string }).text
  expect(JSON.parse(text)).toEqual(call.structuredContent)
  return JSON.parse(text) as T
}

/** The words of a tool error; fails the test on a success. */
function errorText(result: unknown): string {
  const call = result as CallToolResult
  expect(call.isError).toBe(true)
  return (call.content[0] as { text: string }).text
}

describe.each(testDatabaseKinds())(
  'MCP templates, batches and runs on $name (issue 42)',
  (kind) => {
    const itRenders = itRendersOn(kind)
    let t: TestApp
    let http: Server
    let base: string
    const clients: Client[] = []

    beforeAll(async () => {
      t = await createTestApp(kind, undefined, { JOB_WAIT_MS: '0', ...COSTS })
      http = createAdaptorServer({ fetch: t.app.fetch }) as Server
      await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
      base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
    })
    afterAll(async () => {
      await Promise.all(clients.map((c) => c.close()))
      await new Promise((resolve) => http.close(resolve))
      await t.close()
    })

    /** An MCP client of `user`'s, with a token of `scopes` made through the API. */
    async function agent(user: TestUser, scopes: TokenScope[], projectIds?: number[]) {
      const res = await t.request('POST', '/api/tokens', {
        body: { name: 'Agent', scopes, ...(projectIds ? { projectIds } : {}) },
        cookie: user.cookie,
      })
      expect(res.status).toBe(201)
      const { token } = (await res.json()) as { token: string }
      const client = new Client({ name: 'test-agent', version: '1.0.0' })
      await client.connect(
        new StreamableHTTPClientTransport(new URL(MCP_PATH, base), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
        }),
      )
      clients.push(client)
      return { client, token }
    }

    /** A template of `owner`'s: one Script Generator whose topic is `{{topic}}`, {@link SHORT}. */
    async function shortTemplate(owner: TestUser) {
      const graph = builtinGraph({
        key: '',
        name: 'Short',
        description: '',
        topic: '{{topic}}',
        variables: [],
        settings: SHORT,
      })
      const row = await t.deps.db
        .insertInto('templates')
        .values({
          owner_id: owner.id,
          name: 'Short',
          graph: JSON.stringify(graph),
          variables: JSON.stringify([{ name: 'topic', kind: 'text', label: 'Topic', example: '' }]),
          settings: JSON.stringify(SHORT),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      return row.id
    }

    const count = async (table: 'batches' | 'projects', column: 'user_id', userId: number) =>
      Number(
        (
          await t.deps.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where(column, '=', userId)
            .executeTakeFirstOrThrow()
        ).n,
      )

    it('lists the builtin templates and makes a project from one with its {{topic}} filled', async () => {
      const owner = await addUser(t, 'Tam')
      const { client } = await agent(owner, ['projects:read', 'projects:write', 'generate'])
      const { templates } = answer<{ templates: any[] }>(
        await client.callTool({ name: 'list_templates', arguments: {} }),
      )
      expect(templates.map((tpl) => [tpl.name, tpl.source])).toEqual([
        ['Explainer', 'builtin'],
        ['Vertical short', 'builtin'],
        ['Product clip', 'builtin'],
        ['Story', 'builtin'],
      ])
      const short = templates.find((tpl) => tpl.name === 'Vertical short')!
      expect(short.variables.map((v: { name: string }) => v.name)).toEqual(['topic'])
      expect(short.settings).toMatchObject({ preset: '9:16', targetSeconds: 30 })
      expect(short.previewUrl).toBe(`${base}/api/templates/${short.id}/preview`)

      // A refused value names the variable; nothing is made.
      const projects = await count('projects', 'user_id', owner.id)
      expect(
        errorText(
          await client.callTool({
            name: 'create_project_from_template',
            arguments: { templateId: short.id, values: { topic: '   ' } },
          }),
        ),
      ).toBe('{{topic}} is empty.')
      expect(await count('projects', 'user_id', owner.id)).toBe(projects)

      const made = answer<{ projectId: number; name: string; makeVideo: any }>(
        await client.callTool({
          name: 'create_project_from_template',
          arguments: { templateId: short.id, values: { topic: 'How honeybees make honey' } },
        }),
      )
      expect(made.name).toBe('Vertical short: How honeybees make honey')
      const graph = await liveGraph(t, made.projectId)
      const generator = graph.nodes.find((n) => n.type === 'script-generator')!
      expect(generator.data.topic).toBe('How honeybees make honey')
      expect(JSON.stringify(graph)).not.toContain('{{')
      expect(made.makeVideo).toMatchObject({
        projectId: made.projectId,
        nodeId: generator.id,
        preset: '9:16',
        targetSeconds: 30,
      })

      // Its generators have no results yet: run_stale's dry run prices them, starting nothing.
      const quote = answer<{ nodes: { nodeId: string; jobId: null }[]; credits: number }>(
        await client.callTool({
          name: 'run_stale',
          arguments: { projectId: made.projectId, dryRun: true },
        }),
      )
      expect(quote.nodes.map((n) => n.nodeId)).toContain(generator.id)
      expect(quote.nodes.every((n) => n.jobId === null)).toBe(true)
      expect(quote.credits).toBeGreaterThan(0)
      expect(await balance(t, owner.id)).toBe(0)
    })

    it('quotes a batch, refusing a bad row by its number and storing nothing; run_stale on a fresh project is empty', async () => {
      const owner = await addUser(t, 'Quin', { credits: 50 })
      const templateId = await shortTemplate(owner)
      const { client } = await agent(owner, ['projects:read', 'projects:write', 'generate'])

      const refused = errorText(
        await client.callTool({
          name: 'create_batch',
          arguments: { templateId, rows: [{ topic: 'Owls' }, { topic: 'x'.repeat(501) }] },
        }),
      )
      expect(refused).toMatch(/^Row 2: \{\{topic\}\} is longer than 500/)
      expect(await count('batches', 'user_id', owner.id)).toBe(0)

      const batch = answer<any>(
        await client.callTool({
          name: 'create_batch',
          arguments: { templateId, rows: [{ topic: 'Owls' }, { topic: 'Tides' }] },
        }),
      )
      const perRow = makeVideoCost(costs, SHORT.sceneCount)
      expect(batch).toMatchObject({
        templateId,
        status: 'quoted',
        quote: { credits: 2 * perRow, creditsPerRow: perRow },
        spentCredits: 0,
        zipUrl: null,
      })
      expect(batch.quote.estimatedSeconds).toBeGreaterThan(0)
      const read = answer<any>(
        await client.callTool({ name: 'get_batch', arguments: { batchId: batch.id } }),
      )
      expect(read.rows.map((r: any) => [r.row, r.values.topic, r.status, r.mp4Url])).toEqual([
        [1, 'Owls', 'quoted', null],
        [2, 'Tides', 'quoted', null],
      ])
      expect(
        errorText(await client.callTool({ name: 'retry_batch', arguments: { batchId: batch.id } })),
      ).toBe(BATCH_MESSAGES.retryQuoted)
      const cancelled = answer<any>(
        await client.callTool({ name: 'cancel_batch', arguments: { batchId: batch.id } }),
      )
      expect(cancelled.status).toBe('cancelled')
      expect(
        errorText(await client.callTool({ name: 'start_batch', arguments: { batchId: batch.id } })),
      ).toBe(BATCH_MESSAGES.notQuoted)
      expect(await balance(t, owner.id)).toBe(50)

      // Nothing stale in an empty project: empty lists and 0, run or dry run, nothing charged.
      const projectId = await createProjectAs(t, owner, 'Empty')
      for (const dryRun of [true, false]) {
        expect(
          answer(await client.callTool({ name: 'run_stale', arguments: { projectId, dryRun } })),
        ).toEqual({ nodes: [], credits: 0, skipped: [] })
      }
      expect(await balance(t, owner.id)).toBe(50)
    })

    it('refuses what a token may not do as a tool error in words', async () => {
      const owner = await addUser(t, 'Rex', { credits: 50 })
      const templateId = await shortTemplate(owner)
      const projectId = await createProjectAs(t, owner, 'Mine')
      const { client: writer } = await agent(owner, ['projects:read', 'projects:write'])
      const batch = answer<{ id: number }>(
        await writer.callTool({
          name: 'create_batch',
          arguments: { templateId, rows: [{ topic: 'Owls' }] },
        }),
      )

      const { client: reader } = await agent(owner, ['projects:read'])
      const refusals = [
        ['create_batch', { templateId, rows: [{ topic: 'Owls' }] }, 'projects:write'],
        [
          'create_project_from_template',
          { templateId, values: { topic: 'Owls' } },
          'projects:write',
        ],
        ['start_batch', { batchId: batch.id }, 'generate'],
        ['retry_batch', { batchId: batch.id }, 'generate'],
        ['cancel_batch', { batchId: batch.id }, 'generate'],
        ['run_stale', { projectId, dryRun: true }, 'generate'],
      ] as const
      for (const [name, args, scope] of refusals) {
        expect(errorText(await reader.callTool({ name, arguments: args }))).toBe(
          `This token lacks the ${scope} scope.`,
        )
      }

      // Starting the video takes the generate scope, checked before any project is made.
      const projects = await count('projects', 'user_id', owner.id)
      expect(
        errorText(
          await writer.callTool({
            name: 'create_project_from_template',
            arguments: { templateId, values: { topic: 'Owls' }, makeVideo: true },
          }),
        ),
      ).toBe('This token lacks the generate scope.')
      expect(await count('projects', 'user_id', owner.id)).toBe(projects)

      // A token limited to some projects may not make or read batches (they make projects).
      const { client: limited } = await agent(
        owner,
        ['projects:read', 'projects:write', 'generate'],
        [projectId],
      )
      for (const [name, args] of [
        ['create_batch', { templateId, rows: [{ topic: 'Owls' }] }],
        ['get_batch', { batchId: batch.id }],
        ['start_batch', { batchId: batch.id }],
      ] as const) {
        expect(errorText(await limited.callTool({ name, arguments: args }))).toBe(
          TOKEN_MESSAGES.projectLimited,
        )
      }

      // Someone else's batch is one that does not exist.
      const stranger = await addUser(t, 'Eve')
      const { client: theirs } = await agent(stranger, ['projects:read', 'generate'])
      expect(
        errorText(await theirs.callTool({ name: 'get_batch', arguments: { batchId: batch.id } })),
      ).toBe(BATCH_MESSAGES.notFound)
      expect(await count('batches', 'user_id', owner.id)).toBe(1)
      expect(await balance(t, owner.id)).toBe(50)
    })

    itRenders(
      'makes a project from a template and starts its video in one call, charged as Make video',
      async () => {
        const owner = await addUser(t, 'Ida', { credits: 50 })
        const templateId = await shortTemplate(owner)
        const { client } = await agent(owner, ['projects:read', 'projects:write', 'generate'])
        const made = answer<any>(
          await client.callTool({
            name: 'create_project_from_template',
            arguments: { templateId, values: { topic: 'How owls hunt' }, makeVideo: true },
          }),
        )
        expect(made.makeVideo.projectId).toBe(made.projectId)
        expect(made.job.status).toMatch(/^(queued|running)$/)
        const done = await until(
          async () =>
            answer<any>(
              await client.callTool({ name: 'get_job', arguments: { jobId: made.job.id } }),
            ),
          (job) => job.status === 'succeeded' || job.status === 'failed',
          BATCH_DONE_MS,
          250,
        )
        expect(done.status).toBe('succeeded')
        expect(done.files.mp4Url.startsWith(`${base}/api/assets/`)).toBe(true)
        expect(50 - (await balance(t, owner.id))).toBe(made.job.cost)
      },
      BATCH_DONE_MS,
    )

    itRenders(
      'starts a one-row batch and follows it to its MP4, downloaded with the token',
      async () => {
        const owner = await addUser(t, 'Sol', { credits: 50 })
        const templateId = await shortTemplate(owner)
        const { client, token } = await agent(owner, [
          'projects:read',
          'projects:write',
          'generate',
        ])
        const quoted = answer<any>(
          await client.callTool({
            name: 'create_batch',
            arguments: { templateId, rows: [{ topic: 'Why owls hoot at night' }] },
          }),
        )
        const started = answer<any>(
          await client.callTool({ name: 'start_batch', arguments: { batchId: quoted.id } }),
        )
        expect(started.status).toBe('running')
        const done = await until(
          async () =>
            answer<any>(
              await client.callTool({ name: 'get_batch', arguments: { batchId: quoted.id } }),
            ),
          (b) => b.status === 'done',
          BATCH_DONE_MS,
          250,
        )
        const [row] = done.rows
        expect(row).toMatchObject({
          status: 'succeeded',
          progress: 1,
          credits: quoted.quote.credits,
        })
        expect(done.spentCredits).toBe(quoted.quote.credits)
        expect(await balance(t, owner.id)).toBe(50 - quoted.quote.credits)
        for (const url of [row.mp4Url, row.srtUrl, done.zipUrl]) {
          expect(url.startsWith(`${base}/api/`)).toBe(true)
        }
        const mp4 = await fetch(row.mp4Url, { headers: { Authorization: `Bearer ${token}` } })
        expect(mp4.status).toBe(200)
        const dir = await mkdtemp(join(tmpdir(), 'reelgraph-mcp-batch-'))
        try {
          const path = join(dir, 'video.mp4')
          await writeFile(path, new Uint8Array(await mp4.arrayBuffer()))
          const { stdout } = await run('ffprobe', [
            '-v',
            'error',
            '-select_streams',
            'v:0',
            '-show_entries',
            'stream=width,height',
            '-of',
            'csv=p=0',
            path,
          ])
          expect(stdout.trim()).toBe('1080,1920')
        } finally {
          await rm(dir, { recursive: true, force: true })
        }
        const srt = await fetch(row.srtUrl, { headers: { Authorization: `Bearer ${token}` } })
        expect(await srt.text()).toMatch(/-->/)
      },
      BATCH_DONE_MS,
    )
  },
)
