import { type APIRequestContext, expect, type Page, test } from '@playwright/test'
import { waitForEmail } from './mail.ts'

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

let setupClients = 0

/**
 * The headers of a setup registration: the Origin, and a client address of its own
 * (`X-Forwarded-For`, read because the apps under test run with `TRUST_PROXY=1`), so the
 * suite's many accounts do not meet the per-address registration limit that a person would.
 * The addresses are from TEST-NET-2 (RFC 5737): only a header, nothing is sent there.
 */
export function setupHeaders(baseURL: string | undefined): Record<string, string> {
  setupClients += 1
  const address = `198.51.100.${(setupClients % 250) + 1}`
  return { origin: baseURL ?? '', 'x-forwarded-for': address }
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
    headers: setupHeaders(baseURL),
    data: { name, email: `${first}+${unique}@example.com`, password: `Reel-graph-${unique}` },
  })
  expect(res.status(), await res.text()).toBe(201)
}

/**
 * The screens issue 14's browser tests run at: the smallest the layout promises (1280x720)
 * and a common laptop (1440x900).
 */
export const ISSUE_14_VIEWPORTS = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
] as const

/**
 * A `test.describe` per screen of {@link ISSUE_14_VIEWPORTS}, its page at that size:
 * `{size}` in `title` reads "1280x720", and so on.
 */
export function describeAtIssue14Viewports(title: string, body: () => void): void {
  for (const viewport of ISSUE_14_VIEWPORTS) {
    test.describe(title.replace('{size}', `${viewport.width}x${viewport.height}`), () => {
      test.use({ viewport })
      body()
    })
  }
}

/**
 * Spends `credits` credits of the signed-in account (setup only): one script generation
 * (1 credit, the offline builtin provider) each, through the API.
 */
export async function spendCredits(
  request: APIRequestContext,
  baseURL: string | undefined,
  credits: number,
): Promise<void> {
  for (let i = 0; i < credits; i += 1) {
    const spent = await request.post('/api/ai/generate-script', {
      headers: { origin: baseURL ?? '' },
      data: { style: 'Professional', tone: 'Conversational', format: 'Explainer', topic: 'Tides' },
    })
    expect(spent.ok(), await spent.text()).toBe(true)
  }
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

/**
 * Gives `page`'s person (a new account, `name`) `role` on the owner's project `projectId`
 * (setup through the API: an invitation, its email, a registration and the accept; the team
 * spec covers the Share dialog and the invitation page). Signs `page` in.
 */
export async function joinProject(options: {
  owner: Page
  page: Page
  projectId: number
  /** The project's name: the invitation email's subject carries it. */
  projectName: string
  name: string
  role: 'editor' | 'viewer'
  baseURL: string
  /** The app's DATA_DIR, where its mail goes (default the main app's). */
  dataDir?: string
}): Promise<void> {
  const { owner, page, baseURL } = options
  const headers = { origin: baseURL }
  const unique = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`
  const email = `${options.name.split(' ')[0]?.toLowerCase()}+${unique}@example.com`
  const invited = await owner.request.post(`/api/projects/${options.projectId}/invitations`, {
    headers,
    data: { email, role: options.role },
  })
  expect(invited.status(), await invited.text()).toBe(201)
  const registered = await page.request.post('/api/register', {
    headers: setupHeaders(baseURL),
    data: { name: options.name, email, password: `Reel-graph-${unique}` },
  })
  expect(registered.status(), await registered.text()).toBe(201)
  const mail = await waitForEmail(email, options.projectName, 10_000, options.dataDir)
  const link = mail.links.find((l) => l.includes('/invite?token='))
  expect(link, mail.text).toBeDefined()
  const token = new URL(link ?? '').searchParams.get('token')
  const accepted = await page.request.post('/api/invitations/accept', {
    headers,
    data: { token },
  })
  expect(accepted.status(), await accepted.text()).toBe(200)
}
