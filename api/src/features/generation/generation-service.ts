import { randomUUID } from 'node:crypto'
import type { CreditTransactionType } from '@reelgraph/db'
import type { GenerationAction } from '@reelgraph/shared'
import type { Logger } from 'pino'
import type { AppDeps } from '../../app-env.ts'
import { AppError } from '../../lib/app-error.ts'
import { refundSpend, spendCredits } from '../credits/credit-ledger.ts'
import { ProviderError } from './providers/types.ts'

/** The ledger type of each action's charge (spec §4 plus ARCHITECTURE decision 4). */
const TRANSACTION_TYPES: Record<GenerationAction, CreditTransactionType> = {
  script: 'script_generation',
  scenes: 'scene_generation',
  image: 'image_generation',
}

const ACTION_NAMES: Record<GenerationAction, string> = {
  script: 'Script generation',
  scenes: 'Scene generation',
  image: 'Image generation',
}

/** An `Idempotency-Key` a client may send so a retried request is charged once. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,100}$/

/**
 * The generation path (issue 4 item 3): charge, call the provider, answer; on any failure
 * refund (`generation_refund`) and answer an error a person can read. The provider gets an
 * AbortSignal that fires after `timeoutMs`.
 * @throws AppError 402 when the user cannot pay (nothing is called), 409 for a repeated
 *   idempotency key, 504 PROVIDER_TIMEOUT or 502 PROVIDER_ERROR after a refund.
 */
export async function chargeAndRun<T>(
  deps: Pick<AppDeps, 'db' | 'env'>,
  logger: Logger,
  request: {
    userId: number
    action: GenerationAction
    description: string
    idempotencyKey?: string | undefined
    timeoutMs: number
  },
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const cost = deps.env.costs[request.action]
  if (
    request.idempotencyKey !== undefined &&
    !IDEMPOTENCY_KEY_PATTERN.test(request.idempotencyKey)
  ) {
    throw new AppError(
      'BAD_REQUEST',
      'The Idempotency-Key header must be 8 to 100 letters, digits, "-" or "_".',
    )
  }
  const key = `${request.action}:${request.userId}:${request.idempotencyKey ?? randomUUID()}`
  const spend =
    cost > 0
      ? await spendCredits(deps.db, {
          userId: request.userId,
          amount: cost,
          type: TRANSACTION_TYPES[request.action],
          description: request.description,
          idempotencyKey: key,
        })
      : null
  try {
    return await run(AbortSignal.timeout(request.timeoutMs))
  } catch (err) {
    if (spend) {
      await refundSpend(deps.db, spend.transactionId, `${ACTION_NAMES[request.action]} failed`)
    }
    const refunded = spend ? ' Your credits were refunded.' : ''
    if (err instanceof ProviderError) {
      logger.warn({ err, action: request.action, kind: err.kind }, 'generation failed')
      if (err.kind === 'timeout') {
        throw new AppError(
          'PROVIDER_TIMEOUT',
          `The AI provider took too long to answer.${refunded} Please try again.`,
          { cause: err },
        )
      }
      throw new AppError('PROVIDER_ERROR', `${err.message}${refunded}`, { cause: err })
    }
    if (err instanceof AppError) throw err
    logger.error({ err, action: request.action }, 'generation failed unexpectedly')
    throw new AppError(
      'INTERNAL',
      `Something went wrong while generating.${refunded} Please try again.`,
      { cause: err },
    )
  }
}

/** A random seed from 0 to `max` (spec §5: used when the seed is empty). */
export function randomSeed(max: number): number {
  return Math.floor(Math.random() * (max + 1))
}
