import type { Migration } from 'kysely/migration'
import * as accounts from './0001-accounts.ts'
import * as projectDocuments from './0002-project-documents.ts'
import * as generation from './0003-generation.ts'
import * as billing from './0004-billing.ts'
import * as billingSandbox from './0005-billing-sandbox.ts'
import * as projectMembers from './0006-project-members.ts'
import * as rateLimits from './0007-rate-limits.ts'
import * as generationJobs from './0008-generation-jobs.ts'
import * as videoJobs from './0009-video-jobs.ts'
import * as makeVideoJobs from './0010-make-video-jobs.ts'
import * as projectDocumentUpdates from './0011-project-document-updates.ts'
import * as openJobKinds from './0012-open-job-kinds.ts'
import * as narrationCache from './0013-narration-cache.ts'
import * as providerSlots from './0014-provider-slots.ts'
import * as graphIndex from './0015-graph-index.ts'
import * as storageQuota from './0016-storage-quota.ts'
import * as apiTokens from './0017-api-tokens.ts'
import * as webhooks from './0018-webhooks.ts'
import * as templates from './0019-templates.ts'
import * as batches from './0020-batches.ts'
import * as jobInputs from './0021-job-inputs.ts'

/**
 * Every migration, in order. Names sort lexically; add new ones at the end with the next
 * number. A static list (not a folder scan) so the set is the same in every runtime.
 */
export const migrations: Record<string, Migration> = {
  '0001-accounts': accounts,
  '0002-project-documents': projectDocuments,
  '0003-generation': generation,
  '0004-billing': billing,
  '0005-billing-sandbox': billingSandbox,
  '0006-project-members': projectMembers,
  '0007-rate-limits': rateLimits,
  '0008-generation-jobs': generationJobs,
  '0009-video-jobs': videoJobs,
  '0010-make-video-jobs': makeVideoJobs,
  '0011-project-document-updates': projectDocumentUpdates,
  '0012-open-job-kinds': openJobKinds,
  '0013-narration-cache': narrationCache,
  '0014-provider-slots': providerSlots,
  '0015-graph-index': graphIndex,
  '0016-storage-quota': storageQuota,
  '0017-api-tokens': apiTokens,
  '0018-webhooks': webhooks,
  '0019-templates': templates,
  '0020-batches': batches,
  '0021-job-inputs': jobInputs,
}
