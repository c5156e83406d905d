import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
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
 * The window at a laptop's size with a large team, end to end in browser mode on the offline
 * model: the compact roster shows twenty teammates and the lead without scrolling, names whole,
 * and its filter narrows the list; a double click on Stop stops a busy teammate and never shuts
 * it down; and every view and the main dialogs are photographed in both themes
 * (test-results/screenshots/views-*.png), each checked for content that overflows the window.
 */

const shots = join(root, 'test-results/screenshots')
/** Generous: the machine is shared, and the offline teammate's turn goes through the real SDK. */
const TEAM_TIMEOUT = 30_000

const ROLES = ['frontend-and-accessibility-engineer', 'tester', 'reviewer', 'docs writer']
/** Twenty teammates; one with a long name, so that "whole" means something. */
const MEMBERS = [
  'ada',
  'bea',
  'cyd',
  'dov',
  'eli',
  'fay',
  'gus',
  'hal',
  'ivy',
  'jon',
  'kai',
  'lea',
  'max',
  'ned',
  'oda',
  'pim',
  'quinn-the-integration-tester',
  'rex',
  'sam',
  'tia',
]
const testers = MEMBERS.filter((_, index) => ROLES[index % ROLES.length] === 'tester')

let workspace = ''
let configHome = ''
let server: RunningServer | undefined
let context: BrowserContext | undefined
let page: Page
const pageErrors: string[] = []

function writeTeam(): void {
  const team = join(workspace, '.team')
  mkdirSync(team, { recursive: true })
  writeFileSync(
    join(team, 'config.json'),
    JSON.stringify({
      team_name: 'large',
      members: MEMBERS.map((name, index) => ({
        name,
        role: ROLES[index % ROLES.length],
        status: 'idle',
      })),
    }),
  )
}

const roster = (): Locator => page.getByRole('complementary', { name: 'Team' })
const item = (name: string): Locator => page.getByTestId(`roster-item-${name}`)

/** What the checks below read of the page (the e2e tsconfig has no DOM library). */
interface PageDom {
  readonly document: {
    readonly documentElement: { readonly clientWidth: number; readonly scrollWidth: number }
    querySelectorAll(selector: string): Iterable<{
      readonly className: string
      readonly tagName: string
      getBoundingClientRect(): {
        readonly left: number
        readonly right: number
        readonly width: number
      }
    }>
    elementFromPoint(x: number, y: number): { readonly textContent: string | null } | null
  }
}

/** Whether any element is wider than the window (a clipped line, a table that pushes out). */
async function overflowsWindow(target: Page): Promise<string[]> {
  return target.evaluate(() => {
    const { document } = globalThis as unknown as PageDom
    const width = document.documentElement.clientWidth
    const wide: string[] = []
    if (document.documentElement.scrollWidth > width) wide.push('the page scrolls sideways')
    for (const element of document.querySelectorAll('dialog, [role="dialog"], .main, .roster')) {
      const box = element.getBoundingClientRect()
      if (box.width > 0 && (box.right > width + 1 || box.left < -1))
        wide.push(`${element.className || element.tagName} reaches past the window`)
    }
    return wide
  })
}

async function shoot(name: string): Promise<void> {
  await page.screenshot({ path: join(shots, `views-${name}.png`) })
  expect(await overflowsWindow(page), `views-${name}.png`).toEqual([])
}

async function openTab(name: RegExp | string): Promise<void> {
  const tab = page.getByRole('tab', { name })
  await tab.click()
  await expect(tab).toHaveAttribute('aria-selected', 'true')
}

/** Opens a dialog with a click, photographs it, and closes it with Escape. */
async function shootDialog(open: () => Promise<void>, name: string): Promise<void> {
  await open()
  const dialog = page.getByRole('dialog')
  await expect(dialog).toBeVisible()
  await shoot(name)
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
}

test.describe.configure({ mode: 'serial' })

test.describe('browser mode: views at 1280×800 with a team of twenty', () => {
  test.beforeAll(async ({ browser }) => {
    mkdirSync(shots, { recursive: true })
    workspace = mkdtempSync(join(tmpdir(), 'agent-teams-e2e-views-workspace-'))
    configHome = offlineConfigHome('views', { demoSpeed: 'instant' })
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

  test('the compact roster shows all twenty-one agents whole, and the filter narrows it', async () => {
    await openApp(page, server!.url)
    await expect(item('tia')).toBeVisible({ timeout: TEAM_TIMEOUT })
    await page.getByRole('combobox', { name: 'Theme' }).selectOption('dark')
    // Auto: a team this large is compact by itself.
    await expect(roster()).toHaveClass(/roster-compact/)
    await expect(page.getByRole('combobox', { name: 'Roster layout' })).toHaveValue('auto')

    const list = roster().getByRole('list')
    const fits = await list.evaluate((element) => element.scrollHeight <= element.clientHeight)
    expect(fits, 'the roster list does not scroll').toBe(true)
    for (const name of ['lead', ...MEMBERS]) {
      await expect(item(name)).toBeInViewport({ ratio: 1 })
      const shown = item(name).locator('.roster-name')
      await expect(shown).toHaveText(name)
      // Whole: nothing of the name is cut or hidden by its box.
      const whole = await shown.evaluate(
        (element) =>
          element.scrollWidth <= element.clientWidth &&
          element.getBoundingClientRect().right <=
            (element.closest('.roster-item')?.getBoundingClientRect().right ?? 0),
      )
      expect(whole, `${name} is shown whole`).toBe(true)
    }
    await shoot('roster-compact-dark')

    const filter = page.getByRole('searchbox', { name: 'Filter the team by name, role or status' })
    await filter.fill('tester')
    // The role "tester" and quinn, whose name says it too.
    const expected = [...new Set([...testers, 'quinn-the-integration-tester'])]
    await expect(roster().getByTestId(/^roster-item-/)).toHaveCount(expected.length)
    for (const name of expected) await expect(item(name)).toBeVisible()
    await expect(item('ada')).toHaveCount(0)
    await shoot('roster-filtered-dark')
    await filter.press('Escape')
    await expect(filter).toHaveValue('')
    await expect(roster().getByTestId(/^roster-item-/)).toHaveCount(MEMBERS.length + 1)

    // The choice is remembered across a reload.
    await page.getByRole('combobox', { name: 'Roster layout' }).selectOption('normal')
    await expect(roster()).not.toHaveClass(/roster-compact/)
    await shoot('roster-normal-dark')
    await page.reload()
    await expect(item('tia')).toBeAttached({ timeout: TEAM_TIMEOUT })
    await expect(roster()).not.toHaveClass(/roster-compact/)
    await page.getByRole('combobox', { name: 'Roster layout' }).selectOption('auto')
    await expect(roster()).toHaveClass(/roster-compact/)
    expect(pageErrors).toEqual([])
  })

  test('a double click on Stop stops a busy teammate and never shuts it down', async () => {
    await item('ada')
      .getByRole('button', { name: /^Open ada/ })
      .click()
    await openTab(/^Inbox/)
    const composer = page.getByLabel(/^Message ada/)
    await composer.fill('Please run `sleep 60` now.')
    await composer.press('Enter')
    await expect(page.getByTestId('status-ada')).toHaveAttribute('data-status', 'working', {
      timeout: TEAM_TIMEOUT,
    })

    const stop = item('ada').getByRole('button', { name: 'Stop', exact: true })
    const shutDown = item('ada').getByRole('button', { name: 'Shut down…' })
    await expect(stop).toBeEnabled()
    const stopBox = (await stop.boundingBox())!
    const shutDownBefore = (await shutDown.boundingBox())!
    const x = stopBox.x + stopBox.width / 2
    const y = stopBox.y + stopBox.height / 2
    await page.mouse.dblclick(x, y)

    await expect(page.getByTestId('status-ada')).not.toHaveAttribute('data-status', 'working', {
      timeout: TEAM_TIMEOUT,
    })
    await expect(page.getByTestId('status-ada')).not.toHaveAttribute('data-status', 'shutdown')
    // Nothing asked to shut it down: no confirmation opened, no request went out.
    await expect(page.getByRole('dialog')).toHaveCount(0)
    await expect(item('ada')).not.toContainText('Shutdown requested')
    // Stop kept its place, and Shut down… never moved under the cursor.
    const under = await page.evaluate(
      ([px, py]) =>
        (globalThis as unknown as PageDom).document.elementFromPoint(px!, py!)?.textContent ?? '',
      [x, y],
    )
    expect(under).toBe('Stop')
    expect(await shutDown.boundingBox()).toEqual(shutDownBefore)
    await expect(stop).toBeDisabled()
    const config = JSON.parse(readFileSync(join(workspace, '.team/config.json'), 'utf8')) as {
      members: { name: string; status: string }[]
    }
    expect(config.members.find((member) => member.name === 'ada')?.status).not.toBe('shutdown')
    await shoot('stopped-dark')

    // Shutting down asks first.
    await shutDown.click()
    const dialog = page.getByRole('dialog', { name: 'Shut down ada?' })
    await expect(dialog).toBeVisible()
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(dialog).toBeHidden()
    await expect(page.getByTestId('status-ada')).not.toHaveAttribute('data-status', 'shutdown')
    expect(pageErrors).toEqual([])
  })

  for (const theme of ['dark', 'light'] as const) {
    test(`every view and the main dialogs in the ${theme} theme`, async () => {
      await page.getByRole('combobox', { name: 'Theme' }).selectOption(theme)
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme)

      await item('lead')
        .getByRole('button', { name: /^Open lead/ })
        .click()
      await openTab('Chat')
      if (theme === 'dark') {
        const composer = page.getByLabel('Message the lead')
        await composer.fill('What is the team doing?')
        await composer.press('Enter')
        // The turn is answered: its spend shows under it.
        await expect(page.getByTestId('turn-spend').first()).toBeVisible({ timeout: TEAM_TIMEOUT })
      }
      await shoot(`chat-${theme}`)
      await openTab(/^Inbox/)
      await shoot(`inbox-lead-${theme}`)

      await item('ada')
        .getByRole('button', { name: /^Open ada/ })
        .click()
      await openTab('Transcript')
      await shoot(`transcript-${theme}`)
      await openTab(/^Inbox/)
      await shoot(`inbox-${theme}`)
      await openTab('Changes')
      await shoot(`changes-${theme}`)
      await openTab('Activity')
      await shoot(`activity-${theme}`)
      await openTab('Board')
      await shoot(`board-${theme}`)
      await openTab(/^Needs you/)
      await shoot(`needs-you-${theme}`)

      await page.keyboard.press('Control+Shift+F')
      const panel = page.getByTestId('search-panel')
      await expect(panel).toBeVisible()
      await page.getByLabel('Text to find').fill('sleep')
      await expect(panel.getByTestId('search-group-ada')).toBeVisible()
      await shoot(`search-${theme}`)
      await page.keyboard.press('Escape')
      await expect(panel).toBeHidden()

      // The team's view again, ada open: her roster row carries her actions.
      await item('ada')
        .getByRole('button', { name: /^Open ada/ })
        .click()
      const header = page.getByRole('navigation', { name: 'Application' })
      const actions = item('ada')
      await shootDialog(
        () => header.getByRole('button', { name: 'Settings' }).click(),
        `settings-${theme}`,
      )
      await shootDialog(() => header.getByRole('button', { name: 'Help' }).click(), `help-${theme}`)
      await shootDialog(
        () => header.getByRole('button', { name: 'Open folder' }).click(),
        `open-folder-${theme}`,
      )
      await shootDialog(
        () => roster().getByRole('button', { name: '+ Spawn teammate' }).click(),
        `spawn-${theme}`,
      )
      await shootDialog(
        () => roster().getByRole('button', { name: 'Templates…' }).click(),
        `templates-${theme}`,
      )
      await shootDialog(
        () => roster().getByRole('button', { name: /^MCP/ }).click(),
        `mcp-${theme}`,
      )
      await shootDialog(() => page.getByTestId('team-spend').click(), `budget-${theme}`)
      await shootDialog(
        () => actions.getByRole('button', { name: 'Model…' }).click(),
        `model-${theme}`,
      )
      await shootDialog(
        () => actions.getByRole('button', { name: 'Profile…' }).click(),
        `profile-${theme}`,
      )
      await shootDialog(
        () => actions.getByRole('button', { name: 'Shut down…' }).click(),
        `shutdown-${theme}`,
      )
      await shootDialog(
        () => actions.getByRole('button', { name: 'Remove…' }).click(),
        `remove-${theme}`,
      )
      expect(pageErrors).toEqual([])
    })
  }

  test('at 1024×640, the smallest window the app supports, every view stays inside it', async () => {
    await page.setViewportSize({ width: 1024, height: 640 })
    try {
      await item('lead')
        .getByRole('button', { name: /^Open lead/ })
        .click()
      await openTab('Chat')
      await shoot('narrow-chat')
      await item('ada')
        .getByRole('button', { name: /^Open ada/ })
        .click()
      for (const [tab, name] of [
        ['Transcript', 'transcript'],
        [/^Inbox/, 'inbox'],
        ['Changes', 'changes'],
        ['Activity', 'activity'],
        ['Board', 'board'],
        [/^Needs you/, 'needs-you'],
      ] as const) {
        await openTab(tab)
        await shoot(`narrow-${name}`)
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 })
    }
    expect(pageErrors).toEqual([])
  })
})
