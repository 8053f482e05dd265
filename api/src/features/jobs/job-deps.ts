import type { DB } from '@reelgraph/db'
import type { DocumentGateway } from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import type { JobKinds } from './job-kind.ts'
import type { JobOutcomes } from './job-outcomes.ts'
import type { GenerationQueue } from './job-queue.ts'
import type { JobSignals } from './job-signals.ts'

/**
 * What the jobs code needs of its process (issue 21): the database, the document gateway, a
 * logger, the registered kinds, the queue, the in-process signals, and who is told of
 * outcomes (issue 41). The job system (`job-system.ts`) holds them; the runner, the settling
 * and the submit service take them from it, and import no feature's code.
 */
export interface JobsContext {
  readonly db: Kysely<DB>
  readonly documents: DocumentGateway
  readonly logger: Logger
  readonly kinds: JobKinds
  readonly queue: GenerationQueue
  readonly signals: JobSignals
  /** Told of each success and failure inside its transaction (webhooks; issue 41 item 3). */
  readonly outcomes?: JobOutcomes | undefined
}
