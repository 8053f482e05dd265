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
import { docToGraph, MCP_PATH, MCP_TOOL_NAMES, type TokenScope } from '@reelgraph/shared'
import { attachSyncServer, type SyncAttachment } from '@reelgraph/sync-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { balance, liveGraph } from '../../testing/jobs.ts'
import { addMember, addUser, createProjectAs, type TestUser } from '../../testing/members.ts'
import { openCanvas } from '../../testing/canvas.ts'
import { itRendersOn } from '../../testing/renders.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { until } from '../../testing/until.ts'

/**
 * The MCP server (issue 41 item 2) driven by the MCP SDK's own client over Streamable HTTP,
 * against the app on a socket: an agent lists the tools, builds a graph and makes a video
 * while an editor connected through the sync server watches its nodes appear; and what an
 * agent may not do comes back as a tool error in words (or, without a token, a 401).
 */

const run = promisify(execFile)
const COSTS = {
  COST_SCRIPT: '1',
  COST_SCENES: '1',
  COST_IMAGE: '2',
  COST_VOICE: '1',
  COST_VIDEO: '3',
}
const CHAIN_DONE_MS = 150_000

/** Waits until `check()` is truthy (a canvas's document, read synchronously); its value. */
async function seen<T>(check: () => T, what: string, ms = 10_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = check()
    if (value) return value as NonNullable<T>
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** The structured answer of a successful call; fails the test on a tool error. */
function answer<T = Record<string, any>>(result: unknown): T {
  const call = result as CallToolResult
  if (call.isError) throw new Error(`tool error: ${JSON.stringify(call.content)}`)
  const text = (call.content[0] as { text: string }).text
  // Structured content, when given, is the text's JSON.
  if (call.structuredContent) expect(JSON.parse(text)).toEqual(call.structuredContent)
  return JSON.parse(text) as T
}

/** The words of a tool error; fails the test on a success. */
function errorText(result: unknown): string {
  const call = result as CallToolResult
  expect(call.isError).toBe(true)
  return (call.content[0] as { text: string }).text
}

describe.each(testDatabaseKinds())('the MCP server on $name (issue 41 item 2)', (kind) => {
  const itRenders = itRendersOn(kind)
  let t: TestApp
  let http: Server
  let attachment: SyncAttachment
  let base: string
  const clients: Client[] = []

  beforeAll(async () => {
    t = await createTestApp(kind, undefined, { JOB_WAIT_MS: '0', ...COSTS })
    http = createAdaptorServer({ fetch: t.app.fetch }) as Server
    attachment = attachSyncServer(http, t.sync.hocuspocus)
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()))
    await attachment.close()
    await new Promise((resolve) => http.close(resolve))
    await t.close()
  })

  /** A token of `user` made through the API with their session. */
  async function tokenOf(user: TestUser, scopes: TokenScope[], projectIds?: number[]) {
    const res = await t.request('POST', '/api/tokens', {
      body: { name: 'Agent', scopes, ...(projectIds ? { projectIds } : {}) },
      cookie: user.cookie,
    })
    expect(res.status).toBe(201)
    return (await res.json()) as { id: number; token: string }
  }

  /** An MCP client connected with `token` (the SDK's Streamable HTTP transport). */
  async function agent(token: string): Promise<Client> {
    const client = new Client({ name: 'test-agent', version: '1.0.0' })
    const transport = new StreamableHTTPClientTransport(new URL(MCP_PATH, base), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    })
    await client.connect(transport)
    clients.push(client)
    return client
  }

  /** A member's canvas: a provider on the sync WebSocket with their session cookie. */
  const openMemberCanvas = (user: TestUser, projectId: number) =>
    openCanvas(base.replace('http', 'ws'), user.cookie, projectId)

  itRenders(
    'an agent lists the tools, builds a graph and makes a video that an editor watches appear live',
    async () => {
      const owner = await addUser(t, 'Ada', { credits: 40 })
      const editor = await addUser(t, 'Grace')
      const { token } = await tokenOf(owner, ['projects:read', 'projects:write', 'generate'])
      const client = await agent(token)

      const { tools } = await client.listTools()
      expect(tools.map((tool) => tool.name)).toEqual(MCP_TOOL_NAMES)
      for (const tool of tools) {
        expect(tool.description?.length).toBeGreaterThan(40)
        expect(tool.inputSchema.type).toBe('object')
      }
      const makeVideo = tools.find((tool) => tool.name === 'make_video')!
      expect(makeVideo.inputSchema.required).toEqual(
        expect.arrayContaining(['projectId', 'topic', 'sceneCount', 'preset']),
      )

      const { projectId } = answer<{ projectId: number }>(
        await client.callTool({ name: 'create_project', arguments: { name: 'Bees' } }),
      )
      await addMember(t, projectId, editor.id, 'editor')
      const canvas = openMemberCanvas(editor, projectId)
      try {
        await seen(canvas.synced, 'the editor’s canvas synced')

        // The agent builds a graph by hand; the editor sees each node arrive.
        const { nodes } = answer<{ nodes: { id: string; type: string }[] }>(
          await client.callTool({
            name: 'add_nodes',
            arguments: {
              projectId,
              nodes: [
                { type: 'script-generator', data: { topic: 'How bees make honey' } },
                {
                  type: 'editable-text',
                  data: { content: 'Bees fly. Bees dance.', sceneCount: 2 },
                },
              ],
            },
          }),
        )
        expect(nodes.map((n) => n.type)).toEqual(['script-generator', 'editable-text'])
        const [generator, text] = nodes as unknown as [{ id: string }, { id: string }]
        await seen(
          () => docToGraph(canvas.doc).nodes.find((n) => n.id === text.id),
          'the agent’s nodes on the editor’s canvas',
        )
        const onCanvas = docToGraph(canvas.doc)
        expect(onCanvas.nodes.find((n) => n.id === generator.id)?.data.topic).toBe(
          'How bees make honey',
        )
        answer(
          await client.callTool({
            name: 'connect_nodes',
            arguments: { projectId, connections: [{ source: generator.id, target: text.id }] },
          }),
        )
        await seen(
          () => docToGraph(canvas.doc).connections.length === 1,
          'the connection on the editor’s canvas',
        )
        const read = answer<{ nodes: unknown[]; connections: unknown[] }>(
          await client.callTool({ name: 'get_project', arguments: { projectId } }),
        )
        expect(read.connections).toEqual([{ source: generator.id, target: text.id }])

        // Make video: one charge, the chain's nodes appear on the canvas as the job goes.
        const before = await balance(t, owner.id)
        const started = answer<{ id: string; status: string; cost: number }>(
          await client.callTool({
            name: 'make_video',
            arguments: {
              projectId,
              topic: 'Why the sea is salty',
              sceneCount: 1,
              targetSeconds: 20,
              preset: '16:9',
            },
          }),
        )
        expect(started.status).toBe('queued')
        expect(await balance(t, owner.id)).toBe(before - started.cost)
        await seen(
          () => docToGraph(canvas.doc).nodes.some((n) => n.type === 'scene'),
          'the chain’s scene on the editor’s canvas',
          CHAIN_DONE_MS,
        )
        const done = await until(
          async () =>
            answer<{ status: string; files?: Record<string, string> }>(
              await client.callTool({ name: 'get_job', arguments: { jobId: started.id } }),
            ),
          (job) => job.status !== 'queued' && job.status !== 'running',
          CHAIN_DONE_MS,
          500,
        )
        expect(done.status).toBe('succeeded')
        await seen(
          () => docToGraph(canvas.doc).nodes.some((n) => n.type === 'video' && n.data.videoUrl),
          'the rendered Video node on the editor’s canvas',
        )

        const files = answer<{ mp4Url: string; durationMs: number }>(
          await client.callTool({ name: 'export_video', arguments: { projectId } }),
        )
        expect(files.mp4Url).toBe(done.files?.mp4Url)
        expect(files.mp4Url.startsWith(`${base}/api/assets/`)).toBe(true)
        const mp4 = await fetch(files.mp4Url, { headers: { Authorization: `Bearer ${token}` } })
        expect(mp4.status).toBe(200)
        const dir = await mkdtemp(join(tmpdir(), 'reelgraph-mcp-'))
        try {
          const path = join(dir, 'video.mp4')
          await writeFile(path, new Uint8Array(await mp4.arrayBuffer()))
          const { stdout } = await run('ffprobe', [
            ...['-v', 'error', '-show_entries', 'stream=codec_type,codec_name:format=duration'],
            ...['-of', 'json', path],
          ])
          const probe = JSON.parse(stdout) as {
            streams: { codec_type: string; codec_name: string }[]
            format: { duration: string }
          }
          expect(probe.streams.map((s) => `${s.codec_type}:${s.codec_name}`).sort()).toEqual([
            'audio:aac',
            'video:h264',
          ])
          expect(Math.abs(Number(probe.format.duration) * 1000 - files.durationMs)).toBeLessThan(
            100,
          )
          // The length asked for, within issue 42's ±15 %.
          expect(Math.abs(Number(probe.format.duration) - 20)).toBeLessThanOrEqual(20 * 0.15)
        } finally {
          await rm(dir, { recursive: true, force: true })
        }
      } finally {
        canvas.close()
      }
    },
    CHAIN_DONE_MS + 60_000,
  )

  it('what an agent may not do comes back as a tool error in words, and nothing is written', async () => {
    const owner = await addUser(t, 'Mary', { credits: 10 })
    const stranger = await addUser(t, 'Eve')
    const projectId = await createProjectAs(t, owner, 'Mine')
    const other = await createProjectAs(t, owner, 'Also mine')
    const theirs = await createProjectAs(t, stranger, 'Theirs')

    // A reading token: generation and edits are refused by scope, with the scope's name.
    const reader = await agent((await tokenOf(owner, ['projects:read'])).token)
    expect(
      errorText(
        await reader.callTool({
          name: 'make_video',
          arguments: { projectId, topic: 'Tides', sceneCount: 1, preset: '16:9' },
        }),
      ),
    ).toBe('This token lacks the generate scope.')
    expect(
      errorText(
        await reader.callTool({
          name: 'add_nodes',
          arguments: { projectId, nodes: [{ type: 'scene' }] },
        }),
      ),
    ).toBe('This token lacks the projects:write scope.')
    expect(await balance(t, owner.id)).toBe(10)

    // A token limited to one project: the others are as a stranger's, and it makes none.
    const limited = await agent(
      (await tokenOf(owner, ['projects:read', 'projects:write'], [projectId])).token,
    )
    const listed = answer<{ projects: { id: number }[] }>(
      await limited.callTool({ name: 'list_projects', arguments: {} }),
    )
    expect(listed.projects.map((p) => p.id)).toEqual([projectId])
    const notFound = errorText(
      await limited.callTool({ name: 'get_project', arguments: { projectId: other } }),
    )
    expect(notFound).toMatch(/not found|does not exist/i)
    expect(
      errorText(await limited.callTool({ name: 'get_project', arguments: { projectId: theirs } })),
    ).toBe(notFound)
    expect(
      errorText(await limited.callTool({ name: 'create_project', arguments: { name: 'New' } })),
    ).toMatch(/limited to some projects/)

    // Bad arguments: refused in words by the schema or the node rules, nothing written.
    const writer = await agent((await tokenOf(owner, ['projects:read', 'projects:write'])).token)
    expect(
      errorText(
        await writer.callTool({
          name: 'add_nodes',
          arguments: { projectId, nodes: [{ type: 'rocket' }] },
        }),
      ),
    ).toMatch(/node type must be one of/)
    expect(
      errorText(
        await writer.callTool({
          name: 'add_nodes',
          arguments: {
            projectId,
            nodes: [
              { type: 'scene', data: { narration: 'Fine' } },
              { type: 'image-generator', data: { width: 'wide' } },
            ],
          },
        }),
      ),
    ).toMatch(/width/)
    expect(
      errorText(
        await writer.callTool({
          name: 'update_node',
          arguments: { projectId, nodeId: 'scene-1-nothere', data: { narration: 'x' } },
        }),
      ),
    ).toBe('This project has no node "scene-1-nothere".')
    expect(
      errorText(
        await writer.callTool({
          name: 'add_nodes',
          arguments: { projectId, nodes: [{ type: 'scene', data: { narration: 'a\u0000b' } }] },
        }),
      ),
    ).toMatch(/NUL/)
    expect((await liveGraph(t, projectId)).nodes).toEqual([])
    // A node without an output connects from nowhere; run_node runs only generators.
    const { nodes } = answer<{ nodes: { id: string }[] }>(
      await writer.callTool({
        name: 'add_nodes',
        arguments: { projectId, nodes: [{ type: 'scene' }, { type: 'scene' }] },
      }),
    )
    expect(
      errorText(
        await writer.callTool({
          name: 'connect_nodes',
          arguments: { projectId, connections: [{ source: nodes[0]!.id, target: nodes[0]!.id }] },
        }),
      ),
    ).toBe('A node cannot connect to itself.')
    expect(
      errorText(
        await writer.callTool({
          name: 'delete_nodes',
          arguments: { projectId: theirs, nodeIds: [nodes[0]!.id] },
        }),
      ),
    ).toBe(notFound)
    expect((await liveGraph(t, projectId)).nodes).toHaveLength(2)
  })

  it('get_project answers the graph as it is after every change, however often it is read', async () => {
    const owner = await addUser(t, 'Reader')
    const projectId = await createProjectAs(t, owner, 'Read often')
    const client = await agent((await tokenOf(owner, ['projects:read', 'projects:write'])).token)
    const read = async () =>
      answer<{ name: string; nodes: { id: string; label: string }[]; connections: unknown[] }>(
        await client.callTool({ name: 'get_project', arguments: { projectId } }),
      )
    expect(await read()).toMatchObject({ name: 'Read often', nodes: [], connections: [] })
    expect(await read()).toMatchObject({ nodes: [] })
    const { nodes } = answer<{ nodes: { id: string }[] }>(
      await client.callTool({
        name: 'add_nodes',
        arguments: { projectId, nodes: [{ type: 'scene' }, { type: 'image-generator' }] },
      }),
    )
    expect((await read()).nodes.map((n) => n.id).sort()).toEqual(nodes.map((n) => n.id).sort())
    answer(
      await client.callTool({
        name: 'update_node',
        arguments: { projectId, nodeId: nodes[0]!.id, label: 'Opening' },
      }),
    )
    expect((await read()).nodes.find((n) => n.id === nodes[0]!.id)?.label).toBe('Opening')
    // Text that JSON escapes: quotes, a backslash, new lines, and letters beyond ASCII.
    const narration = 'She said "buzz" \\ then:\nline two\t— 漢字 🐝 \u2028'
    answer(
      await client.callTool({
        name: 'update_node',
        arguments: { projectId, nodeId: nodes[0]!.id, data: { narration } },
      }),
    )
    const withText = await read()
    expect(
      (withText.nodes.find((n) => n.id === nodes[0]!.id) as { data?: { narration?: string } })?.data
        ?.narration,
    ).toBe(narration)
    const renamed = await t.request('PATCH', `/api/projects/${projectId}`, {
      body: { name: 'Renamed' },
      cookie: owner.cookie,
    })
    expect(renamed.status).toBe(200)
    expect((await read()).name).toBe('Renamed')
    answer(
      await client.callTool({
        name: 'delete_nodes',
        arguments: { projectId, nodeIds: [nodes[1]!.id] },
      }),
    )
    expect((await read()).nodes.map((n) => n.id)).toEqual([nodes[0]!.id])

    // Over HTTP the answer is gzip-encoded for a client that takes gzip, plain otherwise.
    const { token } = await tokenOf(owner, ['projects:read'])
    const raw = (acceptEncoding: string) =>
      fetch(`${base}${MCP_PATH}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'accept-encoding': acceptEncoding,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'get_project', arguments: { projectId } },
        }),
      })
    const gzipped = await raw('gzip')
    const plain = await raw('identity')
    expect(gzipped.headers.get('content-encoding')).toBe('gzip')
    expect(plain.headers.get('content-encoding')).toBeNull()
    // fetch decodes the gzip answer: the two carry the same JSON-RPC message.
    expect(await gzipped.text()).toBe(await plain.text())
  })

  it('answers 401 without a token, after revocation, and 405 to GET; refuses other web pages', async () => {
    const owner = await addUser(t, 'Lin')
    const made = await tokenOf(owner, ['projects:read'])
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'curl', version: '1' },
      },
    }
    const post = (headers: Record<string, string>) =>
      fetch(`${base}${MCP_PATH}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify(initialize),
      })

    const anonymous = await post({})
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/)
    expect(((await anonymous.json()) as any).error.message).toMatch(/Authorization: Bearer/)

    const ok = await post({ authorization: `Bearer ${made.token}` })
    expect(ok.status).toBe(200)
    expect(((await ok.json()) as any).result.serverInfo.name).toBe('reelgraph')

    const elsewhere = await post({
      authorization: `Bearer ${made.token}`,
      origin: 'https://attacker.example',
    })
    expect(elsewhere.status).toBe(403)

    expect((await fetch(`${base}${MCP_PATH}`)).status).toBe(405)

    const revoked = await t.request('DELETE', `/api/tokens/${made.id}`, { cookie: owner.cookie })
    expect(revoked.status).toBe(200)
    const after = await post({ authorization: `Bearer ${made.token}` })
    expect(after.status).toBe(401)
    expect(((await after.json()) as any).error.message).toMatch(/revoked/)
  })
})
