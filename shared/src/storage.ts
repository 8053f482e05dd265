import { z } from 'zod'
import { PLAN_IDS } from './billing.ts'

/**
 * Storage per account (issue 40 item 5): every asset of the projects an account owns counts
 * against its plan's quota; `GET /api/user/storage` answers the use and the quota, and the
 * subscription page shows them.
 */

/** `GET /api/user/storage`: bytes the account's projects hold, its plan's quota, the plan. */
export const storageUsageSchema = z
  .object({
    /** Bytes of every asset of the projects the account owns. */
    usedBytes: z.number().int().min(0),
    /** The most bytes those projects may hold on the account's plan. */
    quotaBytes: z.number().int().min(0),
    planId: z.enum(PLAN_IDS),
  })
  .meta({ id: 'StorageUsage' })
export type StorageUsage = z.infer<typeof storageUsageSchema>

const MIB = 1024 ** 2
const GIB = 1024 ** 3

/** `n` with at most one decimal, rounded as asked, without a trailing `.0`. */
function oneDecimal(n: number, round: 'nearest' | 'up'): string {
  const tenths = round === 'up' ? Math.ceil(n * 10 - 1e-9) : Math.round(n * 10)
  return String(tenths / 10)
}

/**
 * A size in bytes as people read it on the subscription page and in the quota's refusal:
 * "1 GB", "1.1 GB", "120 MB", "0.4 MB" (binary units, 1 GB = 1024 MB, as the settings count).
 * `round: 'up'` never shows less than the size (a total just past a quota reads past it).
 */
export function formatStorageSize(bytes: number, round: 'nearest' | 'up' = 'nearest'): string {
  if (bytes >= GIB) return `${oneDecimal(bytes / GIB, round)} GB`
  const mb = bytes / MIB
  if (mb >= 10) return `${round === 'up' ? Math.ceil(mb) : Math.round(mb)} MB`
  if (bytes === 0) return '0 MB'
  const shown = oneDecimal(mb, round)
  return `${shown === '0' ? '0.1' : shown} MB`
}
