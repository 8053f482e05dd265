/**
 * A RECONSTRUCTION of the seed's stack, the peer of the REST autosave benchmark (issue 23:
 * "measured side by side in one run ... the seed's own stack, Express with whole-graph REST
 * autosave, as the peer"). The original product's server is not available; this is written
 * from its description, as plainly as such a server is written: Express 5 with its JSON body
 * parser, a session looked up in Postgres on every request (as `express-session` with a
 * Postgres store does: `select sess from session where sid = $1 and expire >= now()`), and
 * one `UPDATE projects SET nodes=$1, connections=$2, updated_at=now()` of the whole graph
 * per PATCH into jsonb columns, answering `{id, updatedAt}`. It checks only that `nodes` and
 * `connections` are arrays; Reelgraph validates every node against shared's schemas, checks
 * the member's role and answers the stored graph, which this peer does not.
 *
 * Its tables live in their own schema (`seed`) of the benchmark's database, on the same
 * Postgres as Reelgraph's. A pool of 10 connections, like Reelgraph's.
 *
 *   node bench/src/seed-stack.ts --database-url postgres://... --port N
 *
 * Prints `{"port":N}` once listening. `setupSeedStack` makes its schema and rows.
 */
import { parseArgs } from 'node:util'
import express from 'express'
import pg from 'pg'

/** The peer's schema: sessions as a session store keeps them, projects with jsonb graphs. */
const SCHEMA = `
  create schema if not exists seed;
  create table if not exists seed.session (
    sid varchar primary key, sess json not null, expire timestamp(6) not null);
  create table if not exists seed.users (id serial primary key, email text not null);
  create table if not exists seed.projects (
    id serial primary key, user_id integer not null references seed.users(id),
    name text not null, nodes jsonb not null default '[]', connections jsonb not null default '[]',
    created_at timestamptz not null default now(), updated_at timestamptz not null default now());
`

/**
 * Makes the peer's schema, a user with a session, and `count` projects holding `graph`.
 * @returns the session cookie and the project ids
 */
export async function setupSeedStack(options: {
  databaseUrl: string
  count: number
  graph: { nodes: unknown[]; connections: unknown[] }
}): Promise<{ cookie: string; projectIds: number[] }> {
  const client = new pg.Client({ connectionString: options.databaseUrl })
  await client.connect()
  try {
    await client.query(SCHEMA)
    const user = await client.query<{ id: number }>(
      `insert into seed.users (email) values ('bench@example.com') returning id`,
    )
    const userId = user.rows[0]!.id
    const sid = `s${Date.now()}${Math.random().toString(36).slice(2)}`
    await client.query(
      `insert into seed.session (sid, sess, expire) values ($1, $2, now() + interval '1 day')`,
      [sid, JSON.stringify({ cookie: { httpOnly: true }, userId })],
    )
    const nodes = JSON.stringify(options.graph.nodes)
    const connections = JSON.stringify(options.graph.connections)
    const projectIds: number[] = []
    for (let i = 0; i < options.count; i++) {
      const row = await client.query<{ id: number }>(
        `insert into seed.projects (user_id, name, nodes, connections)
         values ($1, 'Bench', $2, $3) returning id`,
        [userId, nodes, connections],
      )
      projectIds.push(row.rows[0]!.id)
    }
    return { cookie: `sid=${sid}`, projectIds }
  } finally {
    await client.end()
  }
}

/** The `sid` cookie of a request, if any. */
function sessionId(cookie: string | undefined): string | undefined {
  for (const part of (cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=')
    if (name === 'sid') return decodeURIComponent(value.join('='))
  }
  return undefined
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { 'database-url': { type: 'string' }, port: { type: 'string', default: '0' } },
  })
  const pool = new pg.Pool({ connectionString: values['database-url'], max: 10 })
  const app = express()
  app.use(express.json({ limit: '10mb' }))
  app.patch('/api/projects/:id', async (req, res, next) => {
    try {
      const session = await pool.query<{ sess: { userId: number } }>(
        'select sess from seed.session where sid = $1 and expire >= now()',
        [sessionId(req.headers.cookie)],
      )
      const userId = session.rows[0]?.sess.userId
      if (userId === undefined) {
        res.status(401).json({ error: 'Not signed in' })
        return
      }
      const { nodes, connections } = req.body as { nodes?: unknown; connections?: unknown }
      if (!Array.isArray(nodes) || !Array.isArray(connections)) {
        res.status(400).json({ error: 'nodes and connections must be arrays' })
        return
      }
      const updated = await pool.query<{ id: number; updated_at: Date }>(
        `UPDATE seed.projects SET nodes=$1, connections=$2, updated_at=now()
         WHERE id=$3 AND user_id=$4 RETURNING id, updated_at`,
        [JSON.stringify(nodes), JSON.stringify(connections), Number(req.params.id), userId],
      )
      const row = updated.rows[0]
      if (!row) {
        res.status(404).json({ error: 'Project not found' })
        return
      }
      res.json({ id: row.id, updatedAt: row.updated_at.toISOString() })
    } catch (err) {
      next(err)
    }
  })
  const server = app.listen(Number(values.port), '127.0.0.1', () => {
    const address = server.address()
    const port = typeof address === 'object' && address ? address.port : 0
    process.stdout.write(`${JSON.stringify({ port })}\n`)
  })
  process.once('SIGTERM', () => {
    server.close()
    void pool.end().then(() => process.exit(0))
  })
}

if (import.meta.main) await main()
