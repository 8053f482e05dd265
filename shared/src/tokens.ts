import { z } from 'zod'
import { databaseIdSchema } from './ids.ts'

/**
 * Personal access tokens (issue 41 item 1, decision 027): a program or an agent calls the
 * REST API (and the MCP server) with `Authorization: Bearer rg_…` instead of a session
 * cookie. A token is shown once, stored as its SHA-256, carries scopes, may be limited to
 * some projects, expires, and is revoked at once.
 */

/**
 * What a token may do. `projects:read`: read projects, members, assets, jobs, models;
 * `projects:write`: create, change and delete projects, upload music; `generate`: run
 * generations (spends credits) and cancel them; `billing:read`: credits, subscription and
 * storage. Account, billing changes, sharing and the tokens themselves take only a session.
 */
export const TOKEN_SCOPES = ['projects:read', 'projects:write', 'generate', 'billing:read'] as const
export const tokenScopeSchema = z.enum(TOKEN_SCOPES, {
  error: `Each scope must be one of ${TOKEN_SCOPES.join(', ')}.`,
})
export type TokenScope = z.infer<typeof tokenScopeSchema>

/** Each scope as the settings page names and explains it. */
export const TOKEN_SCOPE_LABELS: Record<TokenScope, { label: string; description: string }> = {
  'projects:read': {
    label: 'Read projects',
    description: 'List and open projects, their members, files, jobs and models.',
  },
  'projects:write': {
    label: 'Change projects',
    description: 'Create, rename, edit and delete projects; upload music.',
  },
  generate: {
    label: 'Generate',
    description: 'Run scripts, scenes, images, clips and videos. Spends credits.',
  },
  'billing:read': {
    label: 'Read credits',
    description: 'See credits, subscription and storage. Never changes billing.',
  },
}

/** Every token starts with this, so it is recognisable in a leaked file (and by scanners). */
export const API_TOKEN_PREFIX = 'rg_'
/** Random bytes in a token's secret: 256 bits, so a fast hash suffices (decision 027). */
export const API_TOKEN_RANDOM_BYTES = 32
/**
 * A token as it is sent: `rg_` and the base64url (no padding) of 32 random bytes, 43
 * characters. Anything else is refused before any database read.
 */
export const API_TOKEN_PATTERN = /^rg_[A-Za-z0-9_-]{43}$/
/** Characters of a token kept to show it in the list (`rg_` and 5 of its secret). */
export const API_TOKEN_DISPLAY_PREFIX_LENGTH = 8

/** Longest token name, in characters. */
export const API_TOKEN_NAME_MAX_LENGTH = 80
/** Tokens an account may hold at once, not counting revoked or expired ones. */
export const API_TOKENS_PER_USER_MAX = 50
/** Projects one token may be limited to. */
export const API_TOKEN_PROJECTS_MAX = 100
/** The shortest and longest lifetime a token may be given, in days. */
export const API_TOKEN_EXPIRY_DAYS_MIN = 1
export const API_TOKEN_EXPIRY_DAYS_MAX = 366
/** What the settings page offers first: 90 days, as GitHub suggests for its tokens. */
export const API_TOKEN_EXPIRY_DAYS_DEFAULT = 90

/** `POST /api/tokens`: a new token. No `expiresInDays`: it never expires. */
export const createTokenInput = z
  .object({
    name: z
      .string({ error: 'Give the token a name.' })
      .trim()
      .min(1, { error: 'Give the token a name.' })
      .max(API_TOKEN_NAME_MAX_LENGTH, {
        error: `A token's name is at most ${API_TOKEN_NAME_MAX_LENGTH} characters.`,
      }),
    scopes: z
      .array(tokenScopeSchema, { error: 'Choose at least one scope.' })
      .min(1, { error: 'Choose at least one scope.' })
      .transform((scopes) => TOKEN_SCOPES.filter((s) => scopes.includes(s))),
    projectIds: z
      .array(databaseIdSchema('Each project id must be the id of one of your projects.'), {
        error: 'projectIds must be a list of project ids.',
      })
      .min(1, { error: 'Choose at least one project, or leave projectIds out for all.' })
      .max(API_TOKEN_PROJECTS_MAX, {
        error: `A token can be limited to at most ${API_TOKEN_PROJECTS_MAX} projects.`,
      })
      .transform((ids) => [...new Set(ids)])
      .optional(),
    expiresInDays: z
      .number({ error: 'expiresInDays must be a whole number of days.' })
      .int({ error: 'expiresInDays must be a whole number of days.' })
      .min(API_TOKEN_EXPIRY_DAYS_MIN, {
        error: `A token lasts at least ${API_TOKEN_EXPIRY_DAYS_MIN} day.`,
      })
      .max(API_TOKEN_EXPIRY_DAYS_MAX, {
        error: `A token lasts at most ${API_TOKEN_EXPIRY_DAYS_MAX} days.`,
      })
      .optional(),
  })
  .meta({ id: 'CreateTokenInput' })
export type CreateTokenInput = z.input<typeof createTokenInput>

/** A token as listed: never its secret. `projectIds` null: every project of the account. */
export const apiTokenSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    /** The first characters of the token (`rg_AbCdE`), to tell tokens apart. */
    prefix: z.string(),
    scopes: z.array(tokenScopeSchema),
    projectIds: z.array(z.number().int()).nullable(),
    createdAt: z.string(),
    /** When it last authenticated a request (to the minute), or null: never. */
    lastUsedAt: z.string().nullable(),
    /** Null: never expires. */
    expiresAt: z.string().nullable(),
  })
  .meta({ id: 'ApiToken' })
export type ApiToken = z.infer<typeof apiTokenSchema>

/** `POST /api/tokens` 201: the token with its secret, shown this once. */
export const createdTokenSchema = apiTokenSchema
  .extend({ token: z.string().describe('The secret: shown this once, never again.') })
  .meta({ id: 'CreatedToken' })
export type CreatedToken = z.infer<typeof createdTokenSchema>

/** `GET /api/tokens`: the account's live tokens (not revoked, not expired), newest first. */
export const apiTokenListSchema = z.array(apiTokenSchema)

/** The words of the token refusals, shared by the api and what the web shows. */
export const TOKEN_MESSAGES = {
  invalid: 'This API token is not valid. Check that it was copied whole, or make a new one.',
  revoked: 'This API token was revoked. Make a new one under Settings → API tokens.',
  expired: 'This API token has expired. Make a new one under Settings → API tokens.',
  badHeader: 'Send an API token as "Authorization: Bearer rg_…".',
  sessionOnly:
    'This request takes a signed-in session, not an API token: sign in to Reelgraph in the browser to do it.',
  projectLimited:
    'This token is limited to some projects and cannot create new ones. Use a token for all projects.',
  tooMany: `An account can hold at most ${API_TOKENS_PER_USER_MAX} API tokens. Revoke one you no longer use.`,
} as const

/** The 403 of a token without the scope a route needs. */
export function missingScopeMessage(scope: TokenScope): string {
  return `This token lacks the ${scope} scope.`
}
