import type { DB } from '@reelgraph/db'
import type { TestDatabase, TestDatabaseKind } from '@reelgraph/db/testing'
import type { DocumentGateway } from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { createDocumentGateway } from '../document-gateway.ts'
import { type RunningSyncServer, type StartSyncServerOptions, startSyncServer } from '../server.ts'
import { captureLogger, connectClient, type TestClient } from './sync-test-kit.ts'

/** What {@link useSyncServer} gives a describe block (read inside tests: set in beforeAll). */
export interface SyncServerFixture {
  readonly db: Kysely<DB>
  readonly server: RunningSyncServer
  readonly gateway: DocumentGateway
  /**
   * A provider on `projectId` with `cookie` (none: no cookie), on this server or `on`,
   * destroyed after the test.
   */
  connect(projectId: number, cookie?: string, on?: RunningSyncServer): TestClient
}

/**
 * One in-process sync server (port 0, plain cookies, a captured logger) on a fresh database
 * of `kind`, for the calling describe block: started before its tests, every provider made
 * with `connect` destroyed after each test, the server and database closed after all.
 * `options` override the server settings (debounces, retries).
 */
export function useSyncServer(
  kind: TestDatabaseKind,
  options: Partial<Omit<StartSyncServerOptions, 'db'>> = {},
): SyncServerFixture {
  let database: TestDatabase | undefined
  let server: RunningSyncServer | undefined
  let gateway: DocumentGateway | undefined
  const clients: TestClient[] = []
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is read before beforeAll ran`)
    return value
  }

  beforeAll(async () => {
    database = await kind.create()
    server = await startSyncServer({
      db: database.db,
      logger: captureLogger(),
      port: 0,
      host: '127.0.0.1',
      secureCookies: false,
      ...options,
    })
    gateway = createDocumentGateway(server)
  })

  afterEach(() => {
    for (const client of clients.splice(0)) client.destroy()
  })

  afterAll(async () => {
    await server?.close()
    await database?.dispose()
  })

  return {
    get db() {
      return ready(database, 'the database').db
    },
    get server() {
      return ready(server, 'the sync server')
    },
    get gateway() {
      return ready(gateway, 'the gateway')
    },
    connect(projectId, cookie, on) {
      const client = connectClient({
        port: (on ?? ready(server, 'the sync server')).port,
        projectId,
        cookie,
      })
      clients.push(client)
      return client
    },
  }
}
