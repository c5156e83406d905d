import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
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
 * The Settings' Reactions section in browser mode: the counts read from the team's
 * `.team/reactions.jsonl`, and a check command saved into `.team/reactions.json`.
 */

const screenshots = join(root, 'test-results/screenshots')

let workspace = ''
let configHome = ''
let server: RunningServer | undefined
let context: BrowserContext | undefined
let page: Page
const pageErrors: string[] = []

test.describe('browser mode: reactions in Settings', () => {
  test.beforeAll(async ({ browser }) => {
    mkdirSync(screenshots, { recursive: true })
    workspace = mkdtempSync(join(tmpdir(), 'agent-teams-e2e-reactions-workspace-'))
    mkdirSync(join(workspace, '.team'), { recursive: true })
    const line = (id: string, kind: string, extra: Record<string, unknown> = {}) =>
      JSON.stringify({
        v: 1,
        id,
        kind,
        at: 1_800_000_000,
        end: null,
        agent: 'alice',
        summary: kind,
        failed: false,
        ...extra,
      })
    writeFileSync(
      join(workspace, '.team', 'reactions.jsonl'),
      [
        line('r-1', 'nudge', { reason: 'silent' }),
        line('r-2', 'fold', { folded: 3 }),
        line('r-3', 'check', {
          end: 1_800_000_004,
          failed: true,
          command: 'npm test',
          commit: '3f2a1c9d0e5b',
          exit_code: 1,
          output_tail: 'FAIL',
        }),
        '',
      ].join('\n'),
    )
    configHome = offlineConfigHome('reactions', { demoSpeed: 'instant' })
    server = await startServer({ workspace, configHome, args: ['--trust-workspace'] })
    page = await openWatchedPage(browser, pageErrors, { width: 1280, height: 1000 })
    context = page.context()
  })

  test.afterAll(async () => {
    const code = await tearDown(context, server, [workspace, configHome])
    expect(code, 'the server exits cleanly on SIGTERM').toBe(0)
  })

  test('shows the counts and saves a check command', async () => {
    await openApp(page, server!.url)
    await page.getByRole('button', { name: 'Settings' }).click()
    const dialog = page.getByRole('dialog', { name: 'Settings' })
    const field = dialog.getByRole('group', { name: 'Reactions' })
    await expect(field.getByTestId('reaction-counts')).toHaveText(
      'So far: check 1 · nudge 1 · escalate 0 · conflict 0 · fold 1',
    )
    await field.getByLabel('Check command').fill('npm test')
    await field.getByRole('button', { name: 'Save reactions' }).click()
    await expect(field.getByText('Saved.')).toBeVisible()
    await field.scrollIntoViewIfNeeded()
    await field.screenshot({ path: join(screenshots, 'settings-reactions.png') })
    const saved = JSON.parse(readFileSync(join(workspace, '.team', 'reactions.json'), 'utf8'))
    expect(saved.check).toEqual({ command: 'npm test', timeout_seconds: 600 })
    await expect(field.getByRole('status')).toHaveText('They run while this team is open.')
    expect(pageErrors).toEqual([])
  })
})
