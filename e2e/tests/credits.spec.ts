import { expect, test } from '@playwright/test'
import {
  canvasNode,
  createProject,
  registerFreshUser,
  describeAtIssue14Viewports,
  spendCredits,
} from '../support/app.ts'

// Issue 14 item 8: a Generate button the balance cannot pay for is disabled, says why, and
// links to /subscription. At 1280x720 and 1440x900, with the offline builtin providers (script: 1 credit).

describeAtIssue14Viewports('at {size}', () => {
  test('at 0 credits Generate is disabled with the reason and a link to /subscription', async ({
    page,
    baseURL,
  }) => {
    await registerFreshUser(page.request, baseURL, 'Hedy Lamarr')
    // Spend 19 of the 20 welcome credits through the API (setup), leaving 1.
    await spendCredits(page.request, baseURL, 19)
    const id = await createProject(page.request, baseURL, 'Frequency hopping')
    await page.goto(`/?id=${id}`)
    await expect(page.getByTitle('Available credits')).toHaveText('1 Credits')

    await page.getByRole('button', { name: 'Add Script Generator' }).click()
    const generator = canvasNode(page, 'Script Generator')
    await generator.getByLabel('Topic').fill('How frequency hopping works')
    const generate = generator.getByRole('button', { name: /^Generate Script · 1 credit$/ })
    await expect(generate).toBeEnabled()

    // The last credit pays for one script; then the button cannot be paid for.
    await generate.click()
    await expect(canvasNode(page, 'Generated Script')).toBeVisible()
    await expect(page.getByTitle('Available credits')).toHaveText('0 Credits')
    await expect(generate).toBeDisabled()
    await expect(generate).toHaveAccessibleDescription(
      'Not enough credits: this needs 1 credit; you have 0. Get credits',
    )
    // The canvas is one screen high: bring the generator's foot (and its link) into view.
    await page.getByRole('button', { name: 'Fit view' }).click()
    await generator.getByRole('link', { name: 'Get credits' }).click()
    await expect(page).toHaveURL(/\/subscription$/)
    await expect(page.getByRole('heading', { name: 'Subscription', level: 1 })).toBeVisible()
  })
})
