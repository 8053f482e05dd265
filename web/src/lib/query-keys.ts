import type { ApiGetPath } from './api-client'

/**
 * Query keys shared by several features. A key starts with the contract path of the GET that
 * fills it (`ApiGetPath`: a key naming a path the api does not have fails to typecheck), then
 * the values that path and its query take; each query's own function makes the typed call
 * (issue 41 item 4): nothing reads a key as a URL.
 */
export const QUERY_KEYS = {
  /** `GET /api/user`: the signed-in user, or null (spec §7). */
  user: ['/user'],
  /** `GET /api/user/credits`: `{ credits }` (spec §7). */
  credits: ['/user/credits'],
  /** `GET /api/projects`: invalidated on logout (spec §4 Auth). */
  projects: ['/projects'],
  /** `GET /api/subscription/status`: invalidated on logout (spec §4 Auth). */
  subscriptionStatus: ['/subscription/status'],
  /** `GET /api/ai/providers`: the active providers and the costs (the canvas, billing's FAQ). */
  aiProviders: ['/ai/providers'],
} as const satisfies Record<string, readonly [ApiGetPath]>

/**
 * `GET /api/projects/:id/members`: the caller's role, the members and (owner only) the open
 * invitations (issue 6 item 1). The canvas refetches it when its connection authenticates
 * again; the Share dialog reads it.
 */
export function projectMembersKey(projectId: number) {
  return ['/projects/{id}/members', projectId] as const satisfies readonly [ApiGetPath, number]
}
