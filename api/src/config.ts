/**
 * Tunables of the api, each with its unit and reason.
 */

/** Largest request body accepted, in bytes, unless a route needs more (issue 2). */
export const BODY_LIMIT_BYTES = 1024 * 1024
/**
 * Project bodies carry whole graphs: a project may hold 5 MiB (issue 3), plus room for
 * JSON whitespace, so the size rule can answer with its own message.
 */
export const PROJECT_BODY_LIMIT_BYTES = 6 * 1024 * 1024

/** A password reset link works for one hour (issue 2). */
export const PASSWORD_RESET_TOKEN_TTL_MS = 60 * 60 * 1000
/** An email verification link works for two days: people verify late. */
export const EMAIL_VERIFICATION_TOKEN_TTL_MS = 48 * 60 * 60 * 1000

/** argon2id parameters (OWASP Password Storage: m=19 MiB, t=2, p=1). */
export const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const

/** A rate limit: `points` events per `durationSeconds`, then blocked for `blockSeconds`. */
export interface RateLimitRule {
  points: number
  durationSeconds: number
  blockSeconds: number
}

/**
 * The rate limits of the auth calls (issue 2, OWASP Authentication cheat sheet). A login
 * attempt counts before its password is checked and is given back when it succeeds, so the
 * login limits count failures (issue 11 item 4).
 */
export interface RateLimitRules {
  /**
   * Failed logins for one account from one client address: stops one guesser early, and
   * only them, so a stranger cannot lock the owner out (issue 11 item 5). Forgotten when the
   * account signs in from that address.
   */
  loginFailuresPerAccountAndIp: RateLimitRule
  /** Failed logins for one account from every address together: stops a distributed guess. */
  loginFailuresPerAccount: RateLimitRule
  /** Failed logins from one address, every account together: stops password spraying. */
  loginFailuresPerIp: RateLimitRule
  /** Registrations from one IP address. */
  registrationsPerIp: RateLimitRule
  /** Password reset requests from one IP address. */
  resetRequestsPerIp: RateLimitRule
  /** Password reset requests for one email address (stops mail bombing). */
  resetRequestsPerEmail: RateLimitRule
  /** Verification email re-sends per user. */
  verificationResendsPerUser: RateLimitRule
  /** Project invitations sent per user, all projects together (stops mail bombing; issue 6). */
  invitationsPerUser: RateLimitRule
  /** Scene narration previews per user (free, but each one runs the speech provider; issue 13). */
  narrationPreviewsPerUser: RateLimitRule
  /** Music uploads per user (each one runs ffmpeg on the api; issue 24). */
  musicUploadsPerUser: RateLimitRule
  /** Exports for an editor per user (each one streams a film's media out of storage; issue 24). */
  exportsPerUser: RateLimitRule
}

export const DEFAULT_RATE_LIMITS: RateLimitRules = {
  // 5 per 15 min, then 15 min: a person mistyping gets several tries (issue 2).
  loginFailuresPerAccountAndIp: { points: 5, durationSeconds: 15 * 60, blockSeconds: 15 * 60 },
  // 100 per hour, then 1 hour: OWASP ASVS 2.2.1 allows at most 100 failures per hour per account.
  loginFailuresPerAccount: { points: 100, durationSeconds: 60 * 60, blockSeconds: 60 * 60 },
  // 50 per 15 min, then 15 min: room for an office behind one address.
  loginFailuresPerIp: { points: 50, durationSeconds: 15 * 60, blockSeconds: 15 * 60 },
  registrationsPerIp: { points: 20, durationSeconds: 60 * 60, blockSeconds: 60 * 60 },
  resetRequestsPerIp: { points: 10, durationSeconds: 15 * 60, blockSeconds: 15 * 60 },
  resetRequestsPerEmail: { points: 3, durationSeconds: 60 * 60, blockSeconds: 60 * 60 },
  verificationResendsPerUser: { points: 3, durationSeconds: 60 * 60, blockSeconds: 60 * 60 },
  invitationsPerUser: { points: 30, durationSeconds: 60 * 60, blockSeconds: 60 * 60 },
  // 30 per minute, then 1 minute: a person listening scene by scene never meets it.
  narrationPreviewsPerUser: { points: 30, durationSeconds: 60, blockSeconds: 60 },
  // 20 per hour, then 1 hour: a person trying tracks for a film never meets it.
  musicUploadsPerUser: { points: 20, durationSeconds: 60 * 60, blockSeconds: 60 * 60 },
  // 20 per hour, then 1 hour: a person hands a film to an editor a few times, not hundreds.
  exportsPerUser: { points: 20, durationSeconds: 60 * 60, blockSeconds: 60 * 60 },
}

// Generation jobs (issue 12; docs/decisions/ for the queue). Each default can be changed by
// the setting of the same name without the DEFAULT_ prefix (api/src/env.ts).

/**
 * How long a generation call waits for its job before answering 202 `{ jobId, status }`, in
 * ms: 25 s stays under the 30 s idle timeout of common proxies and load balancers, and covers
 * every text generation and most images, so existing clients get their answer in one call.
 */
export const DEFAULT_JOB_WAIT_MS = 25_000
/**
 * Jobs one worker process runs at once: a provider call is mostly waiting on the network, so
 * 4 keeps a small machine busy without queueing image renders (CPU, builtin) behind each other
 * on its 2 cores.
 */
export const DEFAULT_JOB_WORKER_CONCURRENCY = 4
/**
 * Jobs one user has running at once, across every worker: 2, so one person's 50 clicks cannot
 * take every worker from everyone else (pg-boss group concurrency, counted in the database).
 */
export const DEFAULT_JOB_USER_CONCURRENCY = 2
/**
 * Rows of one account's batches that have a Make video job at once (issue 42 item 3): 2, the
 * jobs a user may have running (`DEFAULT_JOB_USER_CONCURRENCY`), so a batch never queues
 * charged jobs that only wait, and a person's own clicks still get a turn.
 */
export const DEFAULT_BATCH_USER_CONCURRENCY = 2
/**
 * How often a running batch's driver looks at its rows, in ms (issue 42 item 3): rows start as
 * others end through the job system's outcomes at once; this poll catches a row's job cancelled
 * from its node and a start lost with its process.
 */
export const BATCH_POLL_MS = 15_000
/**
 * A row marked running without a job for this long, in ms, was lost with the process starting
 * it (making a project and submitting its job takes seconds): it is started again, its project
 * and any job of it adopted (issue 42 item 3).
 */
export const BATCH_START_STALE_MS = 5 * 60_000
/**
 * Retries of a job after a transient provider failure (429, 5xx, network, timeout), and after a
 * worker died holding it: 3, then it fails and is refunded.
 */
export const DEFAULT_JOB_RETRY_LIMIT = 3
/** First wait before a retry, in seconds, doubling with jitter (pg-boss backoff). */
export const DEFAULT_JOB_RETRY_DELAY_SECONDS = 2
/** Longest wait before a retry, in seconds: a provider that is down for a minute is waited out. */
export const JOB_RETRY_DELAY_MAX_SECONDS = 60
/**
 * A running job's heartbeat, in seconds (pg-boss's minimum is 10): a worker that dies (killed,
 * machine lost) stops beating, and the job is handed to another worker after this long plus one
 * monitor pass. 30 s: a few missed beats under load do not cost a running provider call.
 */
export const DEFAULT_JOB_HEARTBEAT_SECONDS = 30
/** How often pg-boss looks for jobs whose worker died, in seconds. */
export const DEFAULT_JOB_MONITOR_SECONDS = 10
/**
 * The longest a job may stay active beyond its provider timeout, in seconds (storing the image,
 * writing into the document); past the provider timeout plus this, pg-boss takes it back.
 */
export const JOB_EXPIRY_MARGIN_SECONDS = 60
/**
 * How often a job's waiters and its worker look at the job row, in ms: the api's wait for a job
 * another process runs, and a worker's check for a cancel made on another process. In-process
 * they are told at once.
 */
export const JOB_POLL_MS = 250
/**
 * How often an idle worker fetches when LISTEN/NOTIFY is not working, in seconds (pg-boss's
 * minimum, 0.5): then polling is all there is.
 */
export const JOB_POLLING_INTERVAL_SECONDS = 0.5
/**
 * How often an idle worker fetches while LISTEN/NOTIFY works, in seconds: a new job wakes the
 * workers at once and a worker that finishes a job fetches again at once, so this only catches
 * retries coming due after their backoff (at most this late) and a missed notification. 2 s
 * keeps an idle embedded app (PGlite, one connection shared with every request) from polling
 * 10 times a second, and a retry's wait close to its backoff.
 */
export const JOB_NOTIFY_POLLING_INTERVAL_SECONDS = 2
/**
 * How long a scene's play button waits for its narration job, in ms (issue 21 item 4): as
 * long as one speech call may take (media's SPEECH_TIMEOUT_MS), whatever JOB_WAIT_MS is, since
 * the answer is the audio itself.
 */
export const NARRATION_PREVIEW_WAIT_MS = 60_000

/**
 * The fastest a running job's progress is written (row and node), in ms: providers poll about
 * once a second, and every write is a document change every member receives.
 */
export const JOB_PROGRESS_WRITE_MS = 1_000
/** A finished job's pg-boss row is kept this long, in seconds (ours is kept for good): 1 day. */
export const JOB_QUEUE_RETENTION_SECONDS = 24 * 60 * 60

/**
 * Clips one video provider makes at once, over every worker process, unless its
 * `*_CONCURRENCY` setting says otherwise (issue 22 item 2). fal and Replicate run a few
 * requests of a new account at once and queue the rest themselves.
 */
export const DEFAULT_CLOUD_VIDEO_CONCURRENCY = 4
/** Veo's preview quota on the Gemini API is a few requests a minute. */
export const DEFAULT_GEMINI_VIDEO_CONCURRENCY = 2
/** One GPU runs one ComfyUI prompt at a time; more would only wait in its own queue. */
export const DEFAULT_COMFYUI_CONCURRENCY = 1
/** The offline motion draft's ffmpeg already uses both cores of a small server. */
export const DEFAULT_BUILTIN_VIDEO_CONCURRENCY = 1

/**
 * Storage per account by plan, in MiB (issue 40 item 5), unless `STORAGE_QUOTA_*_MB` says
 * otherwise: Free holds a few rendered films and their clips (1 GiB); Basic a month of
 * steady work (20 GiB); Pro a series with many clip takes (100 GiB).
 */
export const DEFAULT_STORAGE_QUOTA_MB = { free: 1024, basic: 20 * 1024, pro: 100 * 1024 } as const
/**
 * How long the asset collector keeps media nothing references, in hours (issue 40 item 5,
 * decision 026): 7 days covers a job that stored a result it has not written yet, an undo
 * of a deletion in a session left open over a weekend, and a version restored a week on.
 */
export const DEFAULT_ASSET_GC_GRACE_HOURS = 7 * 24
/** When the asset collector runs (cron, UTC): daily at 04:23, a quiet hour off the full hour. */
export const DEFAULT_ASSET_GC_CRON = '23 4 * * *'
/** Asset ids marked or deleted in one statement by the collector: bounded statements. */
export const ASSET_GC_BATCH = 500
/** Projects whose references the collector reads per page (one document decoded at a time). */
export const ASSET_GC_PROJECT_PAGE = 100

/**
 * An API token's `last_used_at` is written at most this often, in ms (issue 41 item 1): the
 * settings page shows it to the minute, and a program's requests stay reads.
 */
export const API_TOKEN_TOUCH_INTERVAL_MS = 60_000

/**
 * Waits before each retry of a webhook delivery that failed (issue 41 item 3, decision 028),
 * unless `WEBHOOK_RETRY_DELAYS` says otherwise: growing from seconds (a receiver restarting)
 * to a day (one down for a night), 7 retries over about 31 hours, as the Standard Webhooks
 * senders (Svix) do.
 */
export const DEFAULT_WEBHOOK_RETRY_DELAYS = '5s,30s,2m,10m,1h,6h,24h'
/** Longest single wait between two attempts that `WEBHOOK_RETRY_DELAYS` may set: 7 days. */
export const WEBHOOK_RETRY_DELAY_MAX_MS = 7 * 86_400_000
/**
 * Deliveries in a row that fail for good (each after its whole retry schedule) before an
 * endpoint is disabled and its owner emailed: 10, so an endpoint is disabled only after more
 * than a day of failing, never for one bad answer.
 */
export const DEFAULT_WEBHOOK_DISABLE_AFTER_FAILURES = 10
/**
 * Longest one delivery attempt may take, in ms, its answer included: 15 s. A receiver should
 * answer at once and do its work afterwards; one that takes longer holds a worker slot.
 */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 15_000
/** Deliveries one process attempts at once: a slow receiver cannot hold them all for long. */
export const WEBHOOK_DELIVERY_CONCURRENCY = 4
/** Bytes of a receiver's answer read for the log; the rest is dropped unread. */
export const WEBHOOK_RESPONSE_LOG_BYTES = 4 * 1024

/**
 * Bytes of graph JSON text each api process keeps for `get_project` over MCP (issue 41 item
 * 2; `features/projects/graph-json-cache.ts`): some 160 projects of 300 nodes. Every read
 * checks the entry against the project's stored version first, so a process never answers
 * an older graph than the database holds.
 */
export const GRAPH_JSON_CACHE_BYTES = 32 * 1024 * 1024
