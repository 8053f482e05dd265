import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import pg from 'pg'
import { createDb, migrateToLatest } from './create-db.ts'
import { migratedPgliteTemplate } from './pglite-template.ts'
import type { DB } from './schema.ts'

export { migratedPgliteTemplate } from './pglite-template.ts'

/** A migrated, empty database for one test file, and how to throw it away. */
export interface TestDatabase {
  db: Kysely<DB>
  dispose(): Promise<void>
}

/** A kind of database integration tests run on. */
export interface TestDatabaseKind {
  name: 'pglite' | 'postgres'
  create(): Promise<TestDatabase>
}

/**
 * Whether a test whose cost is not the database's runs on `kind`: rendering media (ffmpeg
 * encodes, speech), or loading a sync server process with storms of editors (admission). Such
 * a test runs on one database kind only, Postgres when `TEST_DATABASE_URL` is set (the engine
 * deployments run), else PGlite. What it asks of the database (a job, its charge and refund,
 * the document written) lighter tests check on every kind, and the app on PGlite renders end
 * to end in the browser tests (`e2e/` runs it on PGlite). Running them once keeps the whole
 * suite near its 25 minutes on two cores.
 */
export function costlyTestsRunOn(kind: TestDatabaseKind): boolean {
  return kind.name === (process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite')
}

/**
 * The databases integration tests run on: in-memory PGlite always, and Postgres too when
 * `TEST_DATABASE_URL` is set. Each `create()` makes a fresh database (on Postgres a new
 * database named `reelgraph_test_<random>`, dropped by `dispose()`), so test files can run
 * in parallel.
 */
export function testDatabaseKinds(): TestDatabaseKind[] {
  const kinds: TestDatabaseKind[] = [
    {
      name: 'pglite',
      async create() {
        const db = createDb({
          pgliteDir: 'memory://',
          pgliteDataDirArchive: await migratedPgliteTemplate(),
        })
        // A no-op on the template; it keeps the database right if the template were not.
        await migrateToLatest(db)
        return { db, dispose: () => db.destroy() }
      },
    },
  ]
  const url = process.env.TEST_DATABASE_URL
  if (url) {
    kinds.push({
      name: 'postgres',
      async create() {
        const name = `reelgraph_test_${randomBytes(6).toString('hex')}`
        const admin = new pg.Client({ connectionString: url })
        await admin.connect()
        await admin.query(`create database ${name}`)
        await admin.end()
        const testUrl = new URL(url)
        testUrl.pathname = `/${name}`
        // Idle connections are cut when the database is dropped; that is expected here.
        const db = createDb({ databaseUrl: testUrl.toString(), poolSize: 5, onPoolError: () => {} })
        await migrateToLatest(db)
        return {
          db,
          async dispose() {
            await db.destroy()
            const cleanup = new pg.Client({ connectionString: url })
            await cleanup.connect()
            await cleanup.query(`drop database if exists ${name} with (force)`)
            await cleanup.end()
          },
        }
      },
    })
  }
  return kinds
}
