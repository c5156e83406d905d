import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type BrowserContext, type Locator, type Page } from '@playwright/test'
import { WebSocket } from 'ws'
import { NAME_RULE } from '../../src/shared/names'
import { openApp, root, startServer, type RunningServer } from './serve'

/**
 * A newcomer's first use of browser mode, end to end: the real `agent-teams serve` (the real
 * runtime, the real offline model server over HTTP, the built UI) driven through Debian's
 * Chromium. The steps run in order on one page and one workspace; each builds on the last.
 */

const screenshots = join(root, 'test-results/screenshots')
/** Generous waits for what the team does; never a fixed sleep. */
const TEAM_TIMEOUT = 20_000

/** Texts the checks look for: alice's message to bob, the person's broadcast, the external line. */
const ALICE_TO_BOB = 'Hello bob, this is alice.'
const BROADCAST = 'Team update: the build is green, carry on.'
const EXTERNAL = 'Written by another program straight into the inbox file.'
/** Mail to the lead in Markdown: the offline lead quotes it in its reply, rendered. */
const MARKDOWN_MAIL = [
  'Coverage report:',
  '',
  '| file | lines |',
  '| --- | ---: |',
  '| stats.mjs | 94% |',
  '',
  '```js',
  'const median = (values) => values.sort()[values.length >> 1]',
  '```',
].join('\n')
/** The page's own functions, typed here: this spec compiles without the DOM library. */
interface PageGlobals {
  getComputedStyle(element: unknown): { color: string; gridTemplateColumns: string }
  requestAnimationFrame(callback: () => void): number
}

let workspace = ''
let configHome = ''
let server: RunningServer | undefined
let context: BrowserContext | undefined
let page: Page
/** Set when a step fails: the folders are then kept for a look, and their paths printed. */
let failed = false
/** Uncaught errors and console errors of the page; every step ends with none. */
const pageErrors: string[] = []
/** Ports of servers the test stopped: the page's reconnection attempts to them fail, rightly. */
const stoppedPorts = new Set<number>()
/** Ports whose server came back with a new token: the page's old token is refused, rightly. */
const expiredPorts = new Set<number>()

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: join(screenshots, `browser-${name}.png`) })
}

const rosterItem = (name: string): Locator => page.getByTestId(`roster-item-${name}`)
const status = (name: string): Locator => page.getByTestId(`status-${name}`)
const transcript = (): Locator => page.getByTestId('transcript')
const inboxEntry = (text: string): Locator =>
  page.getByTestId('inbox-entry').filter({ hasText: text })

/** Opens an agent's transcript (the lead's chat) from the roster. */
async function openConversation(name: string): Promise<void> {
  await rosterItem(name)
    .getByRole('button', { name: new RegExp(`^Open ${name} `) })
    .click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name === 'lead' ? 'Lead' : name)
  await expect(page.getByRole('tab', { name: /^(Chat|Transcript)$/ })).toHaveAttribute(
    'aria-selected',
    'true',
  )
}

/** Opens an agent's inbox with the roster's Message action. */
async function openInbox(name: string): Promise<void> {
  await rosterItem(name).getByRole('button', { name: 'Message', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name === 'lead' ? 'Lead' : name)
  await expect(page.getByRole('tab', { name: /^Inbox/ })).toHaveAttribute('aria-selected', 'true')
  await expect(page.locator('.inbox-path')).toHaveText(`.team/inbox/${name}.jsonl`)
}

/** No error banner anywhere: failures must be visible, and there should be none. */
async function expectNoErrors(): Promise<void> {
  await expect(page.locator('.banner-error, .notification-error')).toHaveCount(0)
  await expect(page.locator('.inline-error')).toHaveCount(0)
}

/**
 * From now on, every status the roster shows, per agent, as the page renders it: a status that
 * lasts a single frame is caught too, which a poll from the test could miss.
 */
async function recordStatuses(): Promise<void> {
  await page.evaluate(() => {
    interface Element {
      getAttribute(name: string): string | null
    }
    const page = globalThis as unknown as {
      document: { body: unknown; querySelectorAll(selector: string): Iterable<Element> }
      MutationObserver: new (callback: () => void) => {
        observe(target: unknown, options: Record<string, unknown>): void
      }
      statusLog?: Record<string, string[]>
    }
    const log: Record<string, string[]> = {}
    page.statusLog = log
    const sample = (): void => {
      for (const badge of page.document.querySelectorAll('.roster [data-testid^="status-"]')) {
        const name = badge.getAttribute('data-testid')?.slice('status-'.length) ?? ''
        const status = badge.getAttribute('data-status') ?? ''
        const seen = (log[name] ??= [])
        if (seen[seen.length - 1] !== status) seen.push(status)
      }
    }
    sample()
    new page.MutationObserver(sample).observe(page.document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-status'],
    })
  })
}

/** The statuses `name` went through since recordStatuses(), in order, repeats folded. */
function statusesOf(name: string): Promise<string[]> {
  return page.evaluate(
    (agent) => (globalThis as { statusLog?: Record<string, string[]> }).statusLog?.[agent] ?? [],
    name,
  )
}

async function start(): Promise<RunningServer> {
  server = await startServer({ workspace, configHome })
  return server
}

/** An HTTP GET with headers of our choosing (fetch will not let the test set Host). */
function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path, headers }, (response) => {
      response.resume()
      response.once('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers }),
      )
    })
    request.once('error', reject)
    request.end()
  })
}

/** Tries a WebSocket upgrade; 'open' or the HTTP status the server refused it with. */
function tryUpgrade(
  url: string,
  options: { origin?: string; headers?: Record<string, string> },
): Promise<number | 'open'> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, options)
    socket.once('open', () => {
      socket.close()
      resolve('open')
    })
    socket.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0)
      response.resume()
      socket.terminate()
    })
    socket.once('error', (error) => {
      if (socket.readyState !== WebSocket.CLOSED) reject(error)
    })
  })
}

test.describe.configure({ mode: 'serial' })

test.describe('browser mode: a newcomer’s first use', () => {
  test.beforeAll(async ({ browser }) => {
    mkdirSync(screenshots, { recursive: true })
    // This run's screenshots only (the Electron spec's stay).
    for (const file of readdirSync(screenshots))
      if (file.startsWith('browser-')) rmSync(join(screenshots, file))
    workspace = mkdtempSync(join(tmpdir(), 'agent-teams-e2e-browser-workspace-'))
    configHome = mkdtempSync(join(tmpdir(), 'agent-teams-e2e-browser-config-'))
    // The window's offline model is slow by default so a newcomer can follow the demo; these
    // steps check what happens, not the pace, so they run it at full speed.
    mkdirSync(join(configHome, 'agent-teams'), { recursive: true })
    writeFileSync(
      join(configHome, 'agent-teams', 'settings.json'),
      `${JSON.stringify({ demoSpeed: 'instant' })}\n`,
    )
    await start()
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    page = await context.newPage()
    page.on('pageerror', (error) => pageErrors.push(`uncaught: ${error.message}`))
    page.on('console', (message) => {
      // A failed load is reported by the response listener below, with its address.
      if (message.type() !== 'error') return
      const text = message.text()
      if (text.startsWith('Failed to load resource')) return
      const refused =
        /^WebSocket connection to 'ws:\/\/127\.0\.0\.1:(\d+)\/ws.*ERR_CONNECTION_REFUSED/
      if (stoppedPorts.has(Number(refused.exec(text)?.[1]))) return
      const expired =
        /^WebSocket connection to 'ws:\/\/127\.0\.0\.1:(\d+)\/ws.*(\b401\b|HTTP Authentication failed)/
      if (expiredPorts.has(Number(expired.exec(text)?.[1]))) return
      pageErrors.push(`console: ${text}`)
    })
    page.on('response', (response) => {
      // The page has no icon: Chromium asks for /favicon.ico by itself and gets a 404.
      const { pathname, port } = new URL(response.url())
      // The page asks its socket's address over HTTP to learn whether its token is refused.
      if (response.status() === 401 && pathname === '/ws' && expiredPorts.has(Number(port))) return
      if (response.status() >= 400 && pathname !== '/favicon.ico')
        pageErrors.push(`HTTP ${response.status()} for ${pathname}`)
    })
  })

  // eslint-disable-next-line no-empty-pattern -- Playwright wants the fixtures destructured
  test.afterEach(async ({}, testInfo) => {
    if (testInfo.status === testInfo.expectedStatus) {
      failed ||= pageErrors.length > 0
      expect(pageErrors, 'errors in the page').toEqual([])
      return
    }
    failed = true
    if (server)
      await testInfo.attach('server output', { body: server.output(), contentType: 'text/plain' })
  })

  // Playwright's own trace (retain-on-failure) covers this context too.
  test.afterAll(async () => {
    await context?.close()
    const code = await server?.stop()
    server = undefined
    if (failed) {
      console.log(`[browser.spec] kept for a look: workspace ${workspace}, config ${configHome}`)
    } else {
      rmSync(workspace, { recursive: true, force: true })
      rmSync(configHome, { recursive: true, force: true })
    }
    expect(code, 'the server exits cleanly on SIGTERM').toBe(0)
  })

  test('1. first run: the choices, then the offline model in Settings, with the workspace open', async () => {
    await openApp(page, server!.url)
    await expect(page).toHaveTitle(/Agent Teams/)
    await expect(page.getByRole('heading', { name: 'Welcome to Agent Teams' })).toBeVisible()
    // The token left the address bar (and the history); a reload works from the cookie.
    // (The view the window shows is kept in the hash: `#/lead/chat`.)
    await expect(page).toHaveURL(
      new RegExp(`^${server!.origin.replaceAll('.', '\\.')}/(#/[a-z0-9/_-]*)?$`),
    )
    await page.reload()
    await expect(page.getByRole('heading', { name: 'Welcome to Agent Teams' })).toBeVisible()
    // Without a key: a clear choice between entering one and the offline demo.
    await expect(page.getByRole('heading', { name: /Enter an API key/ })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Enter an API key' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Run the offline demo' })).toBeVisible()
    // The folder given with --workspace is already open.
    await expect(page.locator('.current-folder')).toContainText(workspace)
    await shot('01-first-run')

    await page.getByRole('button', { name: 'Enter an API key' }).click()
    const settings = page.getByRole('dialog', { name: 'Settings' })
    await expect(settings).toBeVisible()
    await expect(settings.getByText('No API key is set.')).toBeVisible()
    const offline = settings.getByRole('checkbox', { name: /Use the offline model/ })
    await expect(offline).not.toBeChecked()
    await offline.check()
    await shot('02-settings')
    await settings.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(settings).toBeHidden()

    // A model and an open folder: straight into the team, the lead alone in the roster.
    await expect(rosterItem('lead')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Offline model' })).toBeVisible()
    await expect(page.getByText('No teammates yet.')).toBeVisible()
    await expect(page.getByLabel('Message the lead')).toBeVisible()
    const saved = JSON.parse(
      readFileSync(join(configHome, 'agent-teams/settings.json'), 'utf8'),
    ) as { useOfflineModel?: boolean; apiKey?: unknown }
    expect(saved.useOfflineModel).toBe(true)
    expect(saved.apiKey).toBeUndefined()
    await expectNoErrors()
  })

  test('2. spawn alice (coder) and bob (tester) by clicking; a bad name shows the rule first', async () => {
    await page.getByRole('button', { name: 'Spawn teammate' }).click()
    let dialog = page.getByRole('dialog', { name: 'Spawn a teammate' })
    await expect(dialog).toBeVisible()
    const name = dialog.getByLabel('Name', { exact: true })
    await expect(name).toBeFocused()
    await expect(dialog.getByText(`Rule: ${NAME_RULE}`)).toBeVisible()

    // Validated as it is typed, before anything is submitted.
    await name.fill('Bob!')
    await expect(name).toHaveAttribute('aria-invalid', 'true')
    const rule = dialog.getByRole('alert')
    await expect(rule).toContainText('"Bob!" must start with a lowercase letter')
    await expect(rule).toContainText(NAME_RULE)
    await shot('03-spawn-dialog-invalid-name')
    await name.fill('alice')
    await expect(name).toHaveAttribute('aria-invalid', 'false')
    await expect(dialog.getByRole('alert')).toHaveCount(0)
    await dialog.getByLabel('Role', { exact: true }).fill('coder')
    await dialog.getByLabel('First prompt', { exact: true }).fill('Wait for the lead to ask you.')
    await expect(dialog.getByLabel('Model', { exact: true })).toBeVisible()
    await shot('04-spawn-dialog-alice')
    await dialog.getByLabel('First prompt', { exact: true }).press('Enter')
    await expect(dialog).toBeHidden()
    await expect(rosterItem('alice')).toBeVisible()
    await expect(rosterItem('alice')).toContainText('coder')

    await page.getByRole('button', { name: 'Spawn teammate' }).click()
    dialog = page.getByRole('dialog', { name: 'Spawn a teammate' })
    await dialog.getByLabel('Name', { exact: true }).fill('bob')
    await dialog.getByLabel('Role', { exact: true }).fill('tester')
    await dialog.getByLabel('First prompt', { exact: true }).fill('Wait for a message.')
    await dialog.getByLabel('Role', { exact: true }).press('Enter')
    await expect(dialog).toBeHidden()
    await expect(rosterItem('bob')).toBeVisible()
    await expect(rosterItem('bob')).toContainText('tester')
    await expect(page.getByText('2 teammates')).toBeVisible()

    // Both start on their first prompt and settle idle.
    await expect(status('alice')).toHaveAttribute('data-status', 'idle', { timeout: TEAM_TIMEOUT })
    await expect(status('bob')).toHaveAttribute('data-status', 'idle', { timeout: TEAM_TIMEOUT })
    await expect(status('alice')).toHaveText('Idle')
    // The roster on disk is s09's config.json.
    const config = JSON.parse(readFileSync(join(workspace, '.team/config.json'), 'utf8')) as {
      members: { name: string; role: string }[]
    }
    expect(config.members.map(({ name: member, role }) => [member, role])).toEqual(
      expect.arrayContaining([
        ['alice', 'coder'],
        ['bob', 'tester'],
      ]),
    )
    await expectNoErrors()
  })

  test('3. the lead has alice message bob: chat, transcripts, and bob’s inbox as delivered', async () => {
    await openConversation('lead')
    await recordStatuses()
    const composer = page.getByLabel('Message the lead')
    await composer.fill('Have alice send bob a message')
    await composer.press('Enter')
    await expect(composer).toHaveValue('')

    // The lead's chat: the person's message, the reply, and the send_message tool card.
    await expect(transcript()).toContainText('Have alice send bob a message')
    await expect(transcript()).toContainText("I'll ask alice to message bob.", {
      timeout: TEAM_TIMEOUT,
    })
    const leadCard = transcript().getByTestId('tool-card').filter({ hasText: 'send_message' })
    await expect(leadCard).toHaveCount(1, { timeout: TEAM_TIMEOUT })
    await expect(leadCard).toContainText('→ alice: Please send bob a message')
    await expect(leadCard).toHaveClass(/tool-done/, { timeout: TEAM_TIMEOUT })
    await expect(transcript()).toContainText('Done:', { timeout: TEAM_TIMEOUT })
    // A card opens to show the message it sent; Raw shows its input and output as they are.
    await leadCard.getByRole('button').first().click()
    await expect(leadCard.locator('.tool-message')).toContainText('To alice')
    await expect(leadCard.locator('.tool-message')).toContainText('Please send bob a message')
    await leadCard.getByRole('button', { name: 'Raw' }).click()
    await expect(leadCard.getByText('Input', { exact: true })).toBeVisible()
    await expect(leadCard.getByText('Output', { exact: true })).toBeVisible()
    await leadCard.getByRole('button', { name: 'Raw' }).click()
    await expect(status('lead')).toHaveAttribute('data-status', 'idle', { timeout: TEAM_TIMEOUT })
    await shot('05-lead-chat')

    // alice's transcript: the lead's request injected from her inbox, then her send_message.
    await openConversation('alice')
    await expect(transcript()).toContainText('Please send bob a message', {
      timeout: TEAM_TIMEOUT,
    })
    await expect(transcript()).toContainText('Messaging bob.', { timeout: TEAM_TIMEOUT })
    const aliceCard = transcript().getByTestId('tool-card').filter({ hasText: 'send_message' })
    await expect(aliceCard).toContainText(`→ bob: ${ALICE_TO_BOB}`, { timeout: TEAM_TIMEOUT })
    await expect(aliceCard).toHaveClass(/tool-done/, { timeout: TEAM_TIMEOUT })
    await shot('06-transcript-alice')

    // bob's inbox: alice's message, from alice, delivered once bob has read it.
    await openInbox('bob')
    const message = inboxEntry(ALICE_TO_BOB)
    await expect(message).toHaveCount(1, { timeout: TEAM_TIMEOUT })
    await expect(message.locator('.inbox-from')).toHaveText('alice')
    await expect(message).toHaveAttribute('data-state', 'delivered', { timeout: TEAM_TIMEOUT })
    await expect(status('bob')).toHaveAttribute('data-status', 'idle', { timeout: TEAM_TIMEOUT })
    await expect(page.getByTestId('unread-bob')).toHaveCount(0)
    await shot('07-inbox-bob')

    // bob read it: his transcript shows it injected, and his answer.
    await openConversation('bob')
    await expect(transcript()).toContainText(ALICE_TO_BOB, { timeout: TEAM_TIMEOUT })
    await expect(transcript()).toContainText('bob here: noted', { timeout: TEAM_TIMEOUT })

    // The activity panes: the whole team at once.
    await page.getByRole('tab', { name: 'Activity' }).click()
    for (const name of ['lead', 'alice', 'bob']) {
      await expect(page.getByTestId(`activity-pane-${name}`)).toBeVisible()
      await expect(page.getByTestId(`status-${name}-pane`)).toHaveAttribute('data-status', 'idle')
    }
    await expect(page.getByTestId('activity-pane-alice')).toContainText('send_message')
    await expect(page.getByTestId('activity-pane-alice')).toContainText('Done.')
    await shot('08-activity-panes')

    // Idle, then idle again, and nothing but working in between (no error, no pause). A turn
    // on the offline model may start and end within one event batch (one frame; longer on a
    // busy machine), so "working" itself is not always painted; that each one worked is
    // proved by the transcripts above, and a status held at working by views.spec.ts.
    for (const name of ['lead', 'alice', 'bob']) {
      const seen = await statusesOf(name)
      expect(seen[0], `${name}'s statuses`).toBe('idle')
      expect(seen.at(-1), `${name}'s statuses`).toBe('idle')
      expect(seen.filter((state) => state !== 'idle' && state !== 'working')).toEqual([])
    }
    await expectNoErrors()
  })

  test('4. a broadcast from an inbox view reaches alice and bob', async () => {
    await openInbox('bob')
    const composer = page.getByLabel('Message bob')
    await composer.fill(BROADCAST)
    await page.getByRole('button', { name: 'Broadcast to team' }).click()
    // It asks first, then says how many agents the broadcast reached.
    await page
      .getByRole('dialog', { name: 'Broadcast to the team?' })
      .getByRole('button', { name: 'Broadcast', exact: true })
      .click()
    await expect(composer).toHaveValue('')
    await expect(page.getByRole('status').filter({ hasText: 'Broadcast sent to' })).toHaveText(
      /Broadcast sent to \d+ agents\./,
    )

    const inBob = inboxEntry(BROADCAST)
    await expect(inBob).toHaveCount(1, { timeout: TEAM_TIMEOUT })
    await expect(inBob.locator('.inbox-from')).toHaveText('You')
    await expect(inBob.locator('.type-chip')).toHaveText('broadcast')
    await expect(inBob).toHaveAttribute('data-state', 'delivered', { timeout: TEAM_TIMEOUT })
    await shot('09-broadcast-inbox-bob')

    await openInbox('alice')
    const inAlice = inboxEntry(BROADCAST)
    await expect(inAlice).toHaveCount(1, { timeout: TEAM_TIMEOUT })
    await expect(inAlice.locator('.type-chip')).toHaveText('broadcast')
    await expect(inAlice).toHaveAttribute('data-state', 'delivered', { timeout: TEAM_TIMEOUT })
    await expect(status('alice')).toHaveAttribute('data-status', 'idle', { timeout: TEAM_TIMEOUT })
    await expect(status('bob')).toHaveAttribute('data-status', 'idle', { timeout: TEAM_TIMEOUT })
    await expectNoErrors()
  })

  test('5. bob is shut down from the roster', async () => {
    await rosterItem('bob').getByRole('button', { name: 'Shut down…', exact: true }).click()
    // It asks first: a shutdown is never one stray click away.
    const confirm = page.getByRole('dialog', { name: 'Shut down bob?' })
    await confirm.getByRole('button', { name: 'Shut down bob', exact: true }).click()
    await expect(confirm).toHaveCount(0)
    await expect(status('bob')).toHaveAttribute('data-status', 'shutdown', {
      timeout: TEAM_TIMEOUT,
    })
    await expect(status('bob')).toHaveText('Shut down')
    // Shut down, he can be spawned again, not shut down twice.
    await expect(
      rosterItem('bob').getByRole('button', { name: 'Shut down…', exact: true }),
    ).toHaveCount(0)
    await expect(
      rosterItem('bob').getByRole('button', { name: 'Re-spawn', exact: true }),
    ).toBeVisible()
    await expect(status('alice')).toHaveAttribute('data-status', 'idle')
    await openConversation('bob')
    await expect(transcript()).toContainText('Shutting down as asked.', { timeout: TEAM_TIMEOUT })
    await shot('10-bob-shut-down')
    await expectNoErrors()
  })

  test('6. a line appended to alice’s inbox file by another program shows up and wakes her', async () => {
    await openInbox('alice')
    await expect(status('alice')).toHaveAttribute('data-status', 'idle')
    const file = join(workspace, '.team/inbox/alice.jsonl')
    expect(existsSync(file)).toBe(true)
    await recordStatuses()
    // Only s09's four fields, as another tool (or a shell `echo >>`) would write it.
    const line = { type: 'message', from: 'ops', content: EXTERNAL, timestamp: Date.now() / 1000 }
    appendFileSync(file, `${JSON.stringify(line)}\n`)

    const entry = inboxEntry(EXTERNAL)
    await expect(entry).toHaveCount(1, { timeout: 5_000 })
    await expect(entry.locator('.inbox-from')).toHaveText('ops')
    await expect(entry).toHaveAttribute('data-state', 'delivered', { timeout: TEAM_TIMEOUT })
    await shot('11-external-append-inbox-alice')

    // She woke by herself, read it and answered; then she is idle again.
    await openConversation('alice')
    await expect(transcript()).toContainText(`alice here: noted "${EXTERNAL}" from ops`, {
      timeout: TEAM_TIMEOUT,
    })
    await expect(status('alice')).toHaveAttribute('data-status', 'idle', { timeout: TEAM_TIMEOUT })
    // Working, then idle again, and nothing else (no error, no pause). Her short turn on the
    // offline model may start and end within one event batch (one frame), so "working" itself
    // is not always painted; that she answered is proved by the transcript above.
    const seen = await statusesOf('alice')
    expect(seen[0]).toBe('idle')
    expect(seen.at(-1)).toBe('idle')
    expect(seen.filter((state) => state !== 'idle' && state !== 'working')).toEqual([])
    await expectNoErrors()
  })

  test('7. the server stops cleanly on SIGTERM', async () => {
    const before = server!
    // Before the stop: the page's socket closes, and its first reconnect can be refused, before
    // stop() has returned.
    stoppedPorts.add(before.port)
    expect(await before.stop()).toBe(0)
    expect(before.output()).not.toContain('failed')
    // It let go of the workspace: another process may open the team now.
    expect(existsSync(join(workspace, '.team/runtime.lock'))).toBe(false)
  })

  test('8. the open page, with its server gone, says so', async () => {
    const banner = page
      .getByRole('status')
      .filter({ hasText: /connection to the team was lost|Not connected/ })
    await expect(banner).toBeVisible({ timeout: 10_000 })
    await shot('12-server-gone')
  })

  test('9. after a restart of the server the team, its transcripts and inboxes are back', async () => {
    const before = server!
    expect(before.child.exitCode).toBe(0)
    const after = await start()
    expect(after.token).not.toBe(before.token)

    await openApp(page, after.url)
    // Settings kept the offline model and the folder is open: no first run this time.
    await expect(rosterItem('lead')).toBeVisible({ timeout: TEAM_TIMEOUT })
    await expect(rosterItem('alice')).toContainText('coder')
    await expect(rosterItem('bob')).toContainText('tester')
    await expect(status('bob')).toHaveAttribute('data-status', 'shutdown')
    await expect(status('alice')).toHaveAttribute('data-status', 'idle')

    // The lead's chat, alice's transcript and bob's inbox, as they were.
    await openConversation('lead')
    await expect(transcript()).toContainText("I'll ask alice to message bob.")
    await openConversation('alice')
    const aliceCard = transcript().getByTestId('tool-card').filter({ hasText: 'send_message' })
    await expect(aliceCard).toContainText(`→ bob: ${ALICE_TO_BOB}`, { timeout: TEAM_TIMEOUT })
    await expect(transcript()).toContainText(`noted "${EXTERNAL}" from ops`)
    await shot('13-after-restart-transcript-alice')
    await openInbox('bob')
    await expect(inboxEntry(ALICE_TO_BOB)).toHaveAttribute('data-state', 'delivered', {
      timeout: TEAM_TIMEOUT,
    })
    await expect(inboxEntry(BROADCAST)).toHaveAttribute('data-state', 'delivered')
    await shot('14-after-restart-inbox-bob')
    await expectNoErrors()
  })

  test('10. a wrong token, a foreign Origin and a wrong Host are refused', async () => {
    const { port, token, origin, url } = server!
    const socket = `ws://127.0.0.1:${port}/ws?token=${encodeURIComponent(token)}`

    // The page itself: with the token, and not without it.
    const page200 = await fetch(url)
    expect(page200.status).toBe(200)
    expect(page200.headers.get('access-control-allow-origin')).toBeNull()
    expect((await fetch(`${origin}/?token=not-the-token`)).status).toBe(401)
    expect((await fetch(`${origin}/`)).status).toBe(401)
    expect((await fetch(`${origin}/index.html`)).status).toBe(401)
    // A wrong token is refused even beside a good cookie.
    const cookie = `agent_teams_${port}=${encodeURIComponent(token)}`
    expect((await get(port, '/', { cookie })).status).toBe(200)
    expect((await get(port, '/?token=wrong', { cookie })).status).toBe(401)

    // Host must name this server, even with the right token (DNS rebinding).
    const withToken = `/?token=${encodeURIComponent(token)}`
    expect((await get(port, withToken)).status).toBe(200)
    expect((await get(port, withToken, { host: `evil.example:${port}` })).status).toBe(421)
    expect((await get(port, withToken, { host: `127.0.0.1:${port + 1}` })).status).toBe(421)

    // The WebSocket: the page's own Origin gets in; a foreign one, a wrong token or Host do not.
    expect(await tryUpgrade(socket, { origin })).toBe('open')
    expect(await tryUpgrade(socket, { origin: 'http://evil.example' })).toBe(403)
    expect(await tryUpgrade(socket, {})).toBe(403)
    expect(await tryUpgrade(`ws://127.0.0.1:${port}/ws?token=not-the-token`, { origin })).toBe(401)
    expect(await tryUpgrade(`ws://127.0.0.1:${port}/ws`, { origin })).toBe(401)
    expect(await tryUpgrade(socket, { origin, headers: { host: `evil.example:${port}` } })).toBe(
      421,
    )

    // The page in the browser still works after all that.
    await expect(rosterItem('alice')).toBeVisible()
    await expectNoErrors()
  })

  test('11. the help panel lists the shortcuts', async () => {
    await page.getByRole('button', { name: 'Help', exact: true }).click()
    const help = page.getByRole('dialog', { name: 'Help' })
    await expect(help).toBeVisible()
    await expect(help.getByRole('heading', { name: 'Keyboard shortcuts' })).toBeVisible()
    await shot('15-help')
    await page.keyboard.press('Escape')
    await expect(help).toBeHidden()
  })

  test('12. a long role never cuts the teammate’s name', async () => {
    const role = 'integration and release engineering for the whole build pipeline'
    await page.getByRole('button', { name: 'Spawn teammate' }).click()
    const dialog = page.getByRole('dialog', { name: 'Spawn a teammate' })
    await dialog.getByLabel('Name', { exact: true }).fill('frank')
    await dialog.getByLabel('Role', { exact: true }).fill(role)
    await dialog.getByLabel('First prompt', { exact: true }).fill('Wait for a message.')
    await dialog.getByLabel('First prompt', { exact: true }).press('Enter')
    await expect(dialog).toBeHidden()
    await expect(status('frank')).toHaveAttribute('data-status', 'idle', { timeout: TEAM_TIMEOUT })
    const name = rosterItem('frank').locator('.roster-name')
    await expect(name).toHaveText('frank')
    // The name's whole text fits its box; the role is the one cut, and its title holds it all.
    const fits = await name.evaluate((element) => element.scrollWidth <= element.clientWidth)
    expect(fits).toBe(true)
    const roleText = rosterItem('frank').locator('.roster-role')
    await expect(roleText).toHaveAttribute('title', role)
    expect(await roleText.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(
      true,
    )
    await shot('16-long-role')
    await expectNoErrors()
  })

  test('13. Markdown tables and highlighted code render; tool cards, in both themes', async () => {
    await page.setViewportSize({ width: 1280, height: 800 })
    const file = join(workspace, '.team/inbox/lead.jsonl')
    const line = {
      type: 'message',
      from: 'alice',
      content: MARKDOWN_MAIL,
      timestamp: Date.now() / 1000,
    }
    appendFileSync(file, `${JSON.stringify(line)}\n`)
    await openConversation('lead')
    // The lead's reply quoting this mail (an earlier step's news has no table).
    const reply = transcript()
      .locator('.turn-assistant')
      .filter({ hasText: 'News from the team', has: page.locator('.markdown table') })
    await expect(reply).toHaveCount(1, { timeout: TEAM_TIMEOUT })
    const table = reply.locator('.markdown table')
    await expect(table.getByRole('columnheader')).toHaveText(['file', 'lines'])
    await expect(table.getByRole('cell')).toHaveText(['stats.mjs', '94%'])
    const code = reply.locator('pre code.language-js')
    await expect(code).toContainText('const median')
    await expect(code.locator('.hljs-keyword').first()).toHaveText('const')
    // Highlighted in colour, from the stylesheet (no inline style: the CSP allows none).
    const keywordColour = await code
      .locator('.hljs-keyword')
      .first()
      .evaluate((element) => (globalThis as unknown as PageGlobals).getComputedStyle(element).color)
    const plainColour = await code.evaluate(
      (element) => (globalThis as unknown as PageGlobals).getComputedStyle(element).color,
    )
    expect(keywordColour).not.toBe(plainColour)

    // The send_message card opens where it is: the view does not jump as it grows.
    await page.keyboard.press('End')
    const card = transcript().getByTestId('tool-card').filter({ hasText: 'send_message' })
    const header = card.getByRole('button').first()
    if ((await header.getAttribute('aria-expanded')) === 'true') await header.click()
    // Where the click lands (Playwright scrolls a target into view before it clicks).
    await header.scrollIntoViewIfNeeded()
    const before = await card.boundingBox()
    await header.click()
    await expect(card.locator('.tool-message')).toBeVisible()
    await page.evaluate(
      () =>
        new Promise((done) => {
          const page = globalThis as unknown as PageGlobals
          page.requestAnimationFrame(() => page.requestAnimationFrame(() => done(null)))
        }),
    )
    const after = await card.boundingBox()
    expect(after?.y).toBe(before?.y)

    const theme = page.getByRole('combobox', { name: 'Theme' })
    for (const choice of ['dark', 'light'] as const) {
      await theme.selectOption(choice)
      await expect(page.locator('html')).toHaveAttribute('data-theme', choice)
      await openConversation('lead')
      await shot(`18-transcript-${choice}`)
      await page.getByRole('tab', { name: 'Activity' }).click()
      await expect(page.getByTestId('activity-pane-alice')).toBeVisible()
      await shot(`19-activity-${choice}`)
    }
    // Twelve panes fit 1280×800 without scrolling: four columns, three rows of the minimum height.
    const grid = page.locator('.activity-grid')
    const fit = await grid.evaluate((element) => ({
      columns: (globalThis as unknown as PageGlobals)
        .getComputedStyle(element)
        .gridTemplateColumns.split(' ').length,
      height: element.clientHeight,
    }))
    expect(fit.columns).toBeGreaterThanOrEqual(4)
    expect(fit.height).toBeGreaterThanOrEqual(3 * 150 + 2 * 8 + 2 * 8)
    await theme.selectOption('system')
    await expect(page.getByTestId('activity-pane-lead')).toContainText('News from the team')
    await expectNoErrors()
  })

  test('14. a server restarted with a new token: the open page says its address is no longer valid', async () => {
    const before = server!
    // Before the stop: the page's socket closes, and its first reconnect can be refused, before
    // stop() has returned.
    stoppedPorts.add(before.port)
    expect(await before.stop()).toBe(0)
    expiredPorts.add(before.port)
    // The same port, a new token: the page's cookie and address no longer open it.
    server = await startServer({ workspace, configHome, port: before.port })
    expect(server.token).not.toBe(before.token)
    await expect(
      page.getByRole('heading', { level: 1, name: 'This address is no longer valid' }),
    ).toBeVisible({ timeout: TEAM_TIMEOUT })
    await expect(page.getByTestId('expired-address')).toContainText('agent-teams serve')
    // Nothing of the stale team is left to click.
    await expect(page.getByRole('button')).toHaveCount(0)
    await shot('17-expired-address')

    // The new address works.
    await openApp(page, server.url)
    await expect(rosterItem('frank')).toBeVisible({ timeout: TEAM_TIMEOUT })
  })
})
