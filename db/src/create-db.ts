import { mkdirSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import { Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely'
import { Migrator } from 'kysely/migration'
import pg from 'pg'
import { migrations } from './migrations/index.ts'
import type { DB } from './schema.ts'

/** Where the database lives. */
export interface DbConfig {
  /** A `postgres://` URL. When set, a `pg` Pool is used. */
  databaseUrl?: string | undefined
  /**
   * PGlite's data directory when no URL is given (default `./data/pg`);
   * `memory://` keeps everything in memory (tests).
   */
  pgliteDir?: string | undefined
  /**
   * A PGlite data directory to start from instead of an empty cluster, as PGlite's
   * `dumpDataDir` gives it (a tar, maybe gzipped); `pgliteDir` must not hold a database yet.
   * Tests start from a migrated template this way (`pglite-template.ts`): it skips initdb and the
   * migrations, about 3 CPU-s of the 4.5 a new database costs. Ignored with `databaseUrl`.
   */
  pgliteDataDirArchive?: Blob | undefined
  /** Pool size for `pg` (default 10). */
  poolSize?: number | undefined
  /**
   * Called when an idle `pg` connection fails (server restart, network drop). The pool
   * replaces the connection; without a listener Node would crash. Default: console.error.
   */
  onPoolError?: ((err: Error) => void) | undefined
}

/**
 * How a database made by {@link createDb} is reached, for a library that needs its own
 * access (the pg-boss job queue, issue 12): the embedded PGlite instance (one connection,
 * shared with the app), or the Postgres URL.
 */
export type DatabaseConnection =
  { kind: 'pglite'; pglite: PGlite } | { kind: 'postgres'; url: string }

const connections = new WeakMap<Kysely<DB>, DatabaseConnection>()

/**
 * How `db` is reached ({@link DatabaseConnection}).
 * @throws Error when `db` was not made by {@link createDb}.
 */
export function databaseConnection(db: Kysely<DB>): DatabaseConnection {
  const connection = connections.get(db)
  if (!connection) throw new Error('This database was not opened by createDb.')
  return connection
}

/** PGlite's default data directory, relative to the working directory. */
export const DEFAULT_PGLITE_DIR = './data/pg'

/**
 * Opens the database: a `pg` Pool when `databaseUrl` is set, else embedded PGlite.
 * Does not migrate; call {@link migrateToLatest}. Close with `db.destroy()`.
 */
export function createDb(config: DbConfig = {}): Kysely<DB> {
  if (config.databaseUrl) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: config.poolSize ?? 10 })
    pool.on(
      'error',
      config.onPoolError ??
        ((err) => console.error('idle database connection failed:', err.message)),
    )
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) })
    connections.set(db, { kind: 'postgres', url: config.databaseUrl })
    return db
  }
  const dir = config.pgliteDir ?? DEFAULT_PGLITE_DIR
  if (!dir.startsWith('memory://')) mkdirSync(dir, { recursive: true })
  const pglite = new PGlite(
    dir,
    config.pgliteDataDirArchive ? { loadDataDir: config.pgliteDataDirArchive } : {},
  )
  const db = new Kysely<DB>({ dialect: new PGliteDialect({ pglite }) })
  connections.set(db, { kind: 'pglite', pglite })
  return db
}

/**
 * Applies every pending migration.
 * @throws Error naming the failed migration when one fails.
 */
export async function migrateToLatest(db: Kysely<DB>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  })
  const { error, results } = await migrator.migrateToLatest()
  const failed = results?.find((r) => r.status === 'Error')
  if (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${reason}`, { cause: error })
  }
  return (results ?? []).map((r) => r.migrationName)
}

/** Resolves when the database answers a trivial query; throws otherwise. */
export async function pingDb(db: Kysely<DB>): Promise<void> {
  await sql`select 1`.execute(db)
}
