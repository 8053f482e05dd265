/**
 * `get_project` over MCP on a 300-node project with 20 agents calling at once (issue 41,
 * "Done when": p99 ≤ 100 ms). The app runs in its own process (PGlite, or Postgres with
 * BENCH_DATABASE_URL); each agent connects with the MCP SDK's own client over Streamable HTTP
 * with a bearer token (its `initialize`, the protocol version), then posts `tools/call` as that
 * client does, taking gzip as fetch does. `atOnce`: in each of 50 rounds the 20 agents call
 * `get_project` at the same moment (the target's case); `backToBack`: each agent calls again
 * as soon as it has its answer (the process's capacity, and the wait at it). Prints
 * p50/p90/p99/max of the calls (ms) until each whole answer had arrived, calls per second, the
 * app's CPU per call (ms, its process's user + system time) and the load average.
 * Run: npm run mcp-get-project -w bench
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { MCP_PATH } from '@reelgraph/shared'
import { loadAverage, makeToken, processCpuSeconds, registerUser, startApp } from './app-process.ts'
import { makeGraph, quantile, round } from './graph-fixture.ts'

const NODES = 300
const AGENTS = 20
/** Rounds measured (each agent calls once per round), after {@link WARM_UP} unmeasured ones. */
const ROUNDS = 50
const WARM_UP = 5
/** The target of issue 41: p99 of a `get_project` call, in ms. */
const TARGET_P99_MS = 100

const app = await startApp({ port: 3418 })
try {
  const loadBefore = loadAverage()
  const cookie = await registerUser(app.url, `bench-${Date.now()}@example.com`, 'bench password 1')
  const asSession = { cookie, origin: app.url, 'content-type': 'application/json' }
  const created = await fetch(`${app.url}/api/projects`, {
    method: 'POST',
    headers: asSession,
    body: JSON.stringify({ name: 'Bench', ...makeGraph(NODES) }),
  })
  if (created.status !== 201) throw new Error(`creating the project: ${created.status}`)
  const { id: projectId } = (await created.json()) as { id: number }
  const token = await makeToken(app.url, cookie, ['projects:read'])

  /**
   * An agent: the MCP SDK's client, connected (its `initialize` and protocol version), and the
   * headers it sends with each call.
   */
  interface Agent {
    client: Client
    headers: Record<string, string>
  }
  const agents: Agent[] = await Promise.all(
    Array.from({ length: AGENTS }, async (_, i) => {
      const client = new Client({ name: `bench-agent-${i}`, version: '1.0.0' })
      const transport = new StreamableHTTPClientTransport(new URL(MCP_PATH, app.url), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      })
      await client.connect(transport)
      const headers = {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': transport.protocolVersion ?? '',
      }
      return { client, headers }
    }),
  )
  const request = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'get_project', arguments: { projectId } },
  })
  /** One `tools/call` of get_project as the SDK's client posts it: the answer's bytes. */
  async function post(agent: Agent): Promise<Buffer> {
    const res = await fetch(new URL(MCP_PATH, app.url), {
      method: 'POST',
      headers: agent.headers,
      body: request,
    })
    const body = Buffer.from(await res.arrayBuffer())
    if (res.status !== 200) throw new Error(`get_project answered ${res.status}: ${body}`)
    return body
  }
  // The first answer is checked whole: read through the SDK's client (its schema), the graph
  // has its 300 nodes, and the raw answer to the same call carries the same text. Every later
  // answer must be those bytes again, which costs this process a comparison instead of a parse:
  // on this 2-core box the agents share the cores with the server, and 20 clients parsing
  // 250 KB answers would take the server's CPU and delay when this process sees an answer
  // arrive (each agent of a real swarm runs on its own machine).
  const checked = (await agents[0]!.client.callTool({
    name: 'get_project',
    arguments: { projectId },
  })) as CallToolResult
  const text = (checked.content[0] as { text?: string } | undefined)?.text ?? ''
  const nodes = (JSON.parse(text) as { nodes?: unknown[] }).nodes
  if (checked.isError || nodes?.length !== NODES) {
    throw new Error(`get_project answered ${JSON.stringify(checked.content).slice(0, 200)}`)
  }
  const expected = await post(agents[0]!)
  const raw = JSON.parse(expected.toString('utf8')) as {
    result?: { content?: { text?: string }[] }
  }
  if (raw.result?.content?.[0]?.text !== text)
    throw new Error('the raw answer differs from the SDK’s')

  /** One get_project: ms until its whole answer had arrived, checked equal to the first. */
  async function call(agent: Agent): Promise<number> {
    const started = performance.now()
    const body = await post(agent)
    const answered = performance.now() - started
    if (!body.equals(expected)) {
      throw new Error(`get_project answered ${body.subarray(0, 200).toString('utf8')}`)
    }
    return answered
  }
  await Promise.all(
    agents.map(async (agent) => {
      for (let i = 0; i < WARM_UP; i++) await call(agent)
    }),
  )
  // "20 agents calling at once": every agent calls at the same moment; the next round starts
  // when the last answer is in.
  const pid = app.child.pid!
  const burst: number[] = []
  const burstCpu = processCpuSeconds(pid)
  const burstStarted = performance.now()
  for (let round = 0; round < ROUNDS; round++) {
    burst.push(...(await Promise.all(agents.map((agent) => call(agent)))))
  }
  const burstSeconds = (performance.now() - burstStarted) / 1000
  const burstServerCpu = processCpuSeconds(pid) - burstCpu
  // Saturation: every agent calls again as soon as it has its answer, to find the capacity.
  const loop: number[] = []
  const loopCpu = processCpuSeconds(pid)
  const loopStarted = performance.now()
  await Promise.all(
    agents.map(async (agent) => {
      for (let i = 0; i < ROUNDS; i++) loop.push(await call(agent))
    }),
  )
  const loopSeconds = (performance.now() - loopStarted) / 1000
  const loopServerCpu = processCpuSeconds(pid) - loopCpu
  await Promise.all(agents.map((agent) => agent.client.close()))
  const figures = (times: number[], seconds: number, serverCpuSeconds: number) => ({
    calls: times.length,
    serverCpuMsPerCall: round((serverCpuSeconds * 1000) / times.length, 2),
    callsPerSecond: round(times.length / seconds, 1),
    p50Ms: round(quantile(times, 0.5), 1),
    p90Ms: round(quantile(times, 0.9), 1),
    p99Ms: round(quantile(times, 0.99), 1),
    maxMs: round(Math.max(...times), 1),
  })
  const atOnce = figures(burst, burstSeconds, burstServerCpu)
  console.log(
    JSON.stringify(
      {
        benchmark: `MCP get_project, ${NODES}-node project, ${AGENTS} agents`,
        database: process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite',
        atOnce,
        backToBack: figures(loop, loopSeconds, loopServerCpu),
        targetP99Ms: TARGET_P99_MS,
        met: atOnce.p99Ms <= TARGET_P99_MS,
        loadAverageBefore: loadBefore,
        loadAverageAfter: loadAverage(),
      },
      null,
      2,
    ),
  )
} finally {
  await app.stop()
}
