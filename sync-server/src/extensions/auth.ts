import type { Extension, onAuthenticatePayload } from '@hocuspocus/server'
import { type DB, type ProjectRole, projectRole, validateSessionToken } from '@reelgraph/db'
import {
  isAllowedOrigin,
  projectIdOfDocument,
  SYNC_CLOSE_REASONS,
  sessionCookieName,
} from '@reelgraph/shared'
import type { Kysely } from 'kysely'
import { readCookie } from '../cookies.ts'
import type { SyncLogger } from '../logger.ts'
import { SyncRefusal } from '../refusal.ts'

/** What a connection carries once authenticated (Hocuspocus `context`). */
export interface SyncContext {
  userId: number
  /**
   * The api session the connection authenticated with (`sessions.id`, the cookie token's
   * public half): when it ends, the connection is closed (`closeSessionConnections`).
   */
  sessionId: string
  projectId: number
  /** The member's role when the connection opened; a viewer's connection is read-only. */
  role: ProjectRole
}

export interface AuthOptions {
  db: Kysely<DB>
  logger: SyncLogger
  /** True in production: the cookie is then `__Host-session` (see `sessionCookieName`). */
  secureCookies: boolean
  /**
   * Origins a browser may open the socket from (the api's allowed origins), under the one
   * origin rule of REST and sync (`isAllowedOrigin`: one of these, or an origin whose host
   * is the upgrade request's `Host`). A request with another `Origin` header is refused; one
   * without the header (not a browser: browsers always send it on a WebSocket) is let
   * through to the cookie check. Absent: only the `Host` match allows a browser.
   */
  allowedOrigins?: readonly string[] | undefined
}

/**
 * Authenticates each document connection by the api's session cookie, sent with the
 * WebSocket upgrade (Hocuspocus passes the upgrade request's headers to every hook).
 * The document name is the project id; only the project's members may open it, and a
 * viewer's connection is read-only (Hocuspocus refuses its updates, issue 6 item 1).
 *
 * Refusals (the provider's `onAuthenticationFailed({ reason })`):
 * - `SYNC_CLOSE_REASONS.unauthenticated`: no cookie, an unknown, forged or expired session,
 *   or a browser Origin that is not ours;
 * - `SYNC_CLOSE_REASONS.notFound`: no such project, or one the user is not a member of
 *   (they look the same);
 * - `SYNC_CLOSE_REASONS.loadFailed`: the database could not answer.
 *
 * On success `{ userId, sessionId, projectId, role }` is added to the connection's context.
 * @see issue 3 item 3
 */
export class AuthExtension implements Extension {
  readonly extensionName = 'reelgraph-auth'
  /** Before every other extension: nothing runs for a refused connection. */
  readonly priority = 1000
  private readonly options: AuthOptions
  private readonly cookieName: string

  constructor(options: AuthOptions) {
    this.options = options
    this.cookieName = sessionCookieName(options.secureCookies)
  }

  async onAuthenticate({
    requestHeaders,
    documentName,
    socketId,
    connectionConfig,
  }: onAuthenticatePayload): Promise<SyncContext> {
    const { db, logger, allowedOrigins } = this.options
    const refuse = (reason: SyncRefusal['reason'], why: string): never => {
      logger.debug({ socketId, documentName, reason }, `sync connection refused: ${why}`)
      throw new SyncRefusal(reason)
    }
    const origin = requestHeaders.get('origin')
    if (origin && !isAllowedOrigin(origin, requestHeaders.get('host'), allowedOrigins ?? [])) {
      refuse(SYNC_CLOSE_REASONS.unauthenticated, 'foreign origin')
    }
    const token = readCookie(requestHeaders.get('cookie'), this.cookieName)
    if (!token) return refuse(SYNC_CLOSE_REASONS.unauthenticated, 'no session cookie')
    const projectId = projectIdOfDocument(documentName)
    try {
      const auth = await validateSessionToken(db, token)
      if (!auth) return refuse(SYNC_CLOSE_REASONS.unauthenticated, 'invalid session')
      if (projectId === null) return refuse(SYNC_CLOSE_REASONS.notFound, 'not a project id')
      const role = await projectRole(db, projectId, auth.user.id)
      if (!role) return refuse(SYNC_CLOSE_REASONS.notFound, 'not a member of such a project')
      connectionConfig.readOnly = role === 'viewer'
      return { userId: auth.user.id, sessionId: auth.session.id, projectId, role }
    } catch (err) {
      if (err instanceof SyncRefusal) throw err
      logger.error({ err, documentName }, 'sync authentication failed: database error')
      throw new SyncRefusal(SYNC_CLOSE_REASONS.loadFailed)
    }
  }
}
