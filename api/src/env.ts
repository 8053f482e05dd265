import {
  DEFAULT_GENERATION_COSTS,
  describeLookalike,
  findLookalikeSettings,
  metricsPortSchema,
  metricsTokenSchema,
  type SettingLookalike,
} from '@reelgraph/shared'
import { resolve } from 'node:path'
import { z } from 'zod'
import { parseDurationList } from './lib/durations.ts'
import { parseAllowList } from './lib/outbound/address-rules.ts'
import {
  DEFAULT_CLIP_MAX_BYTES,
  DEFAULT_IMAGE_RESULT_MAX_BYTES,
  DEFAULT_OUTBOUND_TIMEOUT_MS,
} from './lib/outbound/limits.ts'
import {
  DEFAULT_ASSET_GC_CRON,
  DEFAULT_ASSET_GC_GRACE_HOURS,
  DEFAULT_BUILTIN_VIDEO_CONCURRENCY,
  DEFAULT_CLOUD_VIDEO_CONCURRENCY,
  DEFAULT_COMFYUI_CONCURRENCY,
  DEFAULT_GEMINI_VIDEO_CONCURRENCY,
  DEFAULT_JOB_HEARTBEAT_SECONDS,
  DEFAULT_JOB_MONITOR_SECONDS,
  DEFAULT_JOB_RETRY_DELAY_SECONDS,
  DEFAULT_JOB_RETRY_LIMIT,
  DEFAULT_JOB_USER_CONCURRENCY,
  DEFAULT_BATCH_USER_CONCURRENCY,
  DEFAULT_JOB_WAIT_MS,
  DEFAULT_JOB_WORKER_CONCURRENCY,
  DEFAULT_STORAGE_QUOTA_MB,
  DEFAULT_WEBHOOK_DISABLE_AFTER_FAILURES,
  DEFAULT_WEBHOOK_RETRY_DELAYS,
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  WEBHOOK_RETRY_DELAY_MAX_MS,
} from './config.ts'

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1')

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v ? v : undefined))

/**
 * A folder or file setting, made absolute once, here, against the folder the process was
 * started in: everything downstream (ffmpeg's concat lists and filter graphs, child
 * processes, file URLs) receives only absolute paths (issue 20 item 1).
 */
const absolutePath = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((v) => resolve(v))
const optionalAbsolutePath = optionalString.transform((v) => (v ? resolve(v) : undefined))

/** A storage quota in MiB (fractions allowed), parsed to whole bytes. */
const storageQuotaMb = (fallback: number) =>
  z.coerce
    .number()
    .positive()
    .default(fallback)
    .transform((mb) => Math.floor(mb * 1024 * 1024))

/**
 * Every setting of the api process, read from the environment once at boot.
 * `.env.example` documents each variable.
 */
export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    /** TCP port for HTTP (and, embedded, the /sync WebSocket). */
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    /** Interface to listen on. */
    HOST: z.string().default('0.0.0.0'),
    /** Public URL of the app, used in emailed links and as the allowed Origin. */
    APP_URL: z.url().optional(),
    /** Extra allowed Origins for state-changing requests, comma-separated. */
    ALLOWED_ORIGINS: z.string().default(''),
    /**
     * Where embedded state lives: PGlite in `pg/`, emails in `mail/`, assets in `assets/`,
     * renders in `render-work/` and `render-cache/`. Relative to the folder the app was
     * started in (the repository root under `npm start`); made absolute at boot.
     */
    DATA_DIR: absolutePath('./data'),
    /** Postgres URL; when unset the embedded PGlite database is used. */
    DATABASE_URL: optionalString.pipe(z.url().optional()),
    /** Redis shared by several sync servers (embedded one included); unset: this one alone. */
    REDIS_URL: optionalString.pipe(z.url().optional()),
    /** Namespace of the Redis channels, so installations sharing one Redis stay apart (default `reelgraph`). */
    REDIS_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/)
      .default('reelgraph'),
    /**
     * Memory budget of the embedded sync server's open documents, in MiB of estimated heap
     * (issue 23): one more document past it is refused as busy. Unset: half the V8 heap
     * limit, less on a small heap.
     */
    SYNC_MEMORY_BUDGET_MB: optionalString
      .transform((v) => (v === undefined ? undefined : Number(v)))
      .pipe(z.number().int().min(1).max(1_048_576).optional())
      .transform((mb) => (mb === undefined ? undefined : mb * 1024 * 1024)),
    /** SMTP URL for nodemailer; when unset emails are written to DATA_DIR/mail. */
    SMTP_URL: optionalString.pipe(z.url().optional()),
    /**
     * Under NODE_ENV=production without SMTP_URL: write emails to DATA_DIR/mail anyway
     * (nobody receives them). Unset, such a server refuses to start (issue 11 item 8).
     */
    MAIL_TO_FILES: bool,
    /** The From header of outgoing email. */
    MAIL_FROM: z.string().default('Reelgraph <no-reply@reelgraph.local>'),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    /**
     * How many reverse proxies you run in front of the app (0: none): the client address is
     * that many X-Forwarded-For entries from the right. `true`/`false` (old settings) mean 1/0.
     */
    TRUST_PROXY: z
      .enum(['true', 'false'])
      .transform((v) => (v === 'true' ? 1 : 0))
      .or(z.coerce.number().int().min(0))
      .default(0),
    /** Directory of the built web app to serve (made absolute at boot); empty to serve none (dev). */
    WEB_DIST_DIR: z
      .string()
      .default('./web/dist')
      .transform((v) => (v ? resolve(v) : '')),
    /**
     * Bearer token for `GET /metrics` on PORT (issue 40 item 6): a scraper on another machine
     * or container sends `Authorization: Bearer <token>`; at least 16 visible characters.
     * Unset: `/metrics` on PORT answers 404.
     */
    METRICS_TOKEN: metricsTokenSchema,
    /**
     * A port of 127.0.0.1 that serves only `GET /metrics`, without a token (issue 40 item 6):
     * for an operator on the same machine. Unset: no such server.
     */
    METRICS_PORT: metricsPortSchema,

    /** Text provider: builtin | openai. Default: openai when OPENAI_API_KEY or OPENAI_BASE_URL is set. */
    AI_TEXT_PROVIDER: z.enum(['builtin', 'openai']).optional(),
    /** Image provider: builtin | openai | civitai | automatic1111. Default: the one configured, else builtin. */
    AI_IMAGE_PROVIDER: z.enum(['builtin', 'openai', 'civitai', 'automatic1111']).optional(),
    /**
     * Narration of video renders (issue 13): builtin (eSpeak NG, offline; the default) |
     * openai (OPENAI_API_KEY / OPENAI_BASE_URL) | elevenlabs (ELEVENLABS_API_KEY).
     */
    SPEECH_PROVIDER: z.enum(['builtin', 'openai', 'elevenlabs']).default('builtin'),
    ELEVENLABS_API_KEY: optionalString,
    /**
     * The ffmpeg that renders videos (issue 13), a path (made absolute at boot); unset: an
     * `ffmpeg` on PATH, else the static build of the optional `@ffmpeg-installer/linux-x64`
     * package.
     */
    FFMPEG_PATH: optionalAbsolutePath,
    OPENAI_API_KEY: optionalString,
    /** Any OpenAI-compatible server (Ollama: http://localhost:11434/v1). */
    OPENAI_BASE_URL: optionalString.pipe(z.url().optional()),
    OPENAI_MODEL: z.string().default('gpt-4o-mini'),
    OPENAI_IMAGE_MODEL: z.string().default('gpt-image-1'),
    CIVITAI_API_TOKEN: optionalString,
    /** Civitai's API base (tests point it at a local server). */
    CIVITAI_BASE_URL: z.url().default('https://civitai.com'),
    /** Civitai's job API; default derived from CIVITAI_BASE_URL (orchestration.civitai.com). */
    CIVITAI_ORCHESTRATION_URL: optionalString.pipe(z.url().optional()),
    /** A self-hosted Stable Diffusion web UI, e.g. http://127.0.0.1:7860. */
    A1111_URL: optionalString.pipe(z.url().optional()),
    /**
     * The model catalog (issue 22 item 1): a JSON file (absolute once parsed) that adds models
     * with their input mapping and changes costs; checked at boot. See the README.
     */
    MODEL_CATALOG_FILE: optionalAbsolutePath,
    /** fal.ai (images and video clips through its queue API; issue 22). */
    FAL_KEY: optionalString,
    /** fal's queue (tests and proxies point it elsewhere). */
    FAL_QUEUE_URL: z.url().default('https://queue.fal.run'),
    /** fal clips made at once, over every worker. */
    FAL_CONCURRENCY: z.coerce.number().int().min(1).default(DEFAULT_CLOUD_VIDEO_CONCURRENCY),
    /** Replicate (images and video clips through its predictions API; issue 22). */
    REPLICATE_API_TOKEN: optionalString,
    REPLICATE_BASE_URL: z.url().default('https://api.replicate.com'),
    REPLICATE_CONCURRENCY: z.coerce.number().int().min(1).default(DEFAULT_CLOUD_VIDEO_CONCURRENCY),
    /** Google Veo through the Gemini API (issue 22). */
    GEMINI_API_KEY: optionalString,
    GEMINI_BASE_URL: z.url().default('https://generativelanguage.googleapis.com'),
    GEMINI_CONCURRENCY: z.coerce.number().int().min(1).default(DEFAULT_GEMINI_VIDEO_CONCURRENCY),
    /** A self-hosted ComfyUI, e.g. http://127.0.0.1:8188 (issue 22). */
    COMFYUI_URL: optionalString.pipe(z.url().optional()),
    /** Its API-format workflows with their sidecars, each a catalog model (made absolute at boot). */
    COMFYUI_WORKFLOWS_DIR: optionalAbsolutePath,
    COMFYUI_CONCURRENCY: z.coerce.number().int().min(1).default(DEFAULT_COMFYUI_CONCURRENCY),
    /** Offline motion drafts rendered at once, over every worker (ffmpeg; issue 22). */
    BUILTIN_VIDEO_CONCURRENCY: z.coerce
      .number()
      .int()
      .min(1)
      .default(DEFAULT_BUILTIN_VIDEO_CONCURRENCY),
    /** Timeout of one text call, in ms. */
    AI_TEXT_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
    /** Timeout of one image generation (including polling), in ms. */
    AI_IMAGE_TIMEOUT_MS: z.coerce.number().int().positive().default(180_000),
    /**
     * Longest clip generation (issue 22): the provider's queue and its work, the download and
     * the checks, in ms. Video models take minutes; 20 min covers a busy queue.
     */
    AI_VIDEO_TIMEOUT_MS: z.coerce.number().int().positive().default(1_200_000),
    /**
     * Largest clip a provider may send, in bytes (issue 22 item 2): a larger one fails the job
     * (refunded). 200 MiB: a 20 s 1080p clip at a generous 50 Mbit/s is about 120 MiB.
     */
    CLIP_MAX_BYTES: z.coerce.number().int().positive().default(DEFAULT_CLIP_MAX_BYTES),
    /**
     * Largest image result a provider may send, in bytes, read into memory only up to this
     * (issue 40 item 3): a larger one fails the job in words (refunded).
     */
    IMAGE_RESULT_MAX_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(DEFAULT_IMAGE_RESULT_MAX_BYTES),
    /**
     * Hosts the server may reach on the operator's own network besides the configured base
     * URLs (issue 40 item 1, decision 024): comma-separated host names, `host:port` pairs or
     * CIDR ranges (`comfy.lan, 10.1.2.3:8188, 192.168.0.0/16`), over `http:` too. Every other
     * address a provider (or a webhook) names must be public `https:`.
     */
    OUTBOUND_ALLOW_HOSTS: z
      .string()
      .default('')
      .superRefine((value, ctx) => {
        try {
          parseAllowList(value)
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: (error as Error).message })
        }
      }),
    /** Longest single outbound request (a poll, a download, a delivery), body included, in ms. */
    OUTBOUND_TIMEOUT_MS: z.coerce.number().int().positive().default(DEFAULT_OUTBOUND_TIMEOUT_MS),
    /**
     * Waits before each retry of a failed webhook delivery (issue 41 item 3, decision 028),
     * comma-separated durations (`5s,30s,2m,10m,1h,6h,24h`; units ms, s, m, h, d; each at most
     * 7 days): one retry per entry, then the delivery has failed. Parsed to ms.
     */
    WEBHOOK_RETRY_DELAYS: z
      .string()
      .default(DEFAULT_WEBHOOK_RETRY_DELAYS)
      .transform((value, ctx) => {
        try {
          return parseDurationList(value, WEBHOOK_RETRY_DELAY_MAX_MS)
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: (error as Error).message })
          return z.NEVER
        }
      }),
    /** Deliveries in a row that fail for good before a webhook is disabled and its owner emailed. */
    WEBHOOK_DISABLE_AFTER_FAILURES: z.coerce
      .number()
      .int()
      .min(1)
      .default(DEFAULT_WEBHOOK_DISABLE_AFTER_FAILURES),
    /** Longest one webhook delivery attempt may take, its answer included, in ms. */
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(DEFAULT_WEBHOOK_TIMEOUT_MS),
    /** Longest video render (narration, render, storage), in ms (issue 13 item 4). */
    VIDEO_RENDER_TIMEOUT_MS: z.coerce.number().int().positive().default(1_800_000),
    /**
     * Most bytes the render cache (DATA_DIR/render-cache: segments and fitted stills) keeps;
     * the least recently used go first after each render. Default 2 GiB: about 70 one-minute
     * 1080p videos' segments, so re-renders of recent work stay incremental (issue 13 item 3).
     */
    RENDER_CACHE_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(0)
      .default(2 * 1024 ** 3),
    /**
     * Most bytes of narration WAVs the narration cache (issue 21 item 4) keeps, over every
     * project; the least recently used go first after each render. Default 1 GiB: about 100
     * hours of the builtin voice (22 kHz 16-bit mono), so re-renders of recent work reuse
     * every voice.
     */
    NARRATION_CACHE_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(0)
      .default(1024 ** 3),
    /** Credits per action (ARCHITECTURE decision 4). */
    COST_SCRIPT: z.coerce.number().int().min(0).default(DEFAULT_GENERATION_COSTS.script),
    COST_SCENES: z.coerce.number().int().min(0).default(DEFAULT_GENERATION_COSTS.scenes),
    COST_IMAGE: z.coerce.number().int().min(0).default(DEFAULT_GENERATION_COSTS.image),
    /** Credits per narrated scene of a video render (issue 13 item 4). */
    COST_VOICE: z.coerce.number().int().min(0).default(DEFAULT_GENERATION_COSTS.voice),
    /** Credits per video render, on top of COST_VOICE per scene (issue 13 item 4). */
    COST_VIDEO: z.coerce.number().int().min(0).default(DEFAULT_GENERATION_COSTS.video),

    /** How long a generation call waits for its job before answering 202, in ms (issue 12). */
    JOB_WAIT_MS: z.coerce.number().int().min(0).default(DEFAULT_JOB_WAIT_MS),
    /** Run job workers in this process (default true; false: only enqueue, `npm start -w worker` runs them). */
    JOB_WORKERS: z
      .enum(['true', 'false', '1', '0', ''])
      .optional()
      .transform((v) => v !== 'false' && v !== '0'),
    /** Jobs one worker process runs at once. */
    JOB_WORKER_CONCURRENCY: z.coerce.number().int().min(1).default(DEFAULT_JOB_WORKER_CONCURRENCY),
    /** Jobs one user has running at once, on every worker together. */
    JOB_USER_CONCURRENCY: z.coerce.number().int().min(1).default(DEFAULT_JOB_USER_CONCURRENCY),
    /** Rows of one account's batches that have a Make video job at once (issue 42 item 3). */
    BATCH_USER_CONCURRENCY: z.coerce.number().int().min(1).default(DEFAULT_BATCH_USER_CONCURRENCY),
    /** Retries after a transient provider failure or a dead worker. */
    JOB_RETRY_LIMIT: z.coerce.number().int().min(0).default(DEFAULT_JOB_RETRY_LIMIT),
    /** First wait before a retry, in seconds (doubling). */
    JOB_RETRY_DELAY_SECONDS: z.coerce
      .number()
      .int()
      .min(0)
      .default(DEFAULT_JOB_RETRY_DELAY_SECONDS),
    /** A running job's heartbeat in seconds (at least 10): a dead worker's job moves on after it. */
    JOB_HEARTBEAT_SECONDS: z.coerce.number().int().min(10).default(DEFAULT_JOB_HEARTBEAT_SECONDS),
    /** `npm start -w worker` only: the port of its `GET /healthz` (0: any free port). */
    WORKER_PORT: z.coerce.number().int().min(0).max(65535).default(3002),
    /** How often dead workers' jobs are looked for, in seconds. */
    JOB_MONITOR_SECONDS: z.coerce.number().int().min(1).default(DEFAULT_JOB_MONITOR_SECONDS),

    /**
     * Storage per account by plan, in MiB (issue 40 item 5): every asset of the projects an
     * account owns counts; an upload or a result that would pass it is refused (413) with
     * nothing stored. Fractions are fine (`0.5`). Defaults: 1 GiB, 20 GiB, 100 GiB.
     */
    STORAGE_QUOTA_FREE_MB: storageQuotaMb(DEFAULT_STORAGE_QUOTA_MB.free),
    STORAGE_QUOTA_BASIC_MB: storageQuotaMb(DEFAULT_STORAGE_QUOTA_MB.basic),
    STORAGE_QUOTA_PRO_MB: storageQuotaMb(DEFAULT_STORAGE_QUOTA_MB.pro),
    /**
     * How long an asset nothing references (an unused upload, a take past the kept ones, the
     * clip of a removed node) is kept before the collector deletes it, in hours (issue 40 item
     * 5, decision 026). Counted from its last reference, or its creation. Default 7 days.
     */
    ASSET_GC_GRACE_HOURS: z.coerce.number().positive().default(DEFAULT_ASSET_GC_GRACE_HOURS),
    /**
     * When worker processes run the asset collector: a cron expression in UTC (default daily
     * at 04:23); empty: never.
     */
    ASSET_GC_CRON: z.string().trim().default(DEFAULT_ASSET_GC_CRON),

    /** S3-compatible asset storage; when S3_BUCKET is unset, assets go to DATA_DIR/assets. */
    S3_BUCKET: optionalString,
    S3_ENDPOINT: optionalString.pipe(z.url().optional()),
    S3_REGION: z.string().default('us-east-1'),
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    /** Path-style URLs (MinIO and most self-hosted stores need them). */
    S3_FORCE_PATH_STYLE: bool,

    /** Stripe secret key; when unset, billing runs in the offline sandbox. */
    STRIPE_SECRET_KEY: optionalString,
    /** Signing secret of the webhook endpoint (`whsec_...`). */
    STRIPE_WEBHOOK_SECRET: optionalString,
    /** Stripe price ids of the paid plans and the packages. */
    STRIPE_PRICE_BASIC: optionalString,
    STRIPE_PRICE_PRO: optionalString,
    STRIPE_PRICE_SMALL: optionalString,
    STRIPE_PRICE_MEDIUM: optionalString,
    STRIPE_PRICE_LARGE: optionalString,
    /** Allow the sandbox under NODE_ENV=production (demo deployments only). */
    BILLING_SANDBOX: bool,
  })
  .transform((env) => {
    const appUrl = env.APP_URL ?? `http://localhost:${env.PORT}`
    const allowedOrigins = [
      new URL(appUrl).origin,
      ...env.ALLOWED_ORIGINS.split(',')
        .map((o) => o.trim())
        .filter(Boolean)
        .map((o) => new URL(o).origin),
    ]
    const textProvider =
      env.AI_TEXT_PROVIDER ?? (env.OPENAI_API_KEY || env.OPENAI_BASE_URL ? 'openai' : 'builtin')
    const imageProvider =
      env.AI_IMAGE_PROVIDER ??
      (env.CIVITAI_API_TOKEN
        ? 'civitai'
        : env.A1111_URL
          ? 'automatic1111'
          : env.OPENAI_API_KEY
            ? 'openai'
            : 'builtin')
    const costs = {
      script: env.COST_SCRIPT,
      scenes: env.COST_SCENES,
      image: env.COST_IMAGE,
      voice: env.COST_VOICE,
      video: env.COST_VIDEO,
    }
    const stripePriceIds = {
      basic: env.STRIPE_PRICE_BASIC,
      pro: env.STRIPE_PRICE_PRO,
      small: env.STRIPE_PRICE_SMALL,
      medium: env.STRIPE_PRICE_MEDIUM,
      large: env.STRIPE_PRICE_LARGE,
    }
    const storageQuotas = {
      free: env.STORAGE_QUOTA_FREE_MB,
      basic: env.STORAGE_QUOTA_BASIC_MB,
      pro: env.STORAGE_QUOTA_PRO_MB,
    }
    return {
      ...env,
      APP_URL: appUrl.replace(/\/$/, ''),
      allowedOrigins,
      textProvider,
      imageProvider,
      costs,
      billingMode: env.STRIPE_SECRET_KEY ? ('stripe' as const) : ('sandbox' as const),
      stripePriceIds,
      /** Bytes each plan's account may store (issue 40 item 5). */
      storageQuotas,
    }
  })

/** The parsed settings. */
export type Env = z.infer<typeof envSchema>

/**
 * Parses settings from `source` (default `process.env`).
 * @throws Error listing every missing or invalid variable, then every variable that looks
 *   like a setting but is none (a misspelt name is often why one is missing).
 */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(source)
  if (!result.success) {
    const problems = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    // A misspelt name is often why a variable is missing: name the look-alikes too.
    const hints = settingLookalikes([], source).map((f) => `  ${describeLookalike(f)}`)
    throw new Error(`Invalid environment:\n${[...problems, ...hints].join('\n')}`)
  }
  return result.data
}

/** Every variable the api reads: the keys of {@link envSchema}, nothing written twice. */
export const SETTING_NAMES: readonly string[] = Object.keys(envSchema.in.shape)

/**
 * Variables that the OpenAI SDK reads itself, as the openai provider leaves them to it
 * (organization, project, its own logging and headers): not settings, not typos either.
 */
const OPENAI_SDK_VARIABLES = [
  'OPENAI_ORG_ID',
  'OPENAI_PROJECT_ID',
  'OPENAI_LOG',
  'OPENAI_CUSTOM_HEADERS',
]

/**
 * The variables of `source` that look like settings but are none (issue 11 item 9): a
 * setting's name with a typo or its words reordered, or an unknown name with a settings
 * prefix (`STRIPE_`, `SMTP_`, ...). The boot logs one warning for each; nothing fails.
 * @param alsoKnown names read by other Reelgraph processes sharing the environment (the
 *   standalone sync server's `SYNC_PORT`...): not reported
 * @param source the environment (default `process.env`); only its names are read
 * @see issue 11 item 9
 */
export function settingLookalikes(
  alsoKnown: Iterable<string> = [],
  source: Record<string, string | undefined> = process.env,
): SettingLookalike[] {
  return findLookalikeSettings(Object.keys(source), [...SETTING_NAMES, ...alsoKnown], {
    alsoRead: OPENAI_SDK_VARIABLES,
  })
}
