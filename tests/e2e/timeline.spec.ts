import { execFileSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test, type BrowserContext, type Locator, type Page } from '@playwright/test'
import { DEMO_REQUEST } from '../../src/offline-model/scenarios/demo'
import {
  offlineConfigHome,
  openApp,
  openWatchedPage,
  root,
  startServer,
  statisticsRepository,
  tearDown,
  type RunningServer,
} from './serve'

/**
 * The Timeline view end to end, in browser mode on the offline model: the demo's scripted run
 * (the lead splits the request into two tasks, alice and bob finish them in their worktrees)
 * is opened in the Timeline; its lanes, entries and filters are checked; a click on a mark of
 * the canvas lands on the transcript record; the run is replayed, by the scrubber and by play,
 * and the replayed roster and board change as time moves; the "While you were away" digest
 * shows what happened since the last look, and nothing once dismissed. Photographed in both themes
 * (test-results/screenshots/timeline-*.png).
 */

const screenshots = join(root, 'test-results/screenshots')
const TEAM_TIMEOUT = 60_000

let workspace = ''
let configHome = ''
let server: RunningServer | undefined
let context: BrowserContext | undefined
let page: Page
const pageErrors: string[] = []

/** `agent-teams …` on the workspace, its standard output. */
function cliOut(...args: string[]): string {
  return execFileSync(
    process.execPath,
    [join(root, 'bin/agent-teams.mjs'), ...args, '--workspace', workspace],
    {
      encoding: 'utf8',
      env: { ...process.env, LC_ALL: 'C' },
    },
  )
}

const lane = (name: string): Locator => page.getByTestId(`timeline-lane-${name}`)
const count = (): Locator => page.getByTestId('timeline-count')
const replay = (): Locator => page.getByTestId('replay')
const scrubber = (): Locator => replay().getByRole('slider', { name: 'Moment of the replay' })
const replayColumn = (status: string): Locator => replay().getByTestId(`replay-column-${status}`)
const replayMember = (name: string): Locator => replay().getByTestId(`replay-member-${name}`)

/** "41 of 57 entries" → [41, 57]. */
async function counts(): Promise<[number, number]> {
  const text = (await count().textContent()) ?? ''
  const match = /(\d+) of (\d+) entries/.exec(text)
  if (match === null) throw new Error(`no count in "${text}"`)
  return [Number(match[1]), Number(match[2])]
}

async function shoot(name: string): Promise<void> {
  await page.screenshot({ path: join(screenshots, `timeline-${name}.png`) })
}

async function setTheme(theme: 'dark' | 'light'): Promise<void> {
  await page.getByRole('combobox', { name: 'Theme' }).selectOption(theme)
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
}

test.describe.configure({ mode: 'serial' })

test.describe('browser mode: the Timeline view and its replay', () => {
  test.beforeAll(async ({ browser }) => {
    mkdirSync(screenshots, { recursive: true })
    workspace = statisticsRepository('timeline')
    // Paced, so that the run lasts long enough for its replay to show it move.
    configHome = offlineConfigHome('timeline', { demoSpeed: 'normal' })
    server = await startServer({ workspace, configHome })
    page = await openWatchedPage(browser, pageErrors, { width: 1440, height: 900 })
    context = page.context()
  })

  test.afterAll(async () => {
    const code = await tearDown(context, server, [workspace, configHome])
    expect(code, 'the server exits cleanly on SIGTERM').toBe(0)
  })

  test('a scripted run: lanes, entries, filters, and a click that opens the record', async () => {
    test.setTimeout(3 * TEAM_TIMEOUT)
    await openApp(page, server!.url)
    const composer = page.getByLabel('Message the lead')
    await composer.fill(DEMO_REQUEST)
    await composer.press('Enter')
    await page.getByRole('tab', { name: 'Board' }).click()
    await expect(page.getByTestId('task-column-done').getByTestId('task-card-1')).toBeVisible({
      timeout: TEAM_TIMEOUT,
    })
    for (const name of ['lead', 'alice', 'bob'])
      await expect(page.getByTestId(`status-${name}`)).toContainText('Idle', {
        timeout: TEAM_TIMEOUT,
      })

    // Ctrl+Shift+L opens the Timeline: a lane per agent, the lead's first.
    await page.keyboard.press('Control+Shift+L')
    await expect(page.getByRole('tab', { name: 'Timeline' })).toHaveAttribute(
      'aria-selected',
      'true',
    )
    await expect(lane('lead')).toBeVisible()
    await expect(lane('alice')).toBeVisible()
    await expect(lane('bob')).toBeVisible()
    const lanes = page.getByRole('list', { name: 'Lanes' }).getByRole('listitem')
    await expect(lanes.first()).toHaveText('Lead')
    const [shown, total] = await counts()
    expect(shown).toBe(total)
    expect(total).toBeGreaterThan(20)
    // The run's kinds are in the legend, each with its count.
    for (const kind of ['Messages', 'Model turns', 'Tool calls', 'Tasks', 'Status changes'])
      await expect(page.getByRole('button', { name: new RegExp(`^${kind} \\d+`) })).toBeVisible()
    await page.getByText(/List of the entries in view/).click()
    await expect(page.getByTestId('timeline-row').first()).toBeVisible()
    await setTheme('dark')
    await shoot('01-run-dark')
    await setTheme('light')
    await shoot('02-run-light')
    await setTheme('dark')

    // Filters: a kind, then an agent; each comes back.
    const tools = page.getByRole('button', { name: /^Tool calls \d+/ })
    await tools.click()
    await expect(tools).toHaveAttribute('aria-pressed', 'false')
    const [withoutTools] = await counts()
    expect(withoutTools).toBeLessThan(total)
    await tools.click()
    await page
      .getByRole('group', { name: 'Agents shown' })
      .getByRole('button', { name: 'bob' })
      .click()
    await expect(lane('bob')).toHaveCount(0)
    const [withoutBob] = await counts()
    expect(withoutBob).toBeLessThan(total)
    await shoot('03-filtered')
    await page
      .getByRole('group', { name: 'Agents shown' })
      .getByRole('button', { name: 'bob' })
      .click()
    await expect(lane('bob')).toBeVisible()

    // The keyboard walks the canvas's marks: down to alice's lane, along it to a tool call.
    const canvas = page.getByTestId('timeline-canvas')
    const tooltip = page.getByTestId('timeline-tooltip')
    await canvas.focus()
    await page.keyboard.press('ArrowRight')
    await expect(tooltip).toBeVisible()
    for (let step = 0; step < 5 && !/· alice ·/.test((await tooltip.textContent()) ?? ''); step++)
      await page.keyboard.press('ArrowDown')
    await expect(tooltip).toContainText('· alice ·')
    await page.keyboard.press('Home')
    // Along alice's lane to a tool call whose mark the pointer finds too (marks of one instant
    // share a pixel: the pointer finds one of them, the keyboard each).
    const box = await canvas.boundingBox()
    let x = 0
    let y = 0
    for (let step = 0; step < 80; step++) {
      if (/^Tool calls/.test((await tooltip.textContent()) ?? '')) {
        x = Number(await tooltip.getAttribute('data-x'))
        y = Number(await tooltip.getAttribute('data-y'))
        await page.mouse.move((box?.x ?? 0) + x, (box?.y ?? 0) + y)
        if (/^Tool calls · alice/.test((await tooltip.textContent()) ?? '')) break
        await canvas.focus()
      }
      await page.keyboard.press('ArrowRight')
    }
    await expect(tooltip).toContainText(/^Tool calls · alice/)
    await shoot('04-tooltip')
    const summary = (await tooltip.locator('.timeline-tooltip-summary').textContent()) ?? ''

    // A click on that mark opens alice's transcript at the record, marked.
    await canvas.click({ position: { x, y } })
    await expect(page.getByRole('tab', { name: 'Transcript' })).toHaveAttribute(
      'aria-selected',
      'true',
    )
    await expect(page.getByRole('heading', { name: 'alice', exact: true })).toBeVisible()
    const revealed = page.locator('[data-revealed="true"]')
    await expect(revealed).toBeVisible({ timeout: TEAM_TIMEOUT })
    expect(summary.length).toBeGreaterThan(0)
    await shoot('05-opened-record')
    expect(pageErrors).toEqual([])
  })

  test('replay: the roster and the board as they were, scrubbed and played', async () => {
    await page.getByRole('tab', { name: 'Timeline' }).click()
    await page.getByRole('button', { name: 'Replay' }).click()
    await expect(replay()).toContainText('Replay of the past')

    // At the run's start nobody had a status and the board was empty.
    await scrubber().fill('0')
    await expect(replayMember('alice')).toContainText('not started')
    await expect(replay().getByTestId(/^replay-task-/)).toHaveCount(0)
    // At its end: both tasks made, the first done, everyone idle.
    await scrubber().fill('1000')
    await expect(replayColumn('done')).toContainText('#1')
    await expect(replayMember('alice')).toContainText('Idle')
    await expect(replayMember('lead')).toContainText('Idle')
    await shoot('06-replay-end')
    // Back to the middle: some of the work was under way.
    await scrubber().fill('0')
    await expect(replayColumn('done')).not.toContainText('#1')

    // Played at 2×: the moment moves, alice is seen at work, and the board fills as it goes.
    await replay().getByRole('combobox', { name: 'Speed' }).selectOption('2')
    const before = await replay().getByTestId('replay-time').textContent()
    await replay().getByRole('button', { name: 'Play', exact: true }).click()
    await expect(replay().getByRole('button', { name: 'Pause', exact: true })).toBeVisible()
    await expect(replay().getByTestId('replay-time')).not.toHaveText(before ?? '', {
      timeout: 10_000,
    })
    await expect(
      replay()
        .getByTestId(/^replay-task-/)
        .first(),
    ).toBeVisible({ timeout: 30_000 })
    await expect(replayMember('alice')).toContainText('Working', { timeout: 30_000 })
    await shoot('07-replay-playing')
    await expect(replayColumn('done')).toContainText('#1', { timeout: 60_000 })
    await expect(replay().getByRole('button', { name: 'Play', exact: true })).toBeVisible({
      timeout: 60_000,
    })
    await setTheme('light')
    await shoot('08-replay-light')
    await setTheme('dark')
    // The smallest window the app supports: the panes stack, nothing reaches past the window.
    await page.setViewportSize({ width: 1024, height: 640 })
    await shoot('10-replay-narrow')
    expect(
      await page.evaluate(
        '(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)()',
      ),
    ).toBe(true)
    await page.setViewportSize({ width: 1440, height: 900 })
    await replay().getByRole('button', { name: 'Exit replay' }).click()
    await expect(replay()).toHaveCount(0)
    expect(pageErrors).toEqual([])
  })

  test('"While you were away": what happened since the last look, and not once dismissed', async () => {
    // The person leaves; meanwhile alice finishes a task (through the command line). Back a
    // moment later, no digest interrupts (it opens by itself only after 15 minutes away), and
    // the Timeline view's button shows what happened since the last look.
    await page.goto('about:blank')
    const task = cliOut('tasks', 'add', 'Tidy the README', '--as', 'lead').trim()
    cliOut('tasks', 'claim', task, '--as', 'alice')
    cliOut('tasks', 'done', task, '--as', 'alice', '--result', 'tidied')
    await openApp(page, server!.url)
    const digest = page.getByTestId('away-digest')
    await page.keyboard.press('Control+Shift+L')
    await expect(page.getByRole('button', { name: 'While you were away' })).toBeVisible({
      timeout: TEAM_TIMEOUT,
    })
    await expect(digest).toHaveCount(0)
    await page.getByRole('button', { name: 'While you were away' }).click()
    await expect(digest).toBeVisible({ timeout: TEAM_TIMEOUT })
    await expect(digest.getByTestId('away-digest-finished')).toContainText('alice')
    await expect(digest.getByTestId('away-digest-finished')).toContainText(`#${task}`)
    await shoot('09-digest')
    await digest.getByRole('button', { name: 'Dismiss' }).click()
    await expect(digest).toHaveCount(0)

    // The look is recorded: after a reload, the digest (asked for from the Timeline view, after
    // the one asked at opening) has nothing new, and the one at opening stayed hidden.
    await openApp(page, server!.url)
    await page.keyboard.press('Control+Shift+L')
    await page.getByRole('button', { name: 'While you were away' }).click()
    await expect(digest).toBeVisible()
    await expect(digest.getByTestId('away-digest-finished')).toContainText('Nothing.')
    await expect(digest.getByTestId('away-digest-failed')).toContainText('Nothing.')
    await digest.getByRole('button', { name: 'Dismiss' }).click()
    await expect(digest).toHaveCount(0)
    expect(pageErrors).toEqual([])
  })
})
