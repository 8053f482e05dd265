import type { CreditTransactionType, JobStatus, ProjectRole } from '@reelgraph/shared'
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely'

/** A timestamp the database fills in when omitted (`default now()`). */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>
/** A timestamp every insert must give. */
type RequiredTimestamp = ColumnType<Date, Date | string, Date | string>
type NullableTimestamp = ColumnType<
  Date | null,
  Date | string | null | undefined,
  Date | string | null
>

// The contracts the rows carry are defined once, in shared (issue 14: contracts once).
export { CREDIT_TRANSACTION_TYPES } from '@reelgraph/shared'
export type { CreditTransactionType, ProjectRole }
/**
 * What a generation job makes: the name of a kind of the api's registry (issue 21), such as
 * shared's `JOB_KINDS`.
 */
export type GenerationJobKind = string
/** A generation job's life (shared's `JOB_STATUSES`). */
export type GenerationJobStatus = JobStatus

/** `users`: accounts. `credits` (spec §3) is `plan_credits + purchased_credits`. */
export interface UsersTable {
  id: Generated<number>
  name: string
  /** Stored lower-cased; unique on lower(email). */
  email: string
  /** argon2id PHC string. */
  password_hash: string
  /** Credits of the current billing cycle; reset each cycle (ARCHITECTURE decision 5). */
  plan_credits: Generated<number>
  /** Credits that never expire: packages and the account-creation grant. */
  purchased_credits: Generated<number>
  stripe_customer_id: string | null
  stripe_subscription_id: string | null
  subscription_status: Generated<string>
  subscription_period_end: NullableTimestamp
  email_verified_at: NullableTimestamp
  created_at: Timestamp
}

/** `sessions`: Lucia-guide sessions; the cookie holds `<id>.<secret>`, we keep SHA-256(secret). */
export interface SessionsTable {
  id: string
  secret_hash: Uint8Array
  user_id: number
  created_at: Timestamp
  last_seen_at: Timestamp
}

/** Single-use emailed tokens, stored as SHA-256 hex of the secret. */
export interface PasswordResetTokensTable {
  token_hash: string
  user_id: number
  expires_at: RequiredTimestamp
  created_at: Timestamp
}

export interface EmailVerificationTokensTable {
  token_hash: string
  user_id: number
  /** The address the link verifies; a changed email invalidates the link. */
  email: string
  expires_at: RequiredTimestamp
  created_at: Timestamp
}

/** Append-only credit ledger; a user's rows sum to their balance. */
export interface CreditTransactionsTable {
  id: Generated<number>
  user_id: number
  amount: number
  transaction_type: CreditTransactionType
  description: string | null
  idempotency_key: string | null
  /** Of `amount`, how much moved in the plan bucket (negative for a spend). */
  plan_amount: Generated<number>
  /** Of `amount`, how much moved in the purchased bucket. */
  purchased_amount: Generated<number>
  created_at: Timestamp
}

export interface ProjectsTable {
  id: Generated<number>
  user_id: number
  name: string
  description: string
  nodes: ColumnType<unknown[], string | undefined, string>
  connections: ColumnType<unknown[], string | undefined, string>
  created_at: Timestamp
  updated_at: Timestamp
}

/**
 * The snapshot of a project's document: with the project's `project_document_updates` it is
 * the document (issue 15); `projects.nodes/connections` mirror the snapshot as of the last
 * compaction.
 */
export interface ProjectDocumentsTable {
  project_id: number
  /** `Y.encodeStateAsUpdate(doc)` as of the last compaction (or the seed). */
  state: Uint8Array
  /** When the snapshot was last written (seeded or compacted). */
  updated_at: Timestamp
  /**
   * The snapshot's graph index (`encodeGraphIndex`, tied to `state` by its digest), or null
   * for a snapshot written before it existed (issue 23, decision 020).
   */
  graph_index: ColumnType<string | null, string | null | undefined, string | null>
}

/**
 * One append to a project's document log (issue 15 item 1): Yjs update(s) not yet merged
 * into `project_documents.state`. Yjs updates are idempotent and commutative, so rows from
 * several sync servers, repeated or in any order, load to the same document.
 */
export interface ProjectDocumentUpdatesTable {
  project_id: number
  /** A bigint identity: Postgres returns it as a string. */
  id: ColumnType<string, never, never>
  /** `Y.mergeUpdates` of the updates the store appended. */
  update: Uint8Array
  created_at: ColumnType<Date, Date | string | undefined, never>
}

/**
 * Who may open a project, and how. The owner (`projects.user_id`) has the one `owner` row;
 * a user without a row gets 404 for the project.
 */
export interface ProjectMembersTable {
  project_id: number
  user_id: number
  role: ProjectRole
  created_at: Timestamp
}

/** An emailed invitation to a project; the link carries the secret, stored as SHA-256 hex. */
export interface ProjectInvitationsTable {
  id: Generated<number>
  project_id: number
  /** Lower-cased, trimmed. */
  email: string
  role: Exclude<ProjectRole, 'owner'>
  token_hash: string
  invited_by: number
  created_at: Timestamp
  expires_at: RequiredTimestamp
  /** Set once accepted; an accepted invitation is never accepted again. */
  accepted_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
}

/** A generated file (image); its bytes live in the asset storage under `storage_key`. */
export interface AssetsTable {
  /** Random, unguessable id; the URL is /api/assets/:id. */
  id: string
  user_id: number
  project_id: number
  storage_key: string
  mime_type: string
  byte_size: number
  created_at: Timestamp
  /**
   * When the asset collector last saw something reference it (issue 40 item 5, migration
   * 0016); null until its first mark, when `created_at` stands in.
   */
  last_referenced_at: NullableTimestamp
}

/**
 * `narration_cache`: each project's spoken narrations by their media `narrationKey` (issue 21
 * item 4); the WAV is the asset `asset_id`.
 */
export interface NarrationCacheTable {
  project_id: number
  /** SHA-256 hex of the provider's identity, the voice and the exact text. */
  key: string
  asset_id: string
  /** Length of the WAV, in ms. */
  duration_ms: number
  /** The word timings (media's `WordTiming[]`), ms from the start of the WAV. */
  words: ColumnType<unknown, string, string>
  byte_size: number
  created_at: Timestamp
  last_used_at: Timestamp
}

/** The subscription plans (seeded from the api's catalogue at start-up). */
export interface PlansTable {
  id: string
  name: string
  /** US cents per month. */
  price_cents: number
  /** Credits per billing period. */
  credits: number
  features: ColumnType<string[], string | undefined, string>
  stripe_price_id: string | null
  sort_order: number
  /**
   * The most bytes the projects of an account on this plan may hold (issue 40 item 5; a
   * bigint: Postgres answers it as a string).
   */
  storage_quota_bytes: ColumnType<string | number, number | undefined, number>
}

/** One-time credit packages (seeded from the api's catalogue at start-up). */
export interface CreditPackagesTable {
  id: string
  name: string
  description: string
  /** US cents. */
  price_cents: number
  credits: number
  best_value: Generated<boolean>
  stripe_price_id: string | null
  sort_order: number
}

/** Stripe webhook events already applied, by event id (idempotent handling). */
export interface StripeEventsTable {
  id: string
  type: string
  received_at: Timestamp
}

/** A checkout of the offline billing sandbox (standing in for a Stripe Checkout Session). */
export interface SandboxCheckoutSessionsTable {
  /** `sandbox_cs_<random>`. */
  id: string
  user_id: number
  customer_id: string
  /** `payment` (a credit package) or `subscription` (a plan). */
  mode: 'payment' | 'subscription'
  price_id: string
  /** The plan id (subscription) or package id (payment). */
  plan_or_package_id: string
  /** Reactivation: the subscription that fulfilment cancels once this one is paid. */
  replaces_subscription_id: string | null
  success_url: string
  cancel_url: string
  status: Generated<'open' | 'paid' | 'canceled'>
  /** The subscription created when a subscription checkout was paid. */
  subscription_id: string | null
  created_at: Timestamp
}

/** A subscription of the offline billing sandbox (standing in for a Stripe Subscription). */
export interface SandboxSubscriptionsTable {
  /** `sandbox_sub_<random>`. */
  id: string
  customer_id: string
  user_id: number
  price_id: string
  /** Stripe's names: active, canceled. */
  status: string
  cancel_at_period_end: Generated<boolean>
  current_period_start: RequiredTimestamp
  current_period_end: RequiredTimestamp
  created_at: Timestamp
}

/**
 * `generation_jobs` (issue 12): one durable generation, its charge and its state; the queue
 * is pg-boss's (schema `pgboss`), whose job id is this row's id.
 */
export interface GenerationJobsTable {
  /** A UUID, also the pg-boss job id. */
  id: string
  user_id: number
  /** Where the result is written; null for project-less jobs (and after the project went). */
  project_id: number | null
  /** The generator node that started the job (its state is shown there). */
  node_id: string | null
  kind: GenerationJobKind
  status: Generated<GenerationJobStatus>
  /** 0-100 where the provider reports progress. */
  progress: number | null
  /** What is happening, for a person. */
  stage: string | null
  /** Why it failed or was cancelled, for a person. */
  message: string | null
  /** The api error code a failed job answers with (`PROVIDER_ERROR`, `PROVIDER_TIMEOUT`, ...). */
  error_code: string | null
  /** Credits charged. */
  cost: number
  /** Credits given back. */
  refunded: Generated<number>
  spend_transaction_id: number | null
  /** True once the provider delivered: a cancel then refunds nothing. */
  provider_paid: Generated<boolean>
  /**
   * Credits of the steps a `make-video` chain has delivered (issue 13 item 6): a failure or a
   * cancel refunds `cost - delivered_cost`. 0 for single generations.
   */
  delivered_cost: Generated<number>
  /** The validated request body (JSON). */
  input: ColumnType<unknown, string, string>
  /** The answer in its spec §7 shape (JSON), once succeeded. */
  result: ColumnType<unknown, string | null | undefined, string | null>
  /** The video provider whose concurrency slot the running job holds (issue 22), or null. */
  provider_slot: ColumnType<string | null, string | null | undefined, string | null>
  /** True once the result is in the project's document. */
  result_written: Generated<boolean>
  /** Attempts started (a retry or a worker that died counts). */
  attempts: Generated<number>
  /** `<kind>:<user id>:<Idempotency-Key>`; unique. */
  idempotency_key: string | null
  created_at: Timestamp
  updated_at: Timestamp
  /**
   * The hash of its node's inputs when its input was read (issue 42 item 4; shared's
   * `generatorInputHash`), stored on the node with its result; null without a node.
   */
  input_hash: ColumnType<string | null, string | null | undefined, string | null>
  /** True while a run's job waits for the jobs of its inputs (`job_inputs`), off the queue. */
  waiting: Generated<boolean>
}

/** `job_inputs` (issue 42 item 4, decision 034): job `job_id` waits for job `input_job_id`. */
export interface JobInputsTable {
  job_id: string
  input_job_id: string
}

/**
 * `api_tokens` (issue 41 item 1, decision 027): personal access tokens. Only the SHA-256 of
 * the token is kept; `display_prefix` (`rg_` and 5 characters) tells tokens apart.
 */
export interface ApiTokensTable {
  id: Generated<number>
  user_id: number
  name: string
  /** SHA-256 of the whole token (`rg_…`), raw bytes; unique. */
  token_hash: Uint8Array
  display_prefix: string
  /** Shared's `TOKEN_SCOPES` names (a Postgres `text[]`). */
  scopes: ColumnType<string[], string[], string[]>
  /** The projects the token may reach; null: every project of the account. */
  project_ids: ColumnType<number[] | null, number[] | null | undefined, number[] | null>
  created_at: Timestamp
  /** Moved forward at most once a minute per token. */
  last_used_at: NullableTimestamp
  /** Null: never expires. */
  expires_at: NullableTimestamp
  revoked_at: NullableTimestamp
}

/**
 * `webhook_endpoints` (issue 41 item 3, decision 028): where an account wants its events. The
 * signing secret is kept as it is (it signs every delivery) and answered only at creation.
 */
export interface WebhookEndpointsTable {
  /** A UUID. */
  id: string
  user_id: number
  /** Only this project's events; null: every project's (and project-less jobs'). */
  project_id: number | null
  url: string
  /** Shared's `WEBHOOK_EVENT_TYPES` names (a Postgres `text[]`). */
  events: ColumnType<string[], string[], string[]>
  /** `whsec_` + base64 of the HMAC key. */
  secret: string
  created_at: Timestamp
  disabled_at: NullableTimestamp
  /** Deliveries in a row that failed for good. */
  consecutive_failures: Generated<number>
}

/** `webhook_deliveries` (issue 41 item 3): one event for one endpoint, and its attempts. */
export interface WebhookDeliveriesTable {
  /** A UUID. */
  id: string
  endpoint_id: string
  /** One of shared's `WEBHOOK_EVENT_TYPES`. */
  event_type: string
  /** The `webhook-id` header (`msg_…`); unique. */
  message_id: string
  /** The exact JSON text signed and sent. */
  payload: string
  status: Generated<'pending' | 'succeeded' | 'failed'>
  attempts: Generated<number>
  /** The HTTP status of the last attempt; null when none answered. */
  last_response_code: number | null
  /** Why the last attempt failed, in words. */
  last_error: string | null
  last_attempt_at: NullableTimestamp
  next_attempt_at: NullableTimestamp
  created_at: Timestamp
}

/**
 * `templates` (issue 42 item 2, migration 0019): a graph with variables, saved from a project
 * (`owner_id`, `project_id`) or builtin (`builtin_key`, seeded at start-up).
 */
export interface TemplatesTable {
  id: Generated<number>
  /** Who saved it; null for a builtin template. */
  owner_id: number | null
  /** The project it was saved from (its members see it); null once that project is deleted. */
  project_id: number | null
  /** A builtin template's stable key (`explainer`); null for a saved one. */
  builtin_key: string | null
  name: string
  description: Generated<string>
  /** A graph file's body: `{ nodes, connections, timelines }` (shared's `graph-file.ts`). */
  graph: ColumnType<unknown, string, string>
  /** Shared's `TemplateVariable[]`. */
  variables: ColumnType<unknown, string, string>
  /** Shared's `TemplateSettings`. */
  settings: ColumnType<unknown, string, string>
  /** The asset shown as its preview frame; null: none (a builtin's is drawn). */
  preview_asset_id: string | null
  created_at: Timestamp
}

/**
 * `batches` (issue 42 item 3, migration 0020): one template times rows of values, quoted, then
 * started; `template_id` has no foreign key (a batch outlives its template).
 */
export interface BatchesTable {
  id: Generated<number>
  user_id: number
  template_id: number
  template_name: string
  /** Shared's `BATCH_STATUSES`. */
  status: Generated<'quoted' | 'running' | 'done' | 'cancelled'>
  /** The quote: credits for every row, credits per row, seconds, rows at once. */
  quote_credits: number
  quote_credits_per_row: number
  quote_seconds: number
  quote_concurrency: number
  /** The one poll chain of the batch driver that may go on (a UUID), or null. */
  poll_token: string | null
  /** True once `batch.completed` was recorded for the batch's last final row. */
  completed_event_sent: Generated<boolean>
  created_at: Timestamp
  started_at: NullableTimestamp
  finished_at: NullableTimestamp
}

/** `batch_rows` (issue 42 item 3, migration 0020): one row of a batch's table and its run. */
export interface BatchRowsTable {
  id: Generated<number>
  batch_id: number
  /** 1 for the first row of values. */
  row_number: number
  /** The variables' values (JSON object of strings). */
  values: ColumnType<unknown, string, string>
  /** Shared's `BATCH_ROW_STATUSES`. */
  status: Generated<'quoted' | 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled'>
  project_id: number | null
  project_name: string | null
  /** The row's current Make video job. */
  job_id: string | null
  /** The Make video call the row submits (shared's `MakeVideoInput`, JSON), kept for a retry. */
  make_video: ColumnType<unknown, string | null | undefined, string | null>
  /** Credits earlier attempts of the row kept after their refunds. */
  spent_before: Generated<number>
  /** Why it failed, in words. */
  error: string | null
  started_at: NullableTimestamp
  finished_at: NullableTimestamp
}

/** The Kysely database interface. */
export interface DB {
  users: UsersTable
  sessions: SessionsTable
  password_reset_tokens: PasswordResetTokensTable
  email_verification_tokens: EmailVerificationTokensTable
  credit_transactions: CreditTransactionsTable
  projects: ProjectsTable
  project_documents: ProjectDocumentsTable
  project_document_updates: ProjectDocumentUpdatesTable
  project_members: ProjectMembersTable
  project_invitations: ProjectInvitationsTable
  assets: AssetsTable
  narration_cache: NarrationCacheTable
  plans: PlansTable
  credit_packages: CreditPackagesTable
  stripe_events: StripeEventsTable
  sandbox_checkout_sessions: SandboxCheckoutSessionsTable
  sandbox_subscriptions: SandboxSubscriptionsTable
  generation_jobs: GenerationJobsTable
  api_tokens: ApiTokensTable
  webhook_endpoints: WebhookEndpointsTable
  webhook_deliveries: WebhookDeliveriesTable
  templates: TemplatesTable
  batches: BatchesTable
  batch_rows: BatchRowsTable
  job_inputs: JobInputsTable
}

export type UserRow = Selectable<UsersTable>
export type NewUser = Insertable<UsersTable>
export type UserUpdate = Updateable<UsersTable>
export type SessionRow = Selectable<SessionsTable>
export type CreditTransactionRow = Selectable<CreditTransactionsTable>
export type ProjectRow = Selectable<ProjectsTable>
export type ProjectMemberRow = Selectable<ProjectMembersTable>
export type ProjectInvitationRow = Selectable<ProjectInvitationsTable>
export type AssetRow = Selectable<AssetsTable>
export type PlanRow = Selectable<PlansTable>
export type CreditPackageRow = Selectable<CreditPackagesTable>
export type ApiTokenRow = Selectable<ApiTokensTable>
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>
export type TemplateRow = Selectable<TemplatesTable>
export type BatchRowRecord = Selectable<BatchRowsTable>
export type BatchRecord = Selectable<BatchesTable>
