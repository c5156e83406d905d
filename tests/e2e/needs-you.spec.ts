import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type BrowserContext, type Locator, type Page } from '@playwright/test'
import {
  offlineConfigHome,
  openApp,
  openWatchedPage,
  root,
  startServer,
  tearDown,
  type RunningServer,
} from './serve'

/**
 * Two teammates in ask mode each want to run a bash command (the offline model calls bash with
 * the command its first prompt names). Both wait in the Needs-you queue; the person triages it
 * with the keyboard only: j moves to the older entry, a approves it, k goes back, a approves the
 * other. Each command runs exactly once, only after its approval, and the header's count and the
 * tab's title follow: 2, then 1, then 0.
 */

const screenshots = join(root, 'test-results/screenshots')
const TEAM_TIMEOUT = 30_000

let workspace = ''
let configHome = ''
let server: RunningServer | undefined
let context: BrowserContext | undefined
let page: Page
const pageErrors: string[] = []

const count = (): Locator => page.getByTestId('needs-you-count')
/** The file each teammate's command appends a line to, in the workspace. */
const effect = (name: string): string => join(workspace, `${name}-ran.txt`)

async function spawnInAskMode(name: string): Promise<void> {
  await page.getByRole('button', { name: 'Spawn teammate' }).click()
  const dialog = page.getByRole('dialog', { name: 'Spawn a teammate' })
  await dialog.getByLabel('Name', { exact: true }).fill(name)
  await dialog.getByLabel('Role', { exact: true }).fill('tester')
  await dialog.getByLabel('Approvals', { exact: true }).selectOption('ask')
  await dialog
    .getByLabel('First prompt', { exact: true })
    .fill(`Please run \`echo ran >> ${name}-ran.txt\` in the workspace.`)
  await dialog.getByRole('button', { name: 'Spawn', exact: true }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByTestId(`profile-${name}`)).toHaveText('implementer · ask')
  await expect(page.getByTestId(`status-${name}`)).toContainText('Waiting for you', {
    timeout: TEAM_TIMEOUT,
  })
}

test.describe.configure({ mode: 'serial' })

test.describe('browser mode: the Needs-you queue', () => {
  test.beforeAll(async ({ browser }) => {
    mkdirSync(screenshots, { recursive: true })
    workspace = mkdtempSync(join(tmpdir(), 'agent-teams-e2e-needs-you-workspace-'))
    configHome = offlineConfigHome('needs-you', { demoSpeed: 'instant' })
    server = await startServer({ workspace, configHome })
    page = await openWatchedPage(browser, pageErrors, { width: 1440, height: 900 })
    context = page.context()
  })

  test.afterAll(async () => {
    const code = await tearDown(context, server, [workspace, configHome])
    expect(code, 'the server exits cleanly on SIGTERM').toBe(0)
  })

  test('ask-mode commands wait in the queue and run once when approved with the keyboard', async () => {
    await openApp(page, server!.url)
    await expect(count()).toHaveAccessibleName('Needs you: 0', { timeout: TEAM_TIMEOUT })

    await spawnInAskMode('tess')
    await spawnInAskMode('tom')
    await expect(count()).toHaveAccessibleName('Needs you: 2')
    await expect(page).toHaveTitle(/^\(2\) /)
    // Nothing ran while it waits.
    expect(existsSync(effect('tess'))).toBe(false)
    expect(existsSync(effect('tom'))).toBe(false)

    await count().click()
    const queue = page.getByRole('listbox', { name: /^Needs you/ })
    await expect(queue).toBeFocused()
    const entries = queue.getByRole('option')
    await expect(entries).toHaveCount(2)
    // Newest first: tom's request on top, selected; each shows the exact command.
    await expect(entries.nth(0)).toContainText('echo ran >> tom-ran.txt')
    await expect(entries.nth(1)).toContainText('echo ran >> tess-ran.txt')
    await expect(entries.nth(0)).toHaveAttribute('aria-selected', 'true')
    await page.screenshot({ path: join(screenshots, 'needs-you-01-waiting.png') })

    await page.keyboard.press('j')
    await expect(entries.nth(1)).toHaveAttribute('aria-selected', 'true')
    await page.keyboard.press('a')
    await expect(count()).toHaveAccessibleName('Needs you: 1', { timeout: TEAM_TIMEOUT })
    await expect(page).toHaveTitle(/^\(1\) /)
    await expect(entries).toHaveCount(1)
    await expect(entries.nth(0)).toContainText('echo ran >> tom-ran.txt')
    await expect.poll(() => existsSync(effect('tess')), { timeout: TEAM_TIMEOUT }).toBe(true)
    expect(existsSync(effect('tom')), 'only the approved command ran').toBe(false)
    await page.screenshot({ path: join(screenshots, 'needs-you-02-one-approved.png') })

    await page.keyboard.press('k')
    await expect(entries.nth(0)).toHaveAttribute('aria-selected', 'true')
    await page.keyboard.press('a')
    await expect(count()).toHaveAccessibleName('Needs you: 0', { timeout: TEAM_TIMEOUT })
    await expect(page).not.toHaveTitle(/^\(\d+\) /)
    await expect(queue).toBeHidden()
    await expect(page.getByText('Nothing needs you.')).toBeVisible()
    await expect.poll(() => existsSync(effect('tom')), { timeout: TEAM_TIMEOUT }).toBe(true)

    // Each teammate went on after its approval and finished; each command ran exactly once.
    for (const name of ['tess', 'tom']) {
      await expect(page.getByTestId(`status-${name}`)).toContainText('Idle', {
        timeout: TEAM_TIMEOUT,
      })
      expect(readFileSync(effect(name), 'utf8')).toBe('ran\n')
    }
    await page.screenshot({ path: join(screenshots, 'needs-you-03-all-approved.png') })
    expect(pageErrors).toEqual([])
  })

  test('Profile… saves a custom profile and gives it to tess, whose commands then run unasked', async () => {
    const roster = page.getByTestId('roster-item-tess')
    await roster.getByRole('button', { name: 'Profile…' }).click()
    let dialog = page.getByRole('dialog', { name: 'Profile of tess' })
    await expect(dialog.getByLabel('Profile', { exact: true })).toHaveValue('implementer')
    await expect(dialog.getByLabel('Approvals', { exact: true })).toHaveValue('ask')
    await dialog.getByRole('button', { name: 'New profile…' }).click()

    dialog = page.getByRole('dialog', { name: 'New profile' })
    await dialog.getByLabel('Name', { exact: true }).fill('runner')
    await dialog.getByLabel('Description', { exact: true }).fill('Runs commands, nothing else.')
    await dialog.getByRole('checkbox', { name: 'bash' }).check()
    await dialog.getByLabel('Approvals', { exact: true }).selectOption('auto')
    await page.screenshot({ path: join(screenshots, 'needs-you-04-new-profile.png') })
    await dialog.getByRole('button', { name: 'Save profile' }).click()

    // Saved with the team, and chosen for tess in the dialog it came from.
    dialog = page.getByRole('dialog', { name: 'Profile of tess' })
    await expect(dialog.getByLabel('Profile', { exact: true })).toHaveValue('runner')
    const saved = JSON.parse(readFileSync(join(workspace, '.team/profiles.json'), 'utf8')) as {
      profiles: { name: string; tools: string[]; approval: string; mcp: boolean }[]
    }
    expect(saved.profiles).toContainEqual(
      expect.objectContaining({ name: 'runner', approval: 'auto', mcp: false }),
    )
    // tess's own "ask" would outlive the profile change: back to the profile's own mode.
    await dialog.getByLabel('Approvals', { exact: true }).selectOption('')
    await page.screenshot({ path: join(screenshots, 'needs-you-05-profile-dialog.png') })
    await dialog.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(dialog).toBeHidden()
    await expect(page.getByTestId('profile-tess')).toHaveText('runner')

    // Now bash runs without asking: nothing joins the queue, the command's effect is there.
    await page.getByTestId('roster-item-tess').getByRole('button', { name: 'Message' }).click()
    const composer = page.getByLabel(/^Message tess/)
    await composer.fill('Please run `echo again >> tess-ran.txt` now.')
    await composer.press('Enter')
    await expect
      .poll(() => readFileSync(effect('tess'), 'utf8'), { timeout: TEAM_TIMEOUT })
      .toBe('ran\nagain\n')
    await expect(count()).toHaveAccessibleName('Needs you: 0')
    expect(pageErrors).toEqual([])
  })
})
