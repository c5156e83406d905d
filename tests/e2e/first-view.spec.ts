import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Browser, type Page } from '@playwright/test'
import {
  offlineConfigHome,
  root,
  startServer,
  tearDown,
  watchErrors,
  type RunningServer,
} from './serve'

/**
 * The first view (src/shared/first-view.ts): the server draws the team into the page it serves,
 * so a person sees the roster and the lead's latest reply before the page's script has run, and
 * the app then takes over without a second team, a splash or an error. Screenshots of the page
 * as drawn by the server, in both themes: test-results/screenshots/first-view-*.png.
 */

const shots = join(root, 'test-results/screenshots')
const MARKER = 'FIRST-VIEW-MARKER'
const MEMBERS = ['alice', 'bob', 'carol']

let workspace = ''
let configHome = ''
let server: RunningServer | undefined

function writeTeam(): void {
  const team = join(workspace, '.team')
  mkdirSync(join(team, 'transcripts'), { recursive: true })
  writeFileSync(
    join(team, 'config.json'),
    JSON.stringify({
      team_name: 'parsers',
      members: MEMBERS.map((name) => ({ name, role: `${name}'s part`, status: 'idle' })),
    }),
  )
  const at = Date.now() / 1000
  const records = [
    { v: 1, seq: 1, at, kind: 'user', from: 'user', text: 'How far is the parser?' },
    {
      v: 1,
      seq: 2,
      at: at + 1,
      kind: 'assistant',
      message_id: 'msg_first_view',
      model: 'offline',
      content: [{ type: 'text', text: `The parser is **done**; bob tests it next. ${MARKER}` }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 10, output_tokens: 5 },
    },
  ]
  writeFileSync(
    join(team, 'transcripts', 'lead.jsonl'),
    records.map((record) => `${JSON.stringify(record)}\n`).join(''),
  )
}

/** A page whose own script never loads: what the server drew is all there is. */
async function scriptlessPage(
  browser: Browser,
  colorScheme: 'light' | 'dark',
  chosenTheme?: string,
): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme })
  if (chosenTheme !== undefined)
    await context.addInitScript(
      (theme) => globalThis.localStorage.setItem('agent-teams.theme', theme),
      chosenTheme,
    )
  await context.route(/\/assets\/index-[^/]*\.js$/, (route) => route.abort())
  return context.newPage()
}

test.describe.configure({ mode: 'serial' })

test.describe('browser mode: the first view', () => {
  test.beforeAll(async () => {
    mkdirSync(shots, { recursive: true })
    workspace = mkdtempSync(join(tmpdir(), 'agent-teams-e2e-first-view-workspace-'))
    configHome = offlineConfigHome('first-view')
    writeTeam()
    // The person's own team, written as an earlier run would have left it: trusted for the run.
    server = await startServer({ workspace, configHome, args: ['--trust-workspace'] })
  })

  test.afterAll(async () => {
    expect(await tearDown(undefined, server, [workspace, configHome])).toBe(0)
  })

  for (const colorScheme of ['dark', 'light'] as const)
    test(`paints the team before the page's script runs (${colorScheme})`, async ({ browser }) => {
      const page = await scriptlessPage(browser, colorScheme)
      await page.goto(server!.url)
      const view = page.locator('#first-view')
      await expect(view).toBeVisible()
      for (const name of ['lead', ...MEMBERS])
        await expect(view.getByTestId(`roster-item-${name}`)).toBeVisible()
      await expect(view.getByText(MARKER)).toBeVisible()
      await expect(view.locator('strong', { hasText: 'done' })).toBeVisible()
      // Nothing in it can be used before the app is there to do it.
      await expect(view.getByLabel('Message the lead')).toBeDisabled()
      await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme)
      await page.screenshot({ path: join(shots, `first-view-${colorScheme}.png`) })
      await page.context().close()
    })

  test('keeps the theme the person chose for the window, against the system', async ({
    browser,
  }) => {
    const page = await scriptlessPage(browser, 'light', 'dark')
    await page.goto(server!.url)
    await expect(page.locator('#first-view')).toBeVisible()
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
    await page.context().close()
  })

  test('the app takes over: one team, usable, and no error', async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    const errors: string[] = []
    watchErrors(page, errors)
    await page.goto(server!.url)
    await expect(page.locator('#first-view')).toHaveCount(0)
    await expect(page.getByTestId('roster-item-alice')).toHaveCount(1)
    await expect(page.getByText(MARKER)).toHaveCount(1)
    const composer = page.getByLabel('Message the lead')
    await expect(composer).toBeEnabled()
    await composer.fill('typed once the app is there')
    await expect(composer).toHaveValue('typed once the app is there')
    expect(errors).toEqual([])
    await context.close()
  })

  test('a click on a roster row as soon as it shows opens that agent, after every reload', async ({
    browser,
  }) => {
    // Tall enough for every row: the click is a pointer's, which does not scroll to its row.
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } })
    const page = await context.newPage()
    const errors: string[] = []
    watchErrors(page, errors)
    // The app's chunk is held until the click is made: the click surely meets the first view,
    // not the app, however fast this machine runs it.
    let release = (): void => undefined
    await page.route(/\/assets\/start-[^/]*\.js$/, async (route) => {
      await new Promise<void>((resolve) => (release = resolve))
      await route.continue()
    })
    await page.goto(server!.url)
    for (const [round, name] of ['alice', 'bob', 'carol', 'alice', 'bob'].entries()) {
      // The lead's chat in the address, as the first view draws it: a reload opens on it.
      if (round > 0) {
        await page.evaluate("history.replaceState(null, '', '/#/lead/chat')")
        await page.reload()
      }
      const row = page.locator(`#first-view [data-testid="roster-item-${name}"] .roster-open`)
      await expect(row).toBeVisible()
      const box = await row.boundingBox()
      if (box === null) throw new Error(`no box for ${name}'s row`)
      // A pointer's click where the row is drawn: the first view takes no click itself.
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2)
      await expect(page.locator('#first-view')).toHaveCount(1)
      release()
      await expect(page.locator('#first-view')).toHaveCount(0)
      await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
      await expect(page.getByTestId(`roster-item-${name}`).locator('.roster-open')).toHaveAttribute(
        'aria-current',
        'true',
      )
    }
    expect(errors).toEqual([])
    await context.close()
  })

  test('a shortcut pressed while the first view is up is done once the app is there', async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    let release = (): void => undefined
    await page.route(/\/assets\/start-[^/]*\.js$/, async (route) => {
      await new Promise<void>((resolve) => (release = resolve))
      await route.continue()
    })
    await page.goto(server!.url)
    await expect(page.locator('#first-view')).toBeVisible()
    // Alt+3: the roster's third agent (the lead is the first).
    await page.keyboard.press('Alt+3')
    release()
    await expect(page.locator('#first-view')).toHaveCount(0)
    await expect(page.getByRole('heading', { level: 1, name: 'bob' })).toBeVisible()
    await context.close()
  })

  test("an address that opens another agent's tab hides the lead's chat until the app shows it", async ({
    browser,
  }) => {
    const page = await scriptlessPage(browser, 'dark')
    await page.goto(`${server!.url}#/alice/inbox`)
    await expect(page.locator('html')).toHaveClass(/first-view-elsewhere/)
    await expect(page.locator('#first-view')).toBeHidden()
    await page.context().close()

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const app = await context.newPage()
    const errors: string[] = []
    watchErrors(app, errors)
    await app.goto(`${server!.url}#/alice/inbox`)
    await expect(app.getByRole('tab', { name: /Inbox/ })).toHaveAttribute('aria-selected', 'true')
    await expect(app.getByRole('heading', { level: 1, name: 'alice' })).toBeVisible()
    await expect(app.locator('#first-view')).toHaveCount(0)
    expect(errors).toEqual([])
    await context.close()
  })
})
