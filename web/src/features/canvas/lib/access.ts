import type { AuthorizedScope } from '@hocuspocus/provider'
import { canEditProject, type ProjectRole, SYNC_ACCESS_CHANGED } from '@reelgraph/shared'

/**
 * Who may change the open project (issue 6 item 1): the sync connection's scope once it is
 * authenticated (authoritative: the server refuses a viewer's writes), before that the
 * caller's role from the project's REST answer.
 */
export interface CanvasAccess {
  /** The connection's scope, from its last authentication; null before the first. */
  scope: AuthorizedScope | null
  /** The caller's role from `GET /api/projects(/:id)`; null until it is known. */
  role: ProjectRole | null
  /** Whether the canvas takes edits ({@link deriveCanEdit}). */
  canEdit: boolean
}

/**
 * True when the canvas may be edited: by the connection's scope when known, else by the
 * REST role. With neither (offline before anything loaded) the canvas stays editable, as
 * a local-first editor should: the sync server refuses a viewer's writes anyway.
 */
export function deriveCanEdit(scope: AuthorizedScope | null, role: ProjectRole | null): boolean {
  if (scope !== null) return scope === 'read-write'
  if (role !== null) return canEditProject(role)
  return true
}

/** `access` with `patch` applied and `canEdit` derived again. */
export function nextAccess(
  access: CanvasAccess,
  patch: Partial<Pick<CanvasAccess, 'scope' | 'role'>>,
): CanvasAccess {
  const scope = patch.scope !== undefined ? patch.scope : access.scope
  const role = patch.role !== undefined ? patch.role : access.role
  return { scope, role, canEdit: deriveCanEdit(scope, role) }
}

/** The access of a project just opened: nothing known yet. */
export const INITIAL_ACCESS: CanvasAccess = { scope: null, role: null, canEdit: true }

/** True when a socket close is the sync server's "your access changed" (code or reason). */
export function isAccessChangedClose(
  event: { code?: number; reason?: string } | undefined,
): boolean {
  if (!event) return false
  return event.code === SYNC_ACCESS_CHANGED.code || event.reason === SYNC_ACCESS_CHANGED.reason
}

/** The toasts about access (issue 6 item 1). */
export const ACCESS_TOASTS = {
  changed: {
    title: 'Your access to this project changed',
    description: 'You can now edit this project.',
  },
  viewOnly: {
    title: 'Your access to this project changed',
    description: 'You can now only view this project.',
  },
  // The page itself then says "You no longer have access to this project".
  lost: {
    title: 'Access removed',
    description: 'Its owner removed you from this project, or deleted it.',
    variant: 'destructive',
  },
} as const

/**
 * The toast for a re-authenticated connection, or null when nothing is worth saying: the
 * server said access changed, or the scope differs from the one before.
 */
export function accessChangeToast(
  before: AuthorizedScope | null,
  after: AuthorizedScope,
  serverSaidChanged: boolean,
): (typeof ACCESS_TOASTS)['changed' | 'viewOnly'] | null {
  const scopeMoved = before !== null && before !== after
  if (!scopeMoved && !serverSaidChanged) return null
  return after === 'readonly' ? ACCESS_TOASTS.viewOnly : ACCESS_TOASTS.changed
}
