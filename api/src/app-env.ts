import type { DB } from '@reelgraph/db'
import type { DocumentGateway } from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import type { Registry } from 'prom-client'
import type { Logger } from 'pino'
import type { Env } from './env.ts'
import type { AssetStorage } from './features/assets/asset-storage.ts'
import type { BillingGateway } from './features/billing/billing-gateway.ts'
import type { ModelCatalog } from './features/generation/catalog/types.ts'
import type { AiProviders } from './features/generation/providers/types.ts'
import type { JobSystem } from './features/jobs/job-system.ts'
import type { TokenActor } from './features/tokens/token-service.ts'
import type { ValidSession } from '@reelgraph/db'
import type { BackgroundTasks } from './lib/background-tasks.ts'
import type { Mailer } from './services/mailer.ts'
import type { RateLimits } from './services/rate-limiter.ts'

/**
 * What every server process has (`createRuntime`, api/src/runtime.ts): a worker process has
 * only this.
 */
export interface WorkerDeps {
  db: Kysely<DB>
  env: Env
  logger: Logger
  tasks: BackgroundTasks
  documents: DocumentGateway
  /** The active AI providers (issue 4). */
  ai: AiProviders
  /** Every configured provider's image and video models (issue 22). */
  catalog: ModelCatalog
  /** Where generated files' bytes live (issue 4). */
  assets: AssetStorage
  /** Jobs: the queue, the kinds, in-process signals, and this process's workers (issues 12, 21). */
  jobs: JobSystem
}

/** What the api needs from the outside world (`createRuntime`; tests pass their own parts). */
export interface AppDeps extends WorkerDeps {
  mailer: Mailer
  rateLimits: RateLimits
  /** Payments: Stripe, or the offline sandbox when STRIPE_SECRET_KEY is not set (issue 5). */
  billing: BillingGateway
  /** The process's metrics, served at `/metrics` (issue 23 item 4); absent: none served. */
  metrics?: Registry | undefined
}

/** Hono's environment for every route: the typed context variables. */
export interface AppEnv {
  Variables: {
    deps: AppDeps
    db: Kysely<DB>
    /** The request's logger, carrying its request id. */
    logger: Logger
    requestId: string
    /** The signed-in session, or null for an anonymous request (and for a bearer one). */
    auth: ValidSession | null
    /**
     * The API token of a bearer request (issue 41 item 1), already checked for the route's
     * scope; absent for every other request.
     */
    token?: TokenActor | undefined
  }
}
