import { randomUUID } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type BrowserContext, type Page } from '@playwright/test'
import { findProcess } from '../helpers/proc'
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
 * A folder with a `.mcp.json` and an `AGENTS.md`, opened in browser mode: the window asks to
 * trust its MCP server, the server starts (the real MCP SDK over stdio), the lead calls its
 * tool through the offline model, and the transcript shows the call and the result.
 */

const screenshots = join(root, 'test-results/screenshots')
const TEAM_TIMEOUT = 30_000
const STDIO_SERVER = join(root, 'tests/fixtures/mcp/stdio-server.mjs')
const MARKER = `--marker=${randomUUID()}`

let workspace = ''
let configHome = ''
let server: RunningServer | undefined
let context: BrowserContext | undefined
let page: Page
const pageErrors: string[] = []

test.describe.configure({ mode: 'serial' })

test.describe('browser mode: a workspace’s MCP servers', () => {
  test.beforeAll(async ({ browser }) => {
    mkdirSync(screenshots, { recursive: true })
    workspace = mkdtempSync(join(tmpdir(), 'agent-teams-e2e-mcp-workspace-'))
    configHome = offlineConfigHome('mcp')
    writeFileSync(
      join(workspace, '.mcp.json'),
      JSON.stringify({
        mcpServers: { notes: { command: process.execPath, args: [STDIO_SERVER, MARKER] } },
      }),
    )
    writeFileSync(join(workspace, 'AGENTS.md'), '# Notes project\n\nUse the notes server.\n')
    server = await startServer({ workspace, configHome })
    page = await openWatchedPage(browser, pageErrors, { width: 1440, height: 900 })
    context = page.context()
  })

  test.afterAll(async () => {
    const code = await tearDown(context, server, [workspace, configHome])
    expect(code, 'the server exits cleanly on SIGTERM').toBe(0)
    // The MCP server went with the team: no process is left behind.
    expect(findProcess(MARKER)).toBeNull()
  })

  test('the window asks for trust; the lead uses the server’s tool; the transcript shows it', async () => {
    // Without a terminal and without --trust-workspace, serve says why the servers are off.
    expect(server!.output()).toContain('answer in the window')
    expect(findProcess(MARKER)).toBeNull()

    await openApp(page, server!.url)
    const trust = page.getByRole('dialog', { name: 'Trust this folder’s MCP servers?' })
    await expect(trust).toBeVisible()
    await expect(trust).toContainText('notes')
    await expect(trust).toContainText(STDIO_SERVER)
    await page.screenshot({ path: join(screenshots, 'mcp-01-trust.png') })
    await trust.getByRole('button', { name: 'Trust and start' }).click()
    await expect(trust).toBeHidden()
    await expect(page.getByRole('button', { name: 'MCP 1/1' })).toBeVisible({
      timeout: TEAM_TIMEOUT,
    })
    // Remembered in the user's config folder, for this folder and this content of the file.
    const remembered = JSON.parse(
      readFileSync(join(configHome, 'agent-teams', 'mcp-trust.json'), 'utf8'),
    ) as { workspaces: Record<string, unknown> }
    expect(Object.keys(remembered.workspaces)).toEqual([workspace])

    const composer = page.getByLabel('Message the lead')
    await composer.fill('Use mcp__notes__echo with {"text": "hello from the browser"}')
    await composer.press('Enter')
    const transcript = page.getByTestId('transcript')
    // The card shows the tool as "echo" from "notes"; its full name is the card's data-tool.
    const card = transcript.locator('[data-testid="tool-card"][data-tool="mcp__notes__echo"]')
    await expect(card).toHaveCount(1, { timeout: TEAM_TIMEOUT })
    await expect(card).toHaveClass(/tool-done/, { timeout: TEAM_TIMEOUT })
    await card.getByRole('button').first().click()
    await expect(card).toContainText('hello from the browser')
    await expect(card).toContainText('echo: hello from the browser')
    await expect(transcript).toContainText('Done: echo: hello from the browser', {
      timeout: TEAM_TIMEOUT,
    })
    await page.screenshot({ path: join(screenshots, 'mcp-02-tool-call.png') })

    // The servers dialog: its state, its tools and the tail of its stderr.
    await page.getByRole('button', { name: 'MCP 1/1' }).click()
    const dialog = page.getByRole('dialog', { name: 'MCP servers' })
    await expect(dialog).toContainText('Running')
    await expect(dialog).toContainText('Tools: echo, fail, hang, picture, pid, token, leak, crash')
    await expect(dialog.getByLabel('notes stderr')).toContainText('notes-server: started as')
    await page.screenshot({ path: join(screenshots, 'mcp-03-servers.png') })
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    expect(pageErrors).toEqual([])
  })
})
