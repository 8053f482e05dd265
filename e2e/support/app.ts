import { type APIRequestContext, expect, type Page } from '@playwright/test'

/**
 * Helpers every browser test shares: the toast region and account setup.
 */

/**
 * The toast region (F8 focuses it). Looking inside it keeps a toast's text apart from the
 * copy Radix puts in a screen-reader announcement.
 */
export function notifications(page: Page) {
  return page.getByRole('region', { name: /^Notifications/ })
}

/**
 * Registers a fresh account through the API (setup only; the auth spec covers the form).
 * `request` shares the page's cookies, so the page is signed in afterwards.
 */
export async function registerFreshUser(
  request: APIRequestContext,
  baseURL: string | undefined,
  name: string,
): Promise<void> {
  const unique = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`
  const first = name.split(' ')[0]?.toLowerCase() ?? 'user'
  const res = await request.post('/api/register', {
    headers: { origin: baseURL ?? '' },
    data: { name, email: `${first}+${unique}@example.com`, password: `Reel-graph-${unique}` },
  })
  expect(res.status(), await res.text()).toBe(201)
}

/** Creates a project through the API (setup only) and returns its id. */
export async function createProject(
  request: APIRequestContext,
  baseURL: string | undefined,
  name: string,
): Promise<number> {
  const res = await request.post('/api/projects', {
    headers: { origin: baseURL ?? '' },
    data: { name },
  })
  expect(res.status(), await res.text()).toBe(201)
  const { id } = (await res.json()) as { id: number }
  return id
}

/** A node on the canvas, by its label. */
export function canvasNode(page: Page, label: string) {
  return page.getByRole('group', { name: label, exact: true })
}

/** What the header's save-status pill can say (spec §2 Header, §4 Save status, issue 11). */
export type SaveStatusText = 'Saved' | 'Saving...' | 'Unsaved' | "Not saved: can't reach the server"

/**
 * The header's save-status pill when it says `text`. "Not saved: can't reach the server"
 * shows as "Not saved", the rest read out and in its tooltip: it is found by the whole
 * sentence, as a screen reader hears it.
 */
export function saveStatus(page: Page, text: SaveStatusText) {
  return page.getByRole('banner').getByText(text, { exact: true })
}
