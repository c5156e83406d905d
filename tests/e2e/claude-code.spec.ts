import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type BrowserContext, type Page } from '@playwright/test'
import { locateClaudeCode } from '../../src/runtime/engines/claude-code/availability'
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
 * A Claude Code teammate, spawned from the dialog in browser mode against the offline model
 * (which plays Claude Code's side by its tool names): the dialog says what the engine needs and
 * costs, the roster shows the engine, its command waits in Needs-you (ask mode) and runs once
 * approved, and its transcript shows the command with the bash card.
 */

const screenshots = join(root, 'test-results/screenshots')
const TEAM_TIMEOUT = 60_000
const found = locateClaudeCode()
const missing = 'problem' in found ? found.problem : null

let workspace = ''
let configHome = ''
let server: RunningServer | undefined
let context: BrowserContext | undefined
let page: Page
const pageErrors: string[] = []

test.describe.configure({ mode: 'serial' })

test.describe('browser mode: a Claude Code teammate', () => {
  test.skip(missing !== null, `Claude Code is not installed here: ${missing}`)

  test.beforeAll(async ({ browser }) => {
    mkdirSync(screenshots, { recursive: true })
    workspace = mkdtempSync(join(tmpdir(), 'agent-teams-e2e-claude-code-workspace-'))
    configHome = offlineConfigHome('claude-code', { demoSpeed: 'instant' })
    server = await startServer({ workspace, configHome })
    page = await openWatchedPage(browser, pageErrors, { width: 1440, height: 900 })
    context = page.context()
  })

  test.afterAll(async () => {
    const code = await tearDown(context, server, [workspace, configHome])
    expect(code, 'the server exits cleanly on SIGTERM').toBe(0)
  })

  test('is spawned from the dialog, asks through Needs-you, and shows its work', async () => {
    await openApp(page, server!.url)
    await page.getByRole('button', { name: 'Spawn teammate' }).click()
    const dialog = page.getByRole('dialog', { name: 'Spawn a teammate' })
    await dialog.getByLabel('Name', { exact: true }).fill('cody')
    await dialog.getByLabel('Role', { exact: true }).fill('tester')
    await dialog.getByLabel('Engine', { exact: true }).selectOption('claude-code')
    await expect(dialog).toContainText('OS sandbox')
    await dialog.getByLabel('Approvals', { exact: true }).selectOption('ask')
    await dialog
      .getByLabel('First prompt', { exact: true })
      .fill('Please run `echo ran >> cody-ran.txt` in the workspace.')
    await page.screenshot({ path: join(screenshots, 'claude-code-01-spawn-dialog.png') })
    await dialog.getByRole('button', { name: 'Spawn', exact: true }).click()
    await expect(dialog).toBeHidden()

    const row = page.getByTestId('roster-item-cody')
    await expect(row).toContainText('Claude Code')
    await expect(page.getByTestId('status-cody')).toContainText('Waiting for you', {
      timeout: TEAM_TIMEOUT,
    })
    const effect = join(workspace, 'cody-ran.txt')
    expect(existsSync(effect), 'nothing ran before the approval').toBe(false)
    await page.getByTestId('needs-you-count').click()
    const queue = page.getByRole('listbox', { name: /^Needs you/ })
    await expect(queue.getByRole('option').nth(0)).toContainText('echo ran >> cody-ran.txt')
    await page.screenshot({ path: join(screenshots, 'claude-code-02-needs-you.png') })
    await page.keyboard.press('a')
    await expect.poll(() => existsSync(effect), { timeout: TEAM_TIMEOUT }).toBe(true)
    await expect(page.getByTestId('status-cody')).toContainText('Idle', { timeout: TEAM_TIMEOUT })
    expect(readFileSync(effect, 'utf8')).toBe('ran\n')

    await page.keyboard.press('Escape')
    await row.click()
    await expect(page.getByText('echo ran >> cody-ran.txt').first()).toBeVisible()
    await page.screenshot({ path: join(screenshots, 'claude-code-03-transcript.png') })
    expect(pageErrors).toEqual([])
  })
})
