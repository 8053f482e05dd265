import type { DB } from '@reelgraph/db'
import {
  formatStorageSize,
  type PlanId,
  parseSubscriptionStatus,
  type StorageUsage,
} from '@reelgraph/shared'
import { type Kysely, sql } from 'kysely'
import { DEFAULT_STORAGE_QUOTA_MB } from '../../config.ts'
import { AppError } from '../../lib/app-error.ts'

/**
 * Storage per account (issue 40 item 5, decision 026): the assets of every project an account
 * owns count against the quota of that account's plan (`plans.storage_quota_bytes`, seeded from
 * the `STORAGE_QUOTA_*_MB` settings), whoever made them. Every asset is stored through
 * {@link insertAssetRowsWithinQuota}, which checks the quota and inserts the rows in one
 * transaction holding the owner's row: two stores at once for one account are judged one after
 * the other, on every process.
 */

type Db = Kysely<DB>

/** A new asset row, as the asset service inserts it. */
export interface NewAssetRow {
  id: string
  storage_key: string
  mime_type: string
  byte_size: number
}

/** Bytes of every asset of the projects `ownerId` owns. */
async function usedBytesOf(db: Db, ownerId: number): Promise<number> {
  const row = await db
    .selectFrom('assets')
    .innerJoin('projects', 'projects.id', 'assets.project_id')
    .select(sql<string | number | null>`sum(assets.byte_size)`.as('used'))
    .where('projects.user_id', '=', ownerId)
    .executeTakeFirst()
  return Number(row?.used ?? 0)
}

/**
 * The quota of `planId` in bytes: its `plans` row, else (a worker that started before any api
 * process seeded the plans) the default of its setting.
 */
async function quotaBytesOf(db: Db, planId: PlanId): Promise<number> {
  const row = await db
    .selectFrom('plans')
    .select('storage_quota_bytes')
    .where('id', '=', planId)
    .executeTakeFirst()
  return row ? Number(row.storage_quota_bytes) : DEFAULT_STORAGE_QUOTA_MB[planId] * 1024 ** 2
}

/**
 * The storage of account `userId`: bytes its projects hold, its plan's quota, its plan.
 * @throws AppError 404 NOT_FOUND when there is no such account.
 * @see issue 40 item 5 (`GET /api/user/storage`)
 */
export async function accountStorage(db: Db, userId: number): Promise<StorageUsage> {
  const { storage } = await storageOf(db, { userId, lock: false })
  return storage
}

/**
 * What the account `userId`, or the owner of project `projectId`, stores, its plan and that
 * plan's quota, with the account's id; with `lock`, the account's row is held
 * `FOR NO KEY UPDATE` until the transaction ends: stores for one account wait for each other,
 * while foreign-key checks on the row (a new asset made by this user) and credit spends do not.
 * @throws AppError 404 NOT_FOUND when there is no such account, or no such project.
 */
async function storageOf(
  db: Db,
  input: ({ userId: number } | { projectId: number }) & { lock: boolean },
): Promise<{ ownerId: number; storage: StorageUsage }> {
  let owner: { ownerId: number; subscription_status: string } | undefined
  if ('projectId' in input) {
    let query = db
      .selectFrom('projects')
      .innerJoin('users', 'users.id', 'projects.user_id')
      .select(['users.id as ownerId', 'users.subscription_status'])
      .where('projects.id', '=', input.projectId)
    if (input.lock) query = query.forNoKeyUpdate('users')
    owner = await query.executeTakeFirst()
    if (!owner) throw new AppError('NOT_FOUND', 'This project no longer exists.')
  } else {
    let query = db
      .selectFrom('users')
      .select(['id as ownerId', 'subscription_status'])
      .where('id', '=', input.userId)
    if (input.lock) query = query.forNoKeyUpdate()
    owner = await query.executeTakeFirst()
    if (!owner) throw new AppError('NOT_FOUND', 'This account does not exist.')
  }
  const { planId } = parseSubscriptionStatus(owner.subscription_status)
  const quotaBytes = await quotaBytesOf(db, planId)
  const usedBytes = await usedBytesOf(db, owner.ownerId)
  return { ownerId: owner.ownerId, storage: { usedBytes, quotaBytes, planId } }
}

/**
 * The refusal of a store that would take the owner's storage past the quota, in words that
 * say what to do: 413 PAYLOAD_TOO_LARGE.
 */
function storageFullError(input: {
  usedBytes: number
  addedBytes: number
  quotaBytes: number
  /** True when the one storing it owns the project (else the owner is named as such). */
  ownStorage: boolean
}): AppError {
  const after = formatStorageSize(input.usedBytes + input.addedBytes, 'up')
  const quota = formatStorageSize(input.quotaBytes)
  return new AppError(
    'PAYLOAD_TOO_LARGE',
    input.ownStorage
      ? `This file would take your storage to ${after} of your ${quota} plan. Delete unused media or upgrade your plan.`
      : `This file would take the storage of this project’s owner to ${after} of their ${quota} plan. Delete unused media, or ask the owner to upgrade their plan.`,
  )
}

/**
 * Throws {@link storageFullError} when `addedBytes` more would pass the quota of the owner of
 * `projectId`. @throws AppError 404 NOT_FOUND when the project is gone.
 */
async function requireRoom(
  db: Db,
  input: { projectId: number; userId: number; addedBytes: number; lock: boolean },
): Promise<void> {
  const { ownerId, storage } = await storageOf(db, { projectId: input.projectId, lock: input.lock })
  const { usedBytes, quotaBytes } = storage
  if (usedBytes + input.addedBytes > quotaBytes) {
    throw storageFullError({
      usedBytes,
      addedBytes: input.addedBytes,
      quotaBytes,
      ownStorage: ownerId === input.userId,
    })
  }
}

/**
 * Checks, without holding anything, that `addedBytes` more fit in the storage of the owner of
 * `projectId`: a store refused here writes no byte. {@link insertAssetRowsWithinQuota} decides.
 * @throws AppError 413 PAYLOAD_TOO_LARGE past the quota, in words; 404 NOT_FOUND when the
 *   project is gone.
 * @see issue 40 item 5
 */
export async function checkStorageQuota(
  db: Db,
  input: { userId: number; projectId: number; addedBytes: number },
): Promise<void> {
  // Outside a transaction a lock would end with its statement: this is the early check only.
  await requireRoom(db, { ...input, lock: false })
}

/**
 * Inserts the rows of assets whose bytes are stored, made by `userId` in `projectId`, when
 * they fit in the storage of the project's owner: one transaction that locks the owner's row,
 * sums the owner's assets and inserts, so two stores at once cannot both pass the quota.
 * @throws AppError 413 PAYLOAD_TOO_LARGE past the quota (nothing inserted), 404 NOT_FOUND when
 *   the project is gone; the caller removes the bytes.
 * @see issue 40 item 5
 */
export async function insertAssetRowsWithinQuota(
  db: Db,
  input: { userId: number; projectId: number; rows: readonly NewAssetRow[] },
): Promise<void> {
  const addedBytes = input.rows.reduce((sum, row) => sum + row.byte_size, 0)
  await db.transaction().execute(async (trx) => {
    await requireRoom(trx, {
      projectId: input.projectId,
      userId: input.userId,
      addedBytes,
      lock: true,
    })
    await trx
      .insertInto('assets')
      .values(
        input.rows.map((row) => ({ ...row, user_id: input.userId, project_id: input.projectId })),
      )
      .execute()
  })
}
