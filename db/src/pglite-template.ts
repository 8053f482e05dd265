import { createHash, randomBytes } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createDb, databaseConnection, migrateToLatest } from './create-db.ts'

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url))

/** Beside the other tools' caches, in the folder git ignores. */
const CACHE_DIR = fileURLToPath(
  new URL('../../node_modules/.cache/reelgraph-tests/', import.meta.url),
)

/** The installed PGlite's version, from the package.json above its entry point. */
async function pgliteVersion(): Promise<string> {
  let dir = dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite')))
  for (;;) {
    try {
      const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
        name?: string
        version?: string
      }
      if (manifest.name === '@electric-sql/pglite') return String(manifest.version)
    } catch {
      // no package.json here: go up
    }
    if (dirname(dir) === dir) throw new Error('PGlite has no package.json above its entry')
    dir = dirname(dir)
  }
}

/**
 * What the template is made from: PGlite's version and every migration file's name and
 * text. A change to either gives another key, so a stale template is never loaded.
 */
async function templateKey(): Promise<string> {
  const hash = createHash('sha256')
  hash.update(`pglite ${await pgliteVersion()}\n`)
  for (const name of (await readdir(MIGRATIONS_DIR)).sort()) {
    hash.update(`${name}\n`).update(await readFile(join(MIGRATIONS_DIR, name)))
  }
  return hash.digest('hex').slice(0, 16)
}

/** A fresh in-memory PGlite, migrated, dumped as an uncompressed tar. */
async function buildTemplate(): Promise<Blob> {
  const db = createDb({ pgliteDir: 'memory://' })
  try {
    await migrateToLatest(db)
    const connection = databaseConnection(db)
    if (connection.kind !== 'pglite') throw new Error('The template is made on PGlite')
    return await connection.pglite.dumpDataDir('none')
  } finally {
    await db.destroy()
  }
}

let template: Promise<Blob> | undefined

/**
 * A PGlite data directory with every migration applied and no rows, as a tar for
 * `createDb({ pgliteDataDirArchive })` (test support). Starting a test database from it
 * skips initdb and the migrations: about 1.4 CPU-s a database against 4.5 (measured on the
 * 2-core machine), for the hundred-odd PGlite databases of a suite run. Kept in
 * `node_modules/.cache/reelgraph-tests/`, keyed by {@link templateKey}, so each test file
 * (Vitest runs each in a fresh process) reads it instead of making it; written to a
 * temporary name and renamed, so parallel files never read half a file. Made once per
 * process when it cannot be read.
 */
export function migratedPgliteTemplate(): Promise<Blob> {
  template ??= (async () => {
    const path = join(CACHE_DIR, `pglite-migrated-${await templateKey()}.tar`)
    try {
      return new Blob([await readFile(path)])
    } catch {
      const made = await buildTemplate()
      await mkdir(CACHE_DIR, { recursive: true })
      const partial = `${path}.${randomBytes(6).toString('hex')}.tmp`
      try {
        await writeFile(partial, new Uint8Array(await made.arrayBuffer()))
        await rename(partial, path)
      } catch {
        await rm(partial, { force: true })
      }
      return made
    }
  })()
  return template
}
