/**
 * Query keys shared by several features. By the data-fetching convention the first element
 * of a key is the URL the default query function reads (spec §7), so these double as paths.
 */
export const QUERY_KEYS = {
  /** `GET /api/user`: the signed-in user, or null (spec §7). */
  user: ['/api/user'],
  /** `GET /api/user/credits`: `{ credits }` (spec §7). */
  credits: ['/api/user/credits'],
  /** `GET /api/projects`: invalidated on logout (spec §4 Auth). */
  projects: ['/api/projects'],
  /** `GET /api/subscription/status`: invalidated on logout (spec §4 Auth). */
  subscriptionStatus: ['/api/subscription/status'],
  /** `GET /api/ai/providers`: the active providers and the costs (the canvas, billing's FAQ). */
  aiProviders: ['/api/ai/providers'],
} as const

/**
 * `GET /api/projects/:id/members`: the caller's role, the members and (owner only) the open
 * invitations (issue 6 item 1). The canvas refetches it when its connection authenticates
 * again; the Share dialog reads it.
 */
export function projectMembersKey(projectId: number): readonly [string] {
  return [`/api/projects/${String(projectId)}/members`] as const
}
