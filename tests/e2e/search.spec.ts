import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
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
  watchErrors,
  type RunningServer,
} from './serve'

/**
 * Search across the team, end to end: the real `agent-teams serve` on a workspace whose
 * teammate has a 10,000-record transcript, driven through Chromium. A word said early in that
 * transcript is found with Ctrl+Shift+F and opened: the transcript reads back to it and scrolls
 * it into view. The address keeps the agent and tab, so a reload and a second tab show the same.
 */

const NEEDLE = 'quetzal'
const NEEDLE_SEQ = 28
const RECORDS = 10_000
const shots = join(root, 'test-results/screenshots')
const START = Date.UTC(2026, 0, 1) / 1000

let workspace = ''
let configHome = ''
let server: RunningServer | undefined
let context: BrowserContext | undefined
let page: Page
const pageErrors: string[] = []

/** Alice's long transcript: tasks, tool calls and results, then a final answer (she is idle). */
function transcriptLines(): string {
  const lines: string[] = []
  for (let seq = 1; seq <= RECORDS; seq++) {
    const base = { v: 1, seq, at: START + seq * 60 }
    const cycle = Math.floor((seq - 1) / 3)
    const needle = seq === NEEDLE_SEQ ? ` Remember the ${NEEDLE} protocol.` : ''
    let record: Record<string, unknown>
    if (seq === RECORDS)
      record = {
        ...base,
        kind: 'assistant',
        message_id: `msg_${seq}`,
        model: 'offline-demo',
        content: [{ type: 'text', text: 'All modules are checked.' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 10, output_tokens: 5 },
      }
    else if ((seq - 1) % 3 === 0)
      record = {
        ...base,
        kind: 'user',
        from: 'lead',
        text: `Task ${cycle}: check module ${cycle}.${needle}`,
      }
    else if ((seq - 1) % 3 === 1)
      record = {
        ...base,
        kind: 'assistant',
        message_id: `msg_${seq}`,
        model: 'offline-demo',
        content: [
          { type: 'text', text: `Reading module ${cycle}.${needle}` },
          {
            type: 'tool_use',
            id: `toolu_${cycle}`,
            name: 'read_file',
            input: { path: `m${cycle}.ts` },
          },
        ],
        stop_reason: 'tool_use',
        usage: { input_tokens: 10, output_tokens: 5 },
      }
    else
      record = {
        ...base,
        kind: 'tool-result',
        tool_use_id: `toolu_${cycle}`,
        name: 'read_file',
        content: `export const value${cycle} = ${cycle}${needle}`,
        is_error: false,
      }
    lines.push(`${JSON.stringify(record)}\n`)
  }
  return lines.join('')
}

function writeTeam(): void {
  const team = join(workspace, '.team')
  mkdirSync(join(team, 'transcripts'), { recursive: true })
  writeFileSync(
    join(team, 'config.json'),
    JSON.stringify({
      team_name: 'history',
      members: [
        { name: 'alice', role: 'coder', status: 'idle' },
        { name: 'bob', role: 'tester', status: 'idle' },
      ],
    }),
  )
  writeFileSync(join(team, 'transcripts', 'alice.jsonl'), transcriptLines())
}

test.describe.configure({ mode: 'serial' })

test.describe('search across the team', () => {
  test.beforeAll(async ({ browser }) => {
    workspace = mkdtempSync(join(tmpdir(), 'agent-teams-e2e-search-workspace-'))
    configHome = offlineConfigHome('search')
    writeTeam()
    // The person's own team, written as an earlier run would have left it: trusted for the run.
    server = await startServer({ workspace, configHome, args: ['--trust-workspace'] })
    page = await openWatchedPage(browser, pageErrors, { width: 1280, height: 800 })
    context = page.context()
  })

  test.afterAll(async () => {
    const code = await tearDown(context, server, [workspace, configHome])
    expect(code, 'the server exits cleanly on SIGTERM').toBe(0)
  })

  test('finds a word from an old part of a 10,000-record transcript and scrolls to it', async () => {
    await openApp(page, server!.url)
    await expect(page.getByRole('complementary', { name: 'Team' })).toBeVisible()
    await page.keyboard.press('Control+Shift+F')
    const panel = page.getByTestId('search-panel')
    await expect(panel).toBeVisible()
    await page.getByLabel('Text to find').fill(NEEDLE)
    const group = panel.getByTestId('search-group-alice')
    await expect(group).toContainText('alice · 1')
    await expect(group.locator('mark').first()).toHaveText(NEEDLE)
    mkdirSync(shots, { recursive: true })
    await page.screenshot({ path: join(shots, 'search-panel.png') })

    await group.getByTestId('search-hit').filter({ hasText: 'Task' }).click()
    await expect(panel).toBeHidden()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('alice')
    const revealed = page.getByTestId('transcript').locator('[data-revealed="true"]')
    await expect(revealed).toContainText(`Remember the ${NEEDLE} protocol.`)
    await expect(revealed).toBeInViewport()
    await page.screenshot({ path: join(shots, 'search-revealed.png') })
    expect(pageErrors).toEqual([])
  })

  test('the address keeps the agent and tab, for a reload and a second tab', async () => {
    await expect(page).toHaveURL(/#\/alice\/chat$/)
    await page.reload()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('alice')
    await expect(page.getByRole('tab', { name: 'Transcript' })).toHaveAttribute(
      'aria-selected',
      'true',
    )

    await page.getByRole('tab', { name: /^Inbox/ }).click()
    await expect(page).toHaveURL(/#\/alice\/inbox$/)
    const second = await context!.newPage()
    watchErrors(second, pageErrors)
    await openApp(second, page.url())
    await expect(second.getByRole('heading', { level: 1 })).toHaveText('alice')
    await expect(second.getByRole('tab', { name: /^Inbox/ })).toHaveAttribute(
      'aria-selected',
      'true',
    )
    await expect(second.locator('.inbox-path')).toHaveText('.team/inbox/alice.jsonl')
    await second.close()
    expect(pageErrors).toEqual([])
  })
})
