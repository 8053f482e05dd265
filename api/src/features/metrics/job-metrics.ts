import type { DB } from '@reelgraph/db'
import { type Kysely, sql } from 'kysely'
import { Gauge, type Registry } from 'prom-client'

/**
 * `reelgraph_jobs` (issue 23 item 4): generation jobs waiting (`state="queued"`) and running
 * (`state="running"`), by kind, read from `generation_jobs` at each scrape (every process
 * sharing the database sees the same queue).
 */
export function registerJobMetrics(registry: Registry, db: Kysely<DB>): void {
  new Gauge({
    name: 'reelgraph_jobs',
    help: 'Generation jobs queued or running, by kind and state (all processes).',
    labelNames: ['kind', 'state'],
    registers: [registry],
    async collect() {
      const { rows } = await sql<{ kind: string; status: string; n: string }>`
        select kind, status, count(*)::text as n from generation_jobs
        where status in ('queued', 'running') group by kind, status`.execute(db)
      this.reset()
      for (const row of rows) this.set({ kind: row.kind, state: row.status }, Number(row.n))
    },
  })
}
