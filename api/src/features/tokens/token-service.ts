import { createHash, randomBytes } from 'node:crypto'
import type { ApiTokenRow, DB, UserRow } from '@reelgraph/db'
import {
  API_TOKEN_DISPLAY_PREFIX_LENGTH,
  API_TOKEN_PATTERN,
  API_TOKEN_PREFIX,
  API_TOKEN_RANDOM_BYTES,
  API_TOKENS_PER_USER_MAX,
  type ApiToken,
  type CreatedToken,
  missingScopeMessage,
  TOKEN_MESSAGES,
  TOKEN_SCOPES,
  type TokenScope,
} from '@reelgraph/shared'
import { type ExpressionBuilder, type Kysely, sql } from 'kysely'
import { AppError } from '../../lib/app-error.ts'
import { CoalescedReads } from '../../lib/coalesced-reads.ts'
import { API_TOKEN_TOUCH_INTERVAL_MS } from '../../config.ts'

/**
 * Personal access tokens (issue 41 item 1, decision 027): made, listed and revoked by a
 * signed-in person; each request that carries one is turned into a {@link TokenActor} by
 * {@link authenticateBearer} and checked with {@link requireTokenScope}. Both are plain
 * functions so the MCP server (issue 41 item 2) authenticates the same way as REST.
 */

/** Who a bearer request acts as: the token's owner, with the token's scopes and projects. */
export interface TokenActor {
  tokenId: number
  user: UserRow
  scopes: readonly TokenScope[]
  /** The projects the token may reach; null: every project of the account. */
  projectIds: readonly number[] | null
}

/** A new token: `rg_` and the base64url of {@link API_TOKEN_RANDOM_BYTES} random bytes. */
export function generateApiToken(): string {
  return API_TOKEN_PREFIX + randomBytes(API_TOKEN_RANDOM_BYTES).toString('base64url')
}

/**
 * SHA-256 of a whole token (`rg_…`), 32 raw bytes: what is stored and looked up. A fast hash
 * is right for 256 random bits (no dictionary to try; decision 027).
 */
export function hashApiToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest()
}

/** `scopes` as stored, in shared's order, unknown names dropped. */
function scopesOf(stored: readonly string[]): TokenScope[] {
  return TOKEN_SCOPES.filter((s) => stored.includes(s))
}

/** A row as the list shows it: never the hash. */
function toApiTokenJson(row: ApiTokenRow): ApiToken {
  return {
    id: row.id,
    name: row.name,
    prefix: row.display_prefix,
    scopes: scopesOf(row.scopes),
    projectIds: row.project_ids,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    expiresAt: row.expires_at?.toISOString() ?? null,
  }
}

/** A Postgres array literal of `values` (written as text: PGlite and pg both read it). */
function arrayText(values: readonly (string | number)[]): string {
  return values.join(',')
}

/** The live tokens at `now`: not revoked, not expired. */
function liveAt(now: Date) {
  return (eb: ExpressionBuilder<DB, 'api_tokens'>) =>
    eb.and([
      eb('revoked_at', 'is', null),
      eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]),
    ])
}

/** What {@link createApiToken} makes. */
export interface NewApiToken {
  userId: number
  name: string
  scopes: readonly TokenScope[]
  /** The projects the token may reach; omitted: every project of the account. */
  projectIds?: readonly number[] | undefined
  /** Omitted: it never expires. */
  expiresInDays?: number | undefined
  now?: Date
}

/**
 * Makes a token for `userId` and answers it with its secret, the only time the secret is
 * seen: only its SHA-256 is stored. Each of `projectIds` must be a project the user is a
 * member of; the account may hold {@link API_TOKENS_PER_USER_MAX} live tokens (counted
 * under the user's row lock, so two requests cannot both pass the limit).
 * @throws AppError 400 BAD_REQUEST naming a project id that is not one of the user's
 *   projects, or when the account holds the most tokens it may.
 * @see issue 41 item 1
 */
export async function createApiToken(
  db: Kysely<DB>,
  { userId, name, scopes, projectIds, expiresInDays, now = new Date() }: NewApiToken,
): Promise<CreatedToken> {
  const token = generateApiToken()
  const expiresAt =
    expiresInDays === undefined ? null : new Date(now.getTime() + expiresInDays * 86_400_000)
  const row = await db.transaction().execute(async (trx) => {
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute()
    if (projectIds?.length) {
      const member = await trx
        .selectFrom('project_members')
        .select('project_id')
        .where('user_id', '=', userId)
        .where('project_id', 'in', [...projectIds])
        .execute()
      const known = new Set(member.map((m) => m.project_id))
      const stranger = projectIds.find((id) => !known.has(id))
      if (stranger !== undefined) {
        throw new AppError('BAD_REQUEST', `Project ${stranger} is not one of your projects.`, {
          fields: { projectIds: `Project ${stranger} is not one of your projects.` },
        })
      }
    }
    const { count } = await trx
      .selectFrom('api_tokens')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('user_id', '=', userId)
      .where(liveAt(now))
      .executeTakeFirstOrThrow()
    if (Number(count) >= API_TOKENS_PER_USER_MAX) {
      throw new AppError('BAD_REQUEST', TOKEN_MESSAGES.tooMany)
    }
    return trx
      .insertInto('api_tokens')
      .values({
        user_id: userId,
        name,
        token_hash: hashApiToken(token),
        display_prefix: token.slice(0, API_TOKEN_DISPLAY_PREFIX_LENGTH),
        scopes: sql<string[]>`string_to_array(${arrayText(scopesOf(scopes))}, ',')::text[]`,
        project_ids: projectIds?.length
          ? sql<number[]>`string_to_array(${arrayText(projectIds)}, ',')::integer[]`
          : null,
        created_at: now,
        expires_at: expiresAt,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
  })
  return { ...toApiTokenJson(row), token }
}

/**
 * The user's live tokens (not revoked, not expired), newest first, without their secrets.
 * @see issue 41 item 1
 */
export async function listApiTokens(
  db: Kysely<DB>,
  { userId, now = new Date() }: { userId: number; now?: Date },
): Promise<ApiToken[]> {
  const rows = await db
    .selectFrom('api_tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .where(liveAt(now))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute()
  return rows.map(toApiTokenJson)
}

/**
 * Revokes the user's token `tokenId` at once: the next request with it is a 401.
 * @throws AppError 404 NOT_FOUND for a token that is not the user's or already revoked.
 * @see issue 41 item 1
 */
export async function revokeApiToken(
  db: Kysely<DB>,
  { userId, tokenId, now = new Date() }: { userId: number; tokenId: number; now?: Date },
): Promise<void> {
  const revoked = await db
    .updateTable('api_tokens')
    .set({ revoked_at: now })
    .where('id', '=', tokenId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst()
  if (!revoked) throw tokenNotFound()
}

/** The 404 of a token that is not the caller's (or no longer live). */
export function tokenNotFound(): AppError {
  return new AppError('NOT_FOUND', 'This API token does not exist, or it was already revoked.')
}

/** A 401 for a bearer request, with RFC 6750's `WWW-Authenticate`. */
function unauthenticated(message: string): AppError {
  return new AppError('UNAUTHENTICATED', message, {
    headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
  })
}

/**
 * The token of an `Authorization` header value: `Bearer <token>` (the scheme in any case),
 * or undefined when the header is absent or of another scheme (`Basic`, sent by a browser
 * behind a password-protected proxy, is no API token).
 */
export function bearerTokenOf(authorization: string | undefined): string | undefined {
  const match = authorization?.match(/^Bearer[ \t]+(\S*)[ \t]*$/i)
  return match ? match[1] : undefined
}

/** The token with this hash and its user, in one indexed read. */
function readToken(db: Kysely<DB>, tokenHash: Buffer) {
  return db
    .selectFrom('api_tokens as t')
    .innerJoin('users', 'users.id', 't.user_id')
    .selectAll('users')
    .select([
      't.id as token_id',
      't.scopes as token_scopes',
      't.project_ids as token_project_ids',
      't.last_used_at as token_last_used_at',
      't.expires_at as token_expires_at',
      't.revoked_at as token_revoked_at',
    ])
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst()
}

const tokenReads = new CoalescedReads<Awaited<ReturnType<typeof readToken>>>()

/**
 * Turns a bearer token into the actor it acts as: one indexed read of the token and its
 * user. Moves `last_used_at` forward at most once per {@link API_TOKEN_TOUCH_INTERVAL_MS}.
 * @param token the token as sent (`rg_…`, see {@link bearerTokenOf})
 * @throws AppError 401 UNAUTHENTICATED (with `WWW-Authenticate: Bearer`) in words for a
 *   malformed or unknown token, a revoked one, and an expired one.
 * @see issue 41 item 1 (and item 2: the MCP server authenticates through this)
 */
export async function authenticateBearer(
  db: Kysely<DB>,
  { token, now = new Date() }: { token: string; now?: Date },
): Promise<TokenActor> {
  if (!API_TOKEN_PATTERN.test(token)) throw unauthenticated(TOKEN_MESSAGES.invalid)
  const tokenHash = hashApiToken(token)
  // Callers presenting the same token in the same turn share one read (decision 030).
  const row = await tokenReads.run(db, tokenHash.toString('hex'), () => readToken(db, tokenHash))
  if (!row) throw unauthenticated(TOKEN_MESSAGES.invalid)
  const {
    token_id,
    token_scopes,
    token_project_ids,
    token_last_used_at,
    token_expires_at,
    token_revoked_at,
    ...user
  } = row
  if (token_revoked_at) throw unauthenticated(TOKEN_MESSAGES.revoked)
  if (token_expires_at && token_expires_at <= now) throw unauthenticated(TOKEN_MESSAGES.expired)
  if (
    !token_last_used_at ||
    now.getTime() - token_last_used_at.getTime() >= API_TOKEN_TOUCH_INTERVAL_MS
  ) {
    await db
      .updateTable('api_tokens')
      .set({ last_used_at: now })
      .where('id', '=', token_id)
      .execute()
  }
  return {
    tokenId: token_id,
    user,
    scopes: scopesOf(token_scopes),
    // The read may be shared with other requests: each actor gets its own list.
    projectIds: token_project_ids && [...token_project_ids],
  }
}

/**
 * The actor of a request's `Authorization` header value, for callers outside the REST
 * middleware (the MCP server, issue 41 item 2): {@link bearerTokenOf} then
 * {@link authenticateBearer}. Run the caller's work inside `withProjectLimit(actor.projectIds,
 * …)` (`access/project-limit.ts`) and check each action with {@link requireTokenScope}.
 * @throws AppError 401 UNAUTHENTICATED in words when the header is missing or not
 *   `Bearer rg_…`, or the token is unknown, revoked or expired.
 * @see issue 41 item 1
 */
export async function authenticateAuthorization(
  db: Kysely<DB>,
  { authorization, now }: { authorization: string | undefined; now?: Date },
): Promise<TokenActor> {
  const token = bearerTokenOf(authorization)
  if (token === undefined) throw unauthenticated(TOKEN_MESSAGES.badHeader)
  return authenticateBearer(db, { token, ...(now ? { now } : {}) })
}

/**
 * Checks that the token may do what `scope` allows (a REST route's scope, an MCP tool's).
 * @throws AppError 403 INSUFFICIENT_SCOPE naming the scope ("This token lacks the generate
 *   scope."), with RFC 6750's `WWW-Authenticate: Bearer error="insufficient_scope"`.
 * @see issue 41 item 1
 */
export function requireTokenScope(actor: Pick<TokenActor, 'scopes'>, scope: TokenScope): void {
  if (actor.scopes.includes(scope)) return
  throw new AppError('INSUFFICIENT_SCOPE', missingScopeMessage(scope), {
    headers: { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}"` },
  })
}
