import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { expect, type Page, test } from '@playwright/test'
import { createProject, registerFreshUser } from '../support/app.ts'

// Issue 41 item 1, "Done when" 1: what a program does with a token made on the API tokens
// page. The program is Node's own `fetch` in the test process: it sends no cookie and no
// Origin, only `Authorization: Bearer`. (`page.request` would carry the browser's cookies.)
// A token with "Read projects", "Change projects" and "Generate" makes a whole video through
// the REST API and downloads the MP4; a token with "Read projects" only is refused Make video
// and nothing is charged; a token limited to one project sees no other; a token revoked on
// the page is refused at the program's next request.

test.use({ viewport: { width: 1280, height: 720 } })

/** The scopes as the page names them (shared `TOKEN_SCOPE_LABELS`). */
type ScopeLabel = 'Read projects' | 'Change projects' | 'Generate' | 'Read credits'
const SCOPE_LABELS: readonly ScopeLabel[] = [
  'Read projects',
  'Change projects',
  'Generate',
  'Read credits',
]

/**
 * How long Make video with one scene may take on the builtin offline providers: about 40 s on
 * 2 cores alone, more while the suite's other renders share them.
 */
const MAKE_VIDEO_TIMEOUT_MS = 180_000

const run = promisify(execFile)

/** The API as a program calls it with `token`: JSON in and out, no cookie, no Origin. */
function programWith(baseURL: string | undefined, token: string) {
  return (method: string, path: string, body?: unknown) =>
    fetch(`${baseURL}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
}

/** The signed-in person's balance, read with the page's session. */
async function sessionCredits(page: Page): Promise<number> {
  const res = await page.request.get('/api/user/credits')
  expect(res.status(), await res.text()).toBe(200)
  return ((await res.json()) as { credits: number }).credits
}

/** Opens Settings → API tokens from the account menu, as a person would. */
async function openApiTokens(page: Page): Promise<void> {
  await page.goto('/projects')
  await page.getByRole('button', { name: /^Account menu/ }).click()
  await page.getByRole('menuitem', { name: 'API tokens' }).click()
  await expect(page).toHaveURL(/\/settings\/api-tokens$/)
  await expect(page.getByRole('heading', { name: 'API tokens', level: 1 })).toBeVisible()
}

/**
 * Makes a token on the open API tokens page with exactly `scopes` checked and, when given,
 * limited to the `projects` checked by name; returns its secret from the once-only view.
 */
async function makeToken(
  page: Page,
  options: { name: string; scopes: readonly ScopeLabel[]; projects?: readonly string[] },
): Promise<string> {
  await page.getByLabel('Name', { exact: true }).fill(options.name)
  for (const label of SCOPE_LABELS) {
    await page
      .getByRole('checkbox', { name: label, exact: true })
      .setChecked(options.scopes.includes(label))
  }
  for (const project of options.projects ?? []) {
    await page.getByRole('checkbox', { name: project, exact: true }).check()
  }
  await page.getByRole('button', { name: 'Make token' }).click()
  const field = page.getByRole('textbox', { name: 'Your new API token' })
  await expect(field).toBeVisible()
  const token = await field.inputValue()
  expect(token).toMatch(/^rg_[A-Za-z0-9_-]{43}$/)
  await page.getByRole('button', { name: 'Done, I have copied it' }).click()
  await expect(field).toBeHidden()
  return token
}

/** Revokes the token `name` on the page, confirmed in its dialog. */
async function revokeToken(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: `Revoke ${name}` }).click()
  const dialog = page.getByRole('alertdialog', { name: `Revoke “${name}”?` })
  await dialog.getByRole('button', { name: 'Revoke' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByRole('row', { name: new RegExp(name) })).toHaveCount(0)
}

/** A Script Generator node as the REST API takes it (shared `graphNodeSchema`). */
function scriptGenerator(topic: string) {
  return {
    // shared NODE_ID_PATTERN: `<type>-<ms timestamp>-<suffix>`.
    id: `script-generator-${Date.now()}-robot`,
    type: 'script-generator',
    label: 'Script Generator',
    position: { x: 0, y: 0 },
    data: { topic },
    connectionPoints: 'output',
  }
}

interface ApiError {
  error: { code: string; message: string }
}
interface StoredNode {
  id: string
  type: string
  data: Record<string, unknown>
}
interface Job {
  status: string
  cost: number
  refunded: number
  message: string | null
}

/** ffprobe's reading of a media file: its streams' codecs and its length in seconds. */
async function probe(path: string) {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration:stream=codec_type,codec_name',
    '-of',
    'json',
    path,
  ])
  const info = JSON.parse(stdout) as {
    format: { duration: string }
    streams: { codec_type: string; codec_name: string }[]
  }
  return { streams: info.streams, seconds: Number(info.format.duration) }
}

test('a program with a token made on the page builds a project, makes a video and downloads the MP4', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(MAKE_VIDEO_TIMEOUT_MS + 60_000)
  await registerFreshUser(page.request, baseURL, 'Grace Hopper')
  const { costs } = (await (await page.request.get('/api/ai/providers')).json()) as {
    costs: { script: number; scenes: number; image: number; voice: number; video: number }
  }
  const oneSceneVideo = costs.script + costs.scenes + costs.image + costs.voice + costs.video
  const before = await sessionCredits(page)

  await openApiTokens(page)
  const token = await makeToken(page, {
    name: 'Video robot',
    scopes: ['Read projects', 'Change projects', 'Generate'],
  })
  await expect(page.getByRole('row', { name: /Video robot/ })).toContainText(
    'Read projects, Change projects, Generate',
  )
  const program = programWith(baseURL, token)

  // List, create, list again.
  const empty = await program('GET', '/api/projects')
  expect(empty.status).toBe(200)
  expect(await empty.json()).toEqual([])
  const created = await program('POST', '/api/projects', { name: 'Robot videos' })
  expect(created.status, await created.clone().text()).toBe(201)
  const { id: projectId } = (await created.json()) as { id: number }
  const listed = await program('GET', '/api/projects')
  expect(((await listed.json()) as { id: number; name: string }[]).map((p) => p.name)).toEqual([
    'Robot videos',
  ])

  // The graph: one Script Generator with a topic.
  const generator = scriptGenerator('How tides work')
  const built = await program('PATCH', `/api/projects/${projectId}`, {
    nodes: [generator],
    connections: [],
  })
  expect(built.status, await built.clone().text()).toBe(200)

  // Make video, one scene; the job followed to its end.
  const made = await program('POST', '/api/video/make', {
    projectId,
    nodeId: generator.id,
    sceneCount: 1,
    preset: '16:9',
  })
  expect(made.status, await made.clone().text()).toBe(202)
  const { jobId } = (await made.json()) as { jobId: string }
  const readJob = async () => {
    const res = await program('GET', `/api/jobs/${jobId}`)
    expect(res.status).toBe(200)
    return (await res.json()) as Job
  }
  await expect
    .poll(async () => (await readJob()).status, {
      timeout: MAKE_VIDEO_TIMEOUT_MS,
      intervals: [1_000],
    })
    .not.toMatch(/^(queued|running)$/)
  const job = await readJob()
  expect(job, job.message ?? '').toMatchObject({
    status: 'succeeded',
    cost: oneSceneVideo,
    refunded: 0,
  })
  // Charged to the token's owner, once.
  expect(await sessionCredits(page)).toBe(before - oneSceneVideo)

  // The Video node's current render, as the project answers it.
  const opened = await program('GET', `/api/projects/${projectId}`)
  expect(opened.status).toBe(200)
  const { nodes } = (await opened.json()) as { nodes: StoredNode[] }
  const video = nodes.find((n) => n.type === 'video')
  expect(video, `a Video node among ${nodes.map((n) => n.type).join(', ')}`).toBeDefined()
  const videoUrl = String(video!.data.videoUrl)
  expect(videoUrl).toMatch(/^\/api\/assets\//)
  const takes = JSON.parse(String(video!.data.videoTakes)) as { mp4Url: string }[]
  expect(takes.map((t) => t.mp4Url)).toEqual([videoUrl])

  // The MP4, with the token: an H.264 picture and a sound track, as long as the render says.
  const unsigned = await fetch(`${baseURL}${videoUrl}`)
  expect(unsigned.status).toBe(401)
  const mp4 = await program('GET', videoUrl)
  expect(mp4.status).toBe(200)
  expect(mp4.headers.get('content-type')).toBe('video/mp4')
  const dir = await mkdtemp(join(tmpdir(), 'api-token-video-'))
  try {
    const file = join(dir, 'video.mp4')
    await writeFile(file, Buffer.from(await mp4.arrayBuffer()))
    const { streams, seconds } = await probe(file)
    expect(streams).toContainEqual({ codec_type: 'video', codec_name: 'h264' })
    expect(streams.map((s) => s.codec_type)).toContain('audio')
    expect(seconds).toBeGreaterThan(0)
    expect(Math.abs(seconds * 1000 - Number(video!.data.videoDurationMs))).toBeLessThanOrEqual(100)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }

  // Revoked on the page: the program's next request is refused.
  await revokeToken(page, 'Video robot')
  const refused = await program('GET', `/api/projects/${projectId}`)
  expect(refused.status).toBe(401)
  expect(((await refused.json()) as ApiError).error.message).toMatch(/revoked/)
})

test('a token with only "Read projects" may not make a video, and nothing is charged', async ({
  page,
  baseURL,
}) => {
  await registerFreshUser(page.request, baseURL, 'Hedy Lamarr')
  const projectId = await createProject(page.request, baseURL, 'Read only')
  // A project where Make video would start: a Script Generator with a topic.
  const generator = scriptGenerator('Radio waves')
  const setup = await page.request.patch(`/api/projects/${projectId}`, {
    headers: { origin: baseURL ?? '' },
    data: { nodes: [generator], connections: [] },
  })
  expect(setup.status(), await setup.text()).toBe(200)
  const before = await sessionCredits(page)

  await openApiTokens(page)
  const token = await makeToken(page, { name: 'Reader', scopes: ['Read projects'] })
  const row = page.getByRole('row', { name: /Reader/ })
  await expect(row).toContainText('Read projects')
  await expect(row).not.toContainText('Generate')
  const program = programWith(baseURL, token)

  // It reads...
  expect((await program('GET', `/api/projects/${projectId}`)).status).toBe(200)
  // ...but may not generate.
  const refused = await program('POST', '/api/video/make', {
    projectId,
    nodeId: generator.id,
    sceneCount: 1,
    preset: '16:9',
  })
  expect(refused.status).toBe(403)
  const { error } = (await refused.json()) as ApiError
  expect(error.code).toBe('INSUFFICIENT_SCOPE')
  expect(error.message).toMatch(/\bgenerate\b/)

  // Nothing charged, nothing started.
  expect(await sessionCredits(page)).toBe(before)
  const project = (await (await page.request.get(`/api/projects/${projectId}`)).json()) as {
    nodes: StoredNode[]
  }
  expect(project.nodes.map((n) => n.id)).toEqual([generator.id])
  expect(project.nodes[0]!.data.jobId).toBeUndefined()
})

test('a token limited to one project on the page sees that project and no other', async ({
  page,
  baseURL,
}) => {
  await registerFreshUser(page.request, baseURL, 'Alan Turing')
  const own = await createProject(page.request, baseURL, 'Client A')
  const other = await createProject(page.request, baseURL, 'Client B')

  await openApiTokens(page)
  const token = await makeToken(page, {
    name: 'One-client robot',
    scopes: ['Read projects'],
    projects: ['Client A'],
  })
  const row = page.getByRole('row', { name: /One-client robot/ })
  await expect(row).toContainText('Client A')
  await expect(row).not.toContainText('Client B')
  await expect(row).not.toContainText('All projects')
  const program = programWith(baseURL, token)

  const mine = await program('GET', `/api/projects/${own}`)
  expect(mine.status).toBe(200)
  expect(((await mine.json()) as { name: string }).name).toBe('Client A')
  // The other project of the same account is as if it did not exist.
  const hidden = await program('GET', `/api/projects/${other}`)
  expect(hidden.status).toBe(404)
  expect(((await hidden.json()) as ApiError).error.code).toBe('NOT_FOUND')
  const listed = await program('GET', '/api/projects')
  expect(((await listed.json()) as { name: string }[]).map((p) => p.name)).toEqual(['Client A'])
  // The session still sees both.
  expect((await page.request.get(`/api/projects/${other}`)).status()).toBe(200)
})
