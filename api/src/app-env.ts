import type { DB } from '@reelgraph/db'
import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import type { Env } from './env.ts'
import type { ValidSession } from '@reelgraph/db'
import type { BackgroundTasks } from './lib/background-tasks.ts'
import type { Mailer } from './services/mailer.ts'
import type { RateLimits } from './services/rate-limiter.ts'

/** What the api needs from the outside world; tests pass their own. */
export interface AppDeps {
  db: Kysely<DB>
  env: Env
  logger: Logger
  mailer: Mailer
  rateLimits: RateLimits
  tasks: BackgroundTasks
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
