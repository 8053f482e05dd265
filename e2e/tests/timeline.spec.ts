import { readFile } from 'node:fs/promises'
import AxeBuilder from '@axe-core/playwright'
import { expect, type Locator, type Page, test } from '@playwright/test'
import { canvasNode, joinProject, registerFreshUser } from '../support/app.ts'
import { isInside } from '../support/layout.ts'

// The Video node's timeline (issue 24 item 1) at 1280x720, on the builtin offline providers:
// opened from the node, a cut dragged to a new place while a second member watches it move
// live in her own timeline, another cut trimmed (its length changes; Ctrl+Z takes it back),
// the preview played (its time advances), Delete takes a cut out of the film (not its scene
// out of the graph), and Render makes a new take.

test.use({ viewport: { width: 1280, height: 720 } })

const PROJECT = 'Rock pools'
const now = Date.now()
const id = (type: string, n: number) => `${type}-${now}-n${n}`
const node = (type: string, n: number, x: number, y: number, label: string, data = {}) => ({
  id: id(type, n),
  type,
  label,
  position: { x, y },
  data,
})

/** Text -> three scenes -> an image generator each; the text -> the Video node. */
function graph() {
  const text = node('editable-text', 1, 0, 0, 'Text', { content: 'Rock pools.', sceneCount: 3 })
  const video = node('video', 1, 0, 500, 'Video', {
    preset: '16:9',
    voice: '',
    subtitles: true,
    music: false,
  })
  const nodes = [text, video]
  const connections = [{ source: text.id, target: video.id }]
  for (const n of [1, 2, 3]) {
    const scene = node('scene', n, 400, (n - 1) * 420, `Scene ${n}`, {
      sceneNumber: String(n),
      narration: `Scene ${n}. A crab hides under a rock.`,
      visuals: 'A rock pool',
    })
    const generator = node('image-generator', n, 800, (n - 1) * 620, `Image Generator ${n}`)
    nodes.push(scene, generator)
    connections.push(
      { source: text.id, target: scene.id },
      { source: scene.id, target: generator.id },
    )
  }
  return { nodes, connections }
}

/** An empty place on the canvas (the pane), to zoom and pan from. */
async function emptyCanvasPoint(page: Page): Promise<{ x: number; y: number }> {
  // The page's DOM, as much of it as this reads (the tests compile without the DOM library).
  type Box = { top: number; bottom: number; left: number; right: number }
  type El = {
    getBoundingClientRect(): Box
    classList: { contains(name: string): boolean }
    ownerDocument: { elementFromPoint(x: number, y: number): El | null }
  }
  const point = await page.locator('.react-flow').evaluate((element) => {
    const canvas = element as unknown as El
    const box = canvas.getBoundingClientRect()
    for (let y = box.top + 20; y < box.bottom - 20; y += 16) {
      for (let x = box.left + 20; x < box.right - 20; x += 16) {
        const hit = canvas.ownerDocument.elementFromPoint(x, y)
        if (hit?.classList.contains('react-flow__pane')) return { x, y }
      }
    }
    return null
  })
  expect(point, 'an empty place on the canvas').not.toBeNull()
  return point!
}

/**
 * Opens the project and brings the Video node to the middle at about 70 % (zoomed out below
 * 40 % a node shows only its summary), as a person would: the wheel zooms, a drag pans.
 */
async function openTimeline(page: Page, projectId: number): Promise<Locator> {
  await page.goto(`/?id=${projectId}`)
  const video = canvasNode(page, 'Video')
  await expect(video).toBeVisible()
  await page.getByRole('button', { name: 'Fit view' }).click()
  const zoom = page.getByRole('status', { name: 'Zoom level' })
  const zoomNow = async () => Number.parseInt((await zoom.textContent()) ?? '0', 10)
  const at = await emptyCanvasPoint(page)
  await page.mouse.move(at.x, at.y)
  for (let i = 0; i < 40 && (await zoomNow()) < 70; i++) await page.mouse.wheel(0, -100)
  const canvas = (await page.locator('.react-flow').boundingBox())!
  const box = (await video.boundingBox())!
  const from = await emptyCanvasPoint(page)
  await page.mouse.move(from.x, from.y)
  await page.mouse.down()
  await page.mouse.move(
    from.x + canvas.x + canvas.width / 2 - (box.x + box.width / 2),
    from.y + canvas.y + canvas.height / 2 - (box.y + box.height / 2),
    { steps: 8 },
  )
  await page.mouse.up()
  await video.getByRole('button', { name: 'Timeline' }).click()
  const dialog = page.getByRole('dialog', { name: /^Timeline/ })
  await expect(dialog).toBeVisible()
  return dialog
}

/** The cuts on a timeline's track, in their on-screen (DOM) order: "Scene 2 4.3 s", ... */
async function cutNames(dialog: Locator): Promise<string[]> {
  const buttons = dialog.getByRole('list', { name: 'Cuts' }).getByRole('button')
  // A cut's button is named by what it shows: its scene over its length.
  return (await buttons.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim())
}

/** A mono 16-bit PCM WAV of a 440 Hz tone, `seconds` long. */
function toneWav(seconds: number): Buffer {
  const rate = 16_000
  const samples = rate * seconds
  const wav = Buffer.alloc(44 + samples * 2)
  wav.write('RIFF', 0)
  wav.writeUInt32LE(36 + samples * 2, 4)
  wav.write('WAVEfmt ', 8)
  wav.writeUInt32LE(16, 16)
  wav.writeUInt16LE(1, 20)
  wav.writeUInt16LE(1, 22)
  wav.writeUInt32LE(rate, 24)
  wav.writeUInt32LE(rate * 2, 28)
  wav.writeUInt16LE(2, 32)
  wav.writeUInt16LE(16, 34)
  wav.write('data', 36)
  wav.writeUInt32LE(samples * 2, 40)
  for (let i = 0; i < samples; i++) {
    wav.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 8000), 44 + i * 2)
  }
  return wav
}

const scenesOf = (names: string[]) => names.map((n) => n.replace(/ [\d.]+ s$/, ''))

/** A cut's length as its button shows it, in seconds. */
async function lengthOf(cut: Locator): Promise<number> {
  return Number(/([\d.]+) s$/.exec((await cut.innerText()).trim())?.[1])
}

test('a timeline is reordered, trimmed, previewed and rendered, live for a second member', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(300_000)
  const headers = { origin: baseURL ?? '' }
  await registerFreshUser(page.request, baseURL, 'Rachel Carson')
  const created = await page.request.post('/api/projects', {
    headers,
    data: { name: PROJECT, ...graph() },
  })
  expect(created.status(), await created.text()).toBe(201)
  const projectId = ((await created.json()) as { id: number }).id

  // Each scene's image, generated through the API (the main-job spec covers the button).
  const models = (await (await page.request.get('/api/csas/models')).json()) as {
    items: { modelVersions: { id: string | number }[] }[]
  }
  const modelVersionId = String(models.items[0]!.modelVersions[0]!.id)
  for (const n of [1, 2, 3]) {
    const res = await page.request.post('/api/csas/generate-image', {
      headers,
      data: {
        projectId,
        nodeId: id('image-generator', n),
        modelVersionId,
        prompt: `A rock pool ${n}`,
        negativePrompt: '',
        width: 512,
        height: 512,
        numInferenceSteps: 20,
        guidanceScale: 7,
      },
    })
    expect(res.status(), await res.text()).toBe(200)
  }

  const linCtx = await browser.newContext({ viewport: { width: 1280, height: 720 } })
  const lin = await linCtx.newPage()
  try {
    await joinProject({
      owner: page,
      page: lin,
      projectId,
      projectName: PROJECT,
      name: 'Lin Editor',
      role: 'editor',
      baseURL: baseURL ?? '',
    })
    const dialog = await openTimeline(page, projectId)
    const linDialog = await openTimeline(lin, projectId)
    await expect
      .poll(async () => scenesOf(await cutNames(dialog)))
      .toEqual(['Scene 1', 'Scene 2', 'Scene 3'])
    await expect
      .poll(async () => scenesOf(await cutNames(linDialog)))
      .toEqual(['Scene 1', 'Scene 2', 'Scene 3'])

    // No serious or critical axe-core violation in the panel (issue 14 item 9's bar).
    const axe = await new AxeBuilder({ page }).include('[role="dialog"]').analyze()
    expect(
      axe.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.html).join(', ')}`),
    ).toEqual([])

    // At 1280x720 the panel's controls are in view.
    const screen = { x: 0, y: 0, width: 1280, height: 720 }
    for (const control of [
      dialog.getByRole('button', { name: 'Play', exact: true }),
      dialog.getByRole('button', { name: /^Render/ }),
      dialog.getByRole('tab', { name: 'Captions' }),
      dialog.getByRole('button', { name: 'Undo' }),
      dialog.getByRole('list', { name: 'Cuts' }),
      dialog.getByRole('slider', { name: 'Trim end of Scene 3' }),
    ]) {
      const box = await control.boundingBox()
      expect(box, String(control)).not.toBeNull()
      expect(isInside(box!, screen), `${String(control)} at ${JSON.stringify(box)}`).toBe(true)
    }

    // Scene 3 dragged to the start: Lin's timeline shows the move before the drop.
    const third = (await dialog.getByRole('button', { name: /^Scene 3\s?\d/ }).boundingBox())!
    const first = (await dialog.getByRole('button', { name: /^Scene 1\s?\d/ }).boundingBox())!
    await page.mouse.move(third.x + third.width / 2, third.y + third.height / 2)
    await page.mouse.down()
    await page.mouse.move(first.x + 4, first.y + first.height / 2, { steps: 12 })
    await expect
      .poll(async () => scenesOf(await cutNames(linDialog)))
      .toEqual(['Scene 3', 'Scene 1', 'Scene 2'])
    await page.mouse.up()
    await expect
      .poll(async () => scenesOf(await cutNames(dialog)))
      .toEqual(['Scene 3', 'Scene 1', 'Scene 2'])

    // Scene 2's end edge dragged right: its length grows, for both; Ctrl+Z takes it back.
    const scene2 = dialog.getByRole('button', { name: /^Scene 2\s?\d/ })
    const before = await lengthOf(scene2)
    const edge = (await dialog.getByRole('slider', { name: 'Trim end of Scene 2' }).boundingBox())!
    await page.mouse.move(edge.x + edge.width / 2, edge.y + edge.height / 2)
    await page.mouse.down()
    // Dragged shorter first, it stops at its narration: never below the length it had.
    await page.mouse.move(edge.x + edge.width / 2 - 120, edge.y + edge.height / 2, { steps: 6 })
    await page.mouse.move(edge.x + edge.width / 2 + 60, edge.y + edge.height / 2, { steps: 6 })
    await page.mouse.up()
    await expect.poll(() => lengthOf(scene2)).toBeGreaterThan(before)
    const after = await lengthOf(scene2)
    await expect
      .poll(() => lengthOf(linDialog.getByRole('button', { name: /^Scene 2\s?\d/ })))
      .toBe(after)
    await scene2.focus()
    await page.keyboard.press('Control+z')
    await expect.poll(() => lengthOf(scene2)).toBe(before)
    await page.keyboard.press('Control+Shift+z')
    await expect.poll(() => lengthOf(scene2)).toBe(after)

    // The preview plays: its time advances; Space pauses it.
    const time = dialog.getByLabel('Playhead time')
    await expect(time).toHaveText(/^0:00\.0 \//)
    await dialog.getByRole('button', { name: 'Play', exact: true }).click()
    await expect(time).not.toHaveText(/^0:00\.0 \//)
    await expect(dialog.getByRole('button', { name: 'Pause' })).toBeVisible()
    await page.keyboard.press(' ')
    await expect(dialog.getByRole('button', { name: 'Play', exact: true })).toBeVisible()
    // Shift+→ steps a second (→ alone, a frame, is below the readout's tenths).
    const shown = async () => Number(/^0:([\d.]+) /.exec((await time.textContent()) ?? '')?.[1])
    const paused = await shown()
    await page.keyboard.press('Shift+ArrowRight')
    await expect.poll(shown).toBeGreaterThanOrEqual(paused + 0.9)
    expect(await shown()).toBeLessThanOrEqual(paused + 1.1)

    // Delete takes the selected cut out of the film; the scene stays in the graph.
    await dialog.getByRole('button', { name: /^Scene 1\s?\d/ }).click()
    await page.keyboard.press('Delete')
    await expect.poll(async () => scenesOf(await cutNames(dialog))).toEqual(['Scene 3', 'Scene 2'])
    await expect(dialog.getByRole('button', { name: 'Put back Scene 1' })).toBeVisible()
    const project = (await (await page.request.get(`/api/projects/${projectId}`)).json()) as {
      nodes: { id: string }[]
    }
    expect(project.nodes.map((n) => n.id)).toContain(id('scene', 1))
    await dialog.getByRole('button', { name: 'Put back Scene 1' }).click()
    await expect.poll(async () => (await cutNames(dialog)).length).toBe(3)

    // Alt+← moves the selected cut one place earlier, for both.
    await dialog.getByRole('button', { name: /^Scene 2\s?\d/ }).click()
    await page.keyboard.press('Alt+ArrowLeft')
    const moved = ['Scene 3', 'Scene 2', 'Scene 1']
    await expect.poll(async () => scenesOf(await cutNames(dialog))).toEqual(moved)
    await expect.poll(async () => scenesOf(await cutNames(linDialog))).toEqual(moved)

    // Split at the playhead (put in Scene 2's middle on the ruler): two cuts of one scene;
    // Ctrl+Z joins them again.
    const middle = (await dialog.getByRole('button', { name: /^Scene 2\s?\d/ }).boundingBox())!
    await page.mouse.click(middle.x + middle.width / 2, middle.y - 14)
    await dialog.getByRole('button', { name: /^Scene 2\s?\d/ }).click()
    await dialog.getByRole('tab', { name: 'Cut' }).click()
    await dialog.getByRole('button', { name: 'Split at playhead' }).click()
    await expect
      .poll(async () => scenesOf(await cutNames(dialog)))
      .toEqual(['Scene 3', 'Scene 2', 'Scene 2 (part 2)', 'Scene 1'])
    await dialog.getByRole('button', { name: 'Split at playhead' }).press('Control+z')
    await expect.poll(async () => scenesOf(await cutNames(dialog))).toEqual(moved)

    // A transition per cut: Scene 1 dips to black from the cut before.
    await dialog.getByRole('button', { name: /^Scene 1\s?\d/ }).click()
    await dialog.getByLabel('Transition in').selectOption({ label: 'Dip to black' })
    const scene1 = dialog.getByRole('listitem').filter({
      has: page.getByRole('button', { name: /^Scene 1\s?\d/ }),
    })
    await expect(scene1.getByText('dip', { exact: true })).toBeVisible()
    await expect(
      linDialog
        .getByRole('listitem')
        .filter({ has: lin.getByRole('button', { name: /^Scene 1\s?\d/ }) })
        .getByText('dip', { exact: true }),
    ).toBeVisible()

    // Captions in the preview: Word highlight marks the spoken word; Bold shows 1 to 3 words.
    await dialog.getByRole('tab', { name: 'Captions' }).click()
    await dialog.getByLabel('Caption style').selectOption({ label: 'Word highlight' })
    await dialog.getByRole('button', { name: 'Back to start' }).click()
    await dialog.getByRole('button', { name: 'Back to start' }).press('Shift+ArrowRight')
    const preview = dialog.getByRole('img', { name: /^Preview/ })
    await expect(preview.locator('mark')).toHaveCount(1)
    await expect(preview.locator('mark')).not.toHaveText('')
    await dialog.getByLabel('Caption style').selectOption({ label: 'Bold short-form' })
    await expect(preview.locator('mark')).toHaveCount(0)
    await expect(preview.locator('p')).toHaveCount(1)
    const bold = (await preview.locator('p').textContent())!.trim().split(/\s+/)
    expect(bold.length).toBeGreaterThanOrEqual(1)
    expect(bold.length).toBeLessThanOrEqual(3)

    // Music: a file that is not audio is refused in words; a WAV becomes the film's music.
    await dialog.getByRole('tab', { name: 'Music' }).click()
    const audioFile = dialog.getByLabel('Audio file')
    await audioFile.setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('These are not sounds.'),
    })
    await expect(dialog.getByRole('alert')).toContainText('Upload an audio file')
    await audioFile.setInputFiles({ name: 'tone.wav', mimeType: 'audio/wav', buffer: toneWav(2) })
    await expect(dialog.getByRole('combobox', { name: 'Music', exact: true })).toHaveValue(
      /^\/api\/assets\//,
    )
    await expect(dialog.getByText(/^Music · 50 %/)).toBeVisible()
    await expect(dialog.getByRole('alert')).toHaveCount(0)

    // Render: a new take.
    await expect(dialog.getByText(/^Latest take/)).toHaveCount(0)
    await dialog.getByRole('button', { name: /^Render · / }).click()
    await expect(dialog.getByText(/^Latest take: 1 take/)).toBeVisible({ timeout: 180_000 })
    await expect(linDialog.getByText(/^Latest take: 1 take/)).toBeVisible()

    // Export for an editor: a ZIP of the OTIO file and the media it names.
    const exported = page.waitForEvent('download')
    await dialog.getByRole('button', { name: 'Export OTIO' }).click()
    const download = await exported
    expect(download.suggestedFilename()).toBe(`${PROJECT} - OTIO.zip`)
    const zip = await readFile(await download.path())
    expect([...zip.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04])
    // Entry names stand in the ZIP's headers as they are.
    const names = zip.toString('latin1')
    expect(names).toContain(`${PROJECT}.otio`)
    expect(names).toMatch(/media\/scene-01\.\w+/)
  } finally {
    await linCtx.close()
  }
})
