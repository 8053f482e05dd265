import { INVITATION_PATH } from './members.ts'

/**
 * Every page path of the web app's router (spec §2; `web/src/app/router.tsx`). The server
 * answers these with the app's `index.html` and 200, any other non-API path with the same
 * page and 404, where the router shows its not-found page (issue 11 item 10).
 */
export const WEB_PATHS = {
  canvas: '/',
  projects: '/projects',
  subscription: '/subscription',
  subscriptionSuccess: '/subscription/success',
  subscriptionCancel: '/subscription/cancel',
  checkout: '/checkout',
  /** Personal access tokens (issue 41 item 1). */
  apiTokens: '/settings/api-tokens',
  auth: '/auth',
  resetPassword: '/reset-password',
  verifyEmail: '/verify-email',
  invitation: INVITATION_PATH,
  terms: '/terms',
  privacy: '/privacy',
  /** A batch's live table (issue 42 item 3): `:id` is the batch's id, digits. */
  batch: '/batches/:id',
} as const

/** One of {@link WEB_PATHS}. */
export type WebPath = (typeof WEB_PATHS)[keyof typeof WEB_PATHS]

const PAGE_PATHS: ReadonlySet<string> = new Set(
  Object.values(WEB_PATHS).filter((path) => !path.includes(':')),
)
/** The paths with a parameter (`/batches/:id`), each `:name` one segment of digits. */
const PAGE_PATTERNS: readonly RegExp[] = Object.values(WEB_PATHS)
  .filter((path) => path.includes(':'))
  .map((path) => new RegExp(`^${path.replace(/:\w+/g, '\\d+')}$`))

/**
 * Whether the web app's router has a page at `pathname` (no query string), matching as its
 * router (wouter) does: the whole path, letters in any case, one trailing slash allowed.
 * `isWebAppPath('/Projects/')` and `isWebAppPath('/batches/7')` are true, `isWebAppPath('/projects/7')`
 * false.
 */
export function isWebAppPath(pathname: string): boolean {
  const path = (pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname).toLowerCase()
  return PAGE_PATHS.has(path) || PAGE_PATTERNS.some((pattern) => pattern.test(path))
}
