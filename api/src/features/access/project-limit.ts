import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * The projects an API token may reach (issue 41 item 1, decision 027). A token limited to
 * `projectIds` runs its request inside {@link withProjectLimit}; the one role check
 * (`requireProjectRole`), the asset lookup and the project list read the limit from here, so
 * every service that checks access applies it without carrying it in its arguments, and one
 * added later cannot forget it (it fails closed: a project outside the limit is a 404, the
 * answer a stranger gets). Sessions and unlimited tokens run without a limit.
 */
const projectLimit = new AsyncLocalStorage<ReadonlySet<number>>()

/**
 * Runs `fn` (a request's handlers, an MCP tool call) with access limited to `projectIds`;
 * null runs it unlimited.
 * @returns what `fn` returns.
 */
export function withProjectLimit<T>(projectIds: readonly number[] | null, fn: () => T): T {
  if (projectIds === null) return fn()
  return projectLimit.run(new Set(projectIds), fn)
}

/** The projects the current request may reach, or null when it is not limited. */
export function allowedProjectIds(): number[] | null {
  const limit = projectLimit.getStore()
  return limit ? [...limit] : null
}

/** Whether the current request may reach project `projectId` (always, when unlimited). */
export function projectAllowed(projectId: number): boolean {
  const limit = projectLimit.getStore()
  return !limit || limit.has(projectId)
}
