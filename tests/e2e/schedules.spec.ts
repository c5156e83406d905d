import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type BrowserContext, type Page } from '@playwright/test'
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
 * The Schedules dialog in browser mode: a schedule added with every field, listed with its next
 * run, run now (the lead answers on the offline model) and shown with its last run's outcome.
 */

const screenshots = join(root, 'test-results/screenshots')
const TEAM_TIMEOUT = 30_000

let workspace = ''
let configHome = ''
let server: RunningServer | undefined
let context: BrowserContext | undefined
let page: Page
const pageErrors: string[] = []

test.describe.configure({ mode: 'serial' })

test.describe('browser mode: scheduled runs', () => {
  test.beforeAll(async ({ browser }) => {
    mkdirSync(screenshots, { recursive: true })
    workspace = mkdtempSync(join(tmpdir(), 'agent-teams-e2e-schedules-workspace-'))
    configHome = offlineConfigHome('schedules')
    server = await startServer({ workspace, configHome })
    page = await openWatchedPage(browser, pageErrors, { width: 1440, height: 900 })
    context = page.context()
  })

  test.afterAll(async () => {
    const code = await tearDown(context, server, [workspace, configHome])
    expect(code, 'the server exits cleanly on SIGTERM').toBe(0)
  })

  test('add a schedule, see its next run, run it now and see how it went', async () => {
    await openApp(page, server!.url)
    await page.getByRole('button', { name: 'Schedules…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Scheduled runs' })
    await expect(dialog).toContainText('No schedules yet.')

    await dialog.getByRole('button', { name: '+ New schedule' }).click()
    const form = dialog.getByRole('form', { name: 'New schedule' })
    await form.getByLabel('Name').fill('nightly')
    await form.getByLabel('Kind of time').selectOption('every')
    await form.getByLabel('When').fill('1d')
    await form.getByLabel('Prompt to the lead').fill('Sum up what the team did today.')
    // The offline model has no price: a token cap is what bounds its runs.
    await form.getByLabel('Cap in dollars').fill('')
    await form.getByLabel('Cap in tokens').fill('500000')
    await form.getByLabel('Due while a run works').selectOption('skip')
    await page.screenshot({ path: join(screenshots, 'schedules-00-form.png') })
    await form.getByRole('button', { name: 'Add schedule' }).click()
    await expect(dialog.getByRole('status')).toHaveText('Added the schedule nightly.')

    const item = dialog.getByTestId('schedule-nightly')
    await expect(item).toContainText('every 1d')
    await expect(item).toContainText('500,000 tokens a run')
    await expect(item).toContainText('if busy: skip')
    await expect(item.getByTestId('schedule-nightly-last')).toHaveText('never')
    // Kept in .team/schedules.json as the CLI keeps it.
    const file = JSON.parse(readFileSync(join(workspace, '.team', 'schedules.json'), 'utf8')) as {
      schedules: { name: string; caps: unknown }[]
    }
    expect(file.schedules).toEqual([
      expect.objectContaining({ name: 'nightly', caps: { usd: null, tokens: 500_000 } }),
    ])
    await page.screenshot({ path: join(screenshots, 'schedules-01-added.png') })

    await item.getByRole('button', { name: 'Run now' }).click()
    await expect(dialog.getByRole('status')).toHaveText(
      'Started nightly: its prompt went to the lead.',
    )
    await expect(item.getByTestId('schedule-nightly-last')).toContainText('finished', {
      timeout: TEAM_TIMEOUT,
    })
    await page.screenshot({ path: join(screenshots, 'schedules-02-ran.png') })

    await item.getByRole('button', { name: 'Turn off' }).click()
    await expect(item).toContainText('off')
    await item.getByRole('button', { name: 'Remove' }).click()
    await item.getByRole('button', { name: 'Remove nightly for good' }).click()
    await expect(dialog).toContainText('No schedules yet.')
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    // The run's prompt reached the lead as the person's own message.
    await expect(page.getByTestId('transcript')).toContainText('Sum up what the team did today.')
    expect(pageErrors).toEqual([])
  })
})
