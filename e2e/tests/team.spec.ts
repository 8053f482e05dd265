import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test'
import { canvasNode, createProject, notifications, registerFreshUser } from '../support/app.ts'
import { waitForEmail } from '../support/mail.ts'

// Real-time team editing (issue 6): two people in two browsers share one project. With
// TEST_DATABASE_URL and REDIS_URL set (`npm test` in CI) each person uses a different app
// process, so their edits and cursors travel between two sync servers through Redis;
// otherwise both use the main app (see playwright.config.ts).

const [serverA, serverB] = (process.env.E2E_TEAM_SERVERS ?? '').split(' ').filter(Boolean)

/** A browser context of its own (cookies, storage) on `baseURL`. */
async function personOn(
  browser: Browser,
  baseURL: string,
): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ baseURL })
  return { ctx, page: await ctx.newPage() }
}

/**
 * Moves the pointer over a node's title, so the others get a live cursor where they can
 * see it (each person's viewport is their own; a cursor off their screen is not drawn).
 */
async function pointAt(page: Page, label: string): Promise<void> {
  const box = await canvasNode(page, label).getByText(label).first().boundingBox()
  if (!box) throw new Error(`${label} is not on screen`)
  await page.mouse.move(box.x + 2, box.y + 2)
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 6 })
}

test('two people share a project: invite, accept, edit live, view only, removed', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000)
  const ada = await personOn(browser, serverA ?? baseURL ?? '')
  const lin = await personOn(browser, serverB ?? baseURL ?? '')
  const adaBase = serverA ?? baseURL
  try {
    // Ada owns a project with a node in it.
    await registerFreshUser(ada.page.request, adaBase, 'Ada Lovelace')
    const id = await createProject(ada.page.request, adaBase, 'Team film')
    await ada.page.goto(`/?id=${id}`)
    await expect(ada.page.getByRole('toolbar', { name: 'Canvas controls' })).toBeVisible()
    await ada.page.getByRole('button', { name: 'Add Script Generator' }).click()
    await expect(canvasNode(ada.page, 'Script Generator')).toBeVisible()

    // She invites Lin, who has no account yet, as an editor.
    const linEmail = `lin+${Date.now()}@example.com`
    await ada.page.getByRole('button', { name: 'Share' }).click()
    const share = ada.page.getByRole('dialog', { name: 'Share project' })
    await share.getByLabel('Email address').fill(linEmail)
    await share.getByRole('combobox', { name: 'Role' }).click()
    await ada.page.getByRole('option', { name: /edit/i }).click()
    await share.getByRole('button', { name: 'Send invite' }).click()
    await expect(notifications(ada.page).getByText('Invitation sent')).toBeVisible()
    await expect(share.getByText(linEmail)).toBeVisible()
    await ada.page.keyboard.press('Escape')

    // The email's link works on any of the app's servers: Lin opens it on hers.
    const mail = await waitForEmail(linEmail, 'Team film')
    const link = mail.links.find((l) => l.includes('/invite?token='))
    expect(link, mail.text).toBeDefined()
    const token = new URL(link ?? '').searchParams.get('token')
    await lin.page.goto(`/invite?token=${token}`)
    await expect(lin.page.getByText('Ada Lovelace', { exact: false }).first()).toBeVisible()
    await lin.page.getByRole('button', { name: 'Create an account' }).click()
    await lin.page.getByLabel('Name').fill('Lin Wei')
    await lin.page.getByLabel('Email').fill(linEmail)
    const password = `Team-film-${Date.now()}`
    await lin.page.getByLabel('Password', { exact: true }).fill(password)
    await lin.page.getByLabel('Confirm Password').fill(password)
    await lin.page.getByRole('checkbox', { name: /I agree/ }).check()
    await lin.page.getByRole('button', { name: 'Create account', exact: true }).click()
    // Registration brings her back to the invitation.
    await lin.page.getByRole('button', { name: 'Accept invitation' }).click()
    await expect(lin.page).toHaveURL(new RegExp(`/\\?id=${id}$`))
    await expect(canvasNode(lin.page, 'Script Generator')).toBeVisible()

    // Both edit; each sees the other's edits and cursor live.
    await canvasNode(lin.page, 'Script Generator').getByLabel('Topic').fill('Bees, by Lin')
    await expect(canvasNode(ada.page, 'Script Generator').getByLabel('Topic')).toHaveValue(
      'Bees, by Lin',
    )
    await ada.page.getByRole('button', { name: 'Add Scene' }).click()
    await expect(canvasNode(lin.page, 'Scene 1')).toBeVisible()
    // Ada's scene lands in free space by her view, maybe off Lin's screen (a canvas one screen
    // high clips it): Lin brings both nodes into view, as a person would.
    await lin.page.getByRole('button', { name: 'Fit view' }).click()
    await canvasNode(ada.page, 'Scene 1').getByLabel('Narration').fill('Written by Ada')
    await expect(canvasNode(lin.page, 'Scene 1').getByLabel('Narration')).toHaveValue(
      'Written by Ada',
    )
    await ada.page.bringToFront()
    await pointAt(ada.page, 'Script Generator')
    await expect(
      lin.page.getByTestId('presence-cursor').filter({ hasText: 'Ada Lovelace' }),
    ).toHaveCount(1)
    await lin.page.bringToFront()
    await pointAt(lin.page, 'Script Generator')
    await expect(
      ada.page.getByTestId('presence-cursor').filter({ hasText: 'Lin Wei' }),
    ).toHaveCount(1)

    // Ada makes Lin a viewer: Lin's open canvas turns view only at once.
    await ada.page.getByRole('button', { name: 'Share' }).click()
    await share.getByRole('combobox', { name: 'Role for Lin Wei' }).click()
    await ada.page.getByRole('option', { name: /view/i }).click()
    await expect(lin.page.getByText('View only')).toBeVisible()
    await ada.page.keyboard.press('Escape')
    await expect(share).toBeHidden()
    const linTopic = canvasNode(lin.page, 'Script Generator').getByLabel('Topic')
    await expect(linTopic).not.toBeEditable()
    await expect(lin.page.getByRole('button', { name: 'Add Scene' })).toHaveCount(0)
    // Nothing she does changes the project: a drag and Delete leave it as it is.
    const node = canvasNode(lin.page, 'Scene 1')
    await node.getByText('Scene').first().click()
    await lin.page.keyboard.press('Delete')
    await expect(node).toBeVisible()
    const patch = await lin.page.request.patch(`/api/projects/${id}`, {
      headers: { origin: serverB ?? baseURL ?? '' },
      data: { name: 'Renamed by a viewer' },
    })
    expect(patch.status()).toBe(403)
    // She still sees Ada's edits live.
    await canvasNode(ada.page, 'Scene 1').getByLabel('Narration').fill('Ada, still writing')
    await expect(canvasNode(lin.page, 'Scene 1').getByLabel('Narration')).toHaveValue(
      'Ada, still writing',
    )
    await expect(canvasNode(ada.page, 'Scene 1')).toBeVisible()
    const stored = await ada.page.request.get(`/api/projects/${id}`)
    const project = (await stored.json()) as { name: string; nodes: unknown[] }
    expect(project.name).toBe('Team film')
    expect(project.nodes).toHaveLength(2)

    // Ada removes Lin: her canvas is cut off and the project is gone for her.
    await ada.page.getByRole('button', { name: 'Share' }).click()
    await share.getByRole('button', { name: 'Remove Lin Wei' }).click()
    await ada.page
      .getByRole('alertdialog')
      .getByRole('button', { name: /remove/i })
      .click()
    await expect(lin.page.getByText(/no longer have access|could not be opened/i)).toBeVisible()
    expect((await lin.page.request.get(`/api/projects/${id}`)).status()).toBe(404)
    // Her canvas is gone, with what it held on her device.
    await expect(lin.page.getByRole('region', { name: 'Canvas' })).toHaveCount(0)
    await expect(canvasNode(lin.page, 'Scene 1')).toHaveCount(0)
  } finally {
    await ada.ctx.close()
    await lin.ctx.close()
  }
})
