import type { DB } from '@reelgraph/db'
import type { Graph } from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import type * as Y from 'yjs'
import type { Env } from './env.ts'
import type { AssetStorage } from './features/assets/asset-storage.ts'
import type { BillingGateway } from './features/billing/billing-gateway.ts'
import type { AiProviders } from './features/generation/providers/types.ts'
import type { JobSystem } from './features/jobs/job-system.ts'
import type { ValidSession } from '@reelgraph/db'
import type { BackgroundTasks } from './lib/background-tasks.ts'
import type { Mailer } from './services/mailer.ts'
import type { RateLimits } from './services/rate-limiter.ts'

/**
 * The live project documents, as the api sees them (implemented by `sync-server` over its
 * Hocuspocus instance; the api never imports it, the server entry wires it in).
 */
export interface DocumentGateway {
  /**
   * Makes the project's document hold exactly `graph` (the Yjs changes it implies against
   * the live document, one transaction; issue 15 item 4), so open editors see it at once,
   * and resolves with the document's graph once the change is appended to the project's log.
   */
  applyGraph(projectId: number, graph: Graph): Promise<Graph>
  /**
   * Runs `change` on the project's live document, passing `origin` (server-side) to every
   * transaction it makes, so open editors see it at once; resolves with its result once the
   * change is stored. The job worker writes job states and results with it (issue 12).
   * @throws Error when the project's document cannot be opened or the change is not stored in
   *   time.
   */
  transact<T>(projectId: number, change: (doc: Y.Doc, origin: unknown) => T): Promise<T>
  /** Disconnects every client of the project's document (after the project is deleted). */
  closeDocument(projectId: number): Promise<void>
  /**
   * Closes `userId`'s open connections to the project's document on every sync server
   * (their role changed or they were removed, issue 6 item 1): they reconnect and are
   * authenticated again with what they may do now. Resolves once this process's are closed
   * and the request is published to the others.
   */
  closeUserConnections(projectId: number, userId: number): Promise<void>
  /**
   * Closes every open sync connection authenticated with one of `sessionIds` on every sync
   * server (the sessions ended: logout, password reset; issue 6 / security): the providers
   * reconnect, are refused `unauthenticated`, and the web app signs the person out. Call it
   * after the deletion is committed; an empty list does nothing. Resolves once this
   * process's are closed and the request is published to the others (never rejects for
   * Redis).
   */
  closeSessionConnections(sessionIds: readonly string[]): Promise<void>
}

/** What the api needs from the outside world; tests pass their own. */
export interface AppDeps {
  db: Kysely<DB>
  env: Env
  logger: Logger
  mailer: Mailer
  rateLimits: RateLimits
  tasks: BackgroundTasks
  documents: DocumentGateway
  /** The active AI providers (issue 4). */
  ai: AiProviders
  /** Where generated files' bytes live (issue 4). */
  assets: AssetStorage
  /** Payments: Stripe, or the offline sandbox when STRIPE_SECRET_KEY is not set (issue 5). */
  billing: BillingGateway
  /** Generation jobs: the queue, in-process signals, and this process's workers (issue 12). */
  jobs: JobSystem
}

/** Hono's environment for every route: the typed context variables. */
export interface AppEnv {
  Variables: {
    deps: AppDeps
    db: Kysely<DB>
    /** The request's logger, carrying its request id. */
    logger: Logger
    requestId: string
    /** The signed-in session, or null for an anonymous request. */
    auth: ValidSession | null
  }
}
