import { execFileSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { expect as baseExpect, test } from '@playwright/test'
import { canvasNode, notifications } from '../support/app.ts'
import { type NewcomerApp, startNewcomerApp } from '../support/newcomer.ts'

// The main job as a newcomer runs it (issue 20 item 2): the README's `npm start` from the
// repository root, with no settings but PORT and a relative data folder (builtin providers,
// sandbox billing), then in Chromium: register, add a Script Generator, type a topic, Make
// video and confirm (the README's three clicks), and the video plays and downloads. This is
// its own Playwright project (`newcomer`): it starts its own app, not the suite's.

test.use({ viewport: { width: 1280, height: 720 } })

/**
 * The page runs on a CPU slowed this many times (Chrome's own throttling): a newcomer's
 * laptop, or CI's busy machine, where pans take longer than they are asked to. At full speed
 * the test passed while on CI the made video's Video node stayed off screen (the view gave
 * up following it when a pan overran); with this it failed here too.
 */
const CPU_SLOWDOWN = 4
/** Each wait on the page, in ms: generous, as the page is slowed. */
const expect = baseExpect.configure({ timeout: 60_000 })

/** Seconds of a media file by ffprobe's reading of its container. */
function probeDurationS(path: string): number {
  const out = execFileSync('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration',
    '-of',
    'default=noprint_wrappers=1:nokey=1',
    path,
  ])
  return Number(out.toString().trim())
}

let app: NewcomerApp
test.beforeAll(async () => {
  test.setTimeout(240_000)
  app = await startNewcomerApp()
})
test.afterAll(async () => {
  await app?.stop()
})

test('npm start, a topic and three clicks give a narrated video that plays and downloads', async ({
  page,
}) => {
  test.setTimeout(600_000)
  const unique = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`

  // Register, as on the sign-in page.
  await page.goto(`${app.url}/auth`)
  await page.getByRole('tab', { name: 'Register' }).click()
  await page.getByLabel('Name').fill('Grace Newcomer')
  await page.getByLabel('Email').fill(`grace+${unique}@example.com`)
  await page.getByLabel('Password', { exact: true }).fill(`Newcomer-${unique}`)
  await page.getByLabel('Confirm Password').fill(`Newcomer-${unique}`)
  await page.getByRole('checkbox', { name: /I agree to the Terms of Service/ }).check()
  await page.getByRole('button', { name: 'Create account', exact: true }).click()
  await expect(notifications(page).getByText('Registration successful')).toBeVisible()

  // The first project, with the form's default name.
  await expect(page.getByLabel('Project name')).toHaveValue('My Project')
  await page.getByRole('button', { name: 'Create Project' }).click()
  await expect(page.getByRole('toolbar', { name: 'Canvas controls' })).toBeVisible()
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })

  // Click 1: a Script Generator, running offline; the topic is typed.
  await page.getByRole('button', { name: 'Add Script Generator' }).click()
  const generator = canvasNode(page, 'Script Generator')
  await expect(generator.getByText('Offline draft')).toBeVisible()
  await generator.getByLabel('Topic').fill('How lighthouses guide ships at night')

  // Click 2: Make video. Click 3: its dialog's button, as the dialog offers it.
  await generator.getByRole('button', { name: 'Make video' }).click()
  const dialog = page.getByRole('dialog', { name: 'Make a video' })
  await dialog.getByRole('button', { name: /^Make video · \d+ credits$/ }).click()
  await expect(dialog).toBeHidden()

  // The video lands on the canvas and plays.
  const video = canvasNode(page, 'Video')
  const player = video.locator('video')
  // A failed render says so on the canvas: stop waiting then, with its words.
  const failed = page.getByText(/^Failed to generate /)
  await expect(player.or(failed).first()).toBeVisible({ timeout: 480_000 })
  await expect(failed, 'the job failed on the canvas').toHaveCount(0)
  await expect(player).toBeVisible()
  type Media = {
    readyState: number
    duration: number
    currentTime: number
    muted: boolean
    play(): Promise<void>
    addEventListener(event: string, listener: () => void): void
  }
  const durationS = await player.evaluate(
    (el) =>
      new Promise<number>((resolve, reject) => {
        const media = el as unknown as Media
        if (media.readyState >= 1) resolve(media.duration)
        media.addEventListener('loadedmetadata', () => resolve(media.duration))
        media.addEventListener('error', () => reject(new Error('the video did not load')))
      }),
  )
  expect(durationS).toBeGreaterThan(5)
  await player.evaluate(async (el) => {
    const media = el as unknown as Media
    media.muted = true
    await media.play()
  })
  await expect
    .poll(() => player.evaluate((el) => (el as unknown as Media).currentTime), {
      timeout: 20_000,
    })
    .toBeGreaterThanOrEqual(1)

  // The MP4 downloads, and ffprobe reads the same length the page plays.
  const mp4Download = page.waitForEvent('download')
  await video.getByRole('link', { name: 'MP4' }).click()
  const mp4 = await (await mp4Download).path()
  expect(Math.abs(probeDurationS(mp4) - durationS)).toBeLessThanOrEqual(0.1)

  // So do its subtitles.
  const srtDownload = page.waitForEvent('download')
  await video.getByRole('link', { name: 'SRT' }).click()
  const srt = await readFile(await (await srtDownload).path(), 'utf8')
  expect(srt).toMatch(/^1\r?\n\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}\r?\n\S/)
})
