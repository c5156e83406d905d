import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { _electron, expect, test, type ElectronApplication, type Page } from '@playwright/test'
import type { AgentTeamsApi } from '../../src/shared/contract'
import { commandNames } from '../../src/shared/ipc-channels'

/**
 * The desktop app as the README's quick start has a newcomer meet it, in Electron itself: no
 * workspace given, so the first-run screen; the offline demo started from it; the roster with
 * the teammates the lead spawned; a chat turn with the lead; then quit, which stops the team and
 * releases its folder. Run it under `xvfb-run` on a machine without a display (`npm test` does).
 * Where the Electron binary is not installed (it cannot be downloaded on some machines), the
 * spec skips itself and says why.
 */

const root = resolve(import.meta.dirname, '../..')
const mainScript = join(root, 'out/main/index.js')
const screenshots = join(root, 'test-results/screenshots')

/**
 * The binary that `require('electron')` would return, found without requiring it: from
 * electron ≥ 42 that require downloads a missing binary, which fails offline.
 */
function electronBinary(): string | undefined {
  const packageDir = join(root, 'node_modules/electron')
  const pathFile = join(packageDir, 'path.txt')
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : 'electron'
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH
  const binary = override ? join(override, relative) : join(packageDir, 'dist', relative)
  return existsSync(binary) ? binary : undefined
}

function skipReason(binary: string | undefined): string | undefined {
  if (binary === undefined) {
    return 'The Electron binary is not installed here (it cannot be downloaded on this machine); this spec runs where it is.'
  }
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return 'There is no display: run this spec under xvfb-run (xvfb-run npx playwright test tests/e2e/electron.spec.ts).'
  }
  return undefined
}

/** The preload's API inside the page; `globalThis` because this file is compiled without DOM. */
type PageGlobals = { agentTeams?: AgentTeamsApi; require?: unknown; process?: unknown }

const binary = electronBinary()
const reason = skipReason(binary)
if (reason !== undefined) console.log(`[electron.spec] skipped: ${reason}`)

/** How long the offline demo team may take to finish its work. */
const TEAM_TIMEOUT = 30_000

test.describe('the desktop app', () => {
  test.skip(reason !== undefined, reason)

  let folders: string[] = []
  let app: ElectronApplication | undefined

  const folder = (prefix: string): string => {
    const dir = mkdtempSync(join(tmpdir(), prefix))
    folders.push(dir)
    return dir
  }

  /** Starts the built app as `npm start` does: no workspace, a fresh user. */
  async function launch(): Promise<{ app: ElectronApplication; window: Page }> {
    expect(existsSync(mainScript), 'Build the app first: npx electron-vite build').toBe(true)
    const userData = folder('agent-teams-e2e-userdata-')
    const env: Record<string, string> = {}
    for (const [key, value] of Object.entries(process.env))
      if (value !== undefined) env[key] = value
    // A newcomer: no key in the environment, settings in a fresh folder of their own.
    delete env.ANTHROPIC_API_KEY
    delete env.ELECTRON_RENDERER_URL
    env.XDG_CONFIG_HOME = userData
    // The offline demo makes its folder in the temp folder: one this spec removes.
    env.TMPDIR = folder('agent-teams-e2e-tmp-')
    const args = [mainScript, `--user-data-dir=${userData}`]
    // Chromium refuses to run as root with its sandbox on (containers, CI).
    if (process.getuid?.() === 0) args.push('--no-sandbox')
    app = await _electron.launch({ executablePath: binary, args, env, cwd: root })
    const window = await app.firstWindow()
    await window.waitForLoadState('domcontentloaded')
    return { app, window }
  }

  test.beforeAll(() => {
    mkdirSync(screenshots, { recursive: true })
  })

  test.afterEach(async () => {
    await app?.close().catch(() => undefined)
    app = undefined
    for (const dir of folders) rmSync(dir, { recursive: true, force: true })
    folders = []
  })

  test('the README path: first run, the offline demo, the team, a chat turn, quit', async () => {
    const { app: electronApp, window } = await launch()
    await expect(window).toHaveTitle(/Agent Teams/)
    expect(window.url()).toBe('app://agent-teams/index.html')
    expect(
      await window.evaluate(() => (globalThis as PageGlobals).agentTeams?.getInfo({})),
    ).toEqual({
      version: expect.any(String),
      workspace: null,
      mode: 'electron',
      offline: false,
    })

    // First run: no workspace and no key, so the choice between a key and the offline demo.
    await expect(window.getByRole('heading', { name: 'Welcome to Agent Teams' })).toBeVisible()
    await window.screenshot({ path: join(screenshots, 'electron-first-run.png') })
    await window.getByRole('button', { name: 'Run the offline demo' }).click()

    // The lead spawns a coder and a tester: the roster shows them beside the lead.
    const rosterItem = (name: string) => window.getByTestId(`roster-item-${name}`)
    for (const name of ['lead', 'alice', 'bob'])
      await expect(rosterItem(name)).toBeVisible({ timeout: TEAM_TIMEOUT })
    const info = await window.evaluate(() => (globalThis as PageGlobals).agentTeams?.getInfo({}))
    expect(info).toMatchObject({ mode: 'electron', offline: true })
    const workspace = info?.workspace ?? ''
    expect(existsSync(join(workspace, '.team', 'runtime.lock'))).toBe(true)

    // The demo ends with the lead's summary of bob's report.
    const transcript = window.getByTestId('transcript')
    await expect(transcript).toContainText(/Done\. alice wrote|bob's tests did not pass/, {
      timeout: TEAM_TIMEOUT,
    })
    await window.screenshot({ path: join(screenshots, 'electron-demo.png') })

    // A chat turn: the person's message and the lead's answer in the lead's chat.
    const composer = window.getByLabel('Message the lead')
    await composer.fill('How is it going?')
    await composer.press('Enter')
    await expect(transcript).toContainText('How is it going?')
    // After the script, the lead answers from the real roster and the mail that came.
    await expect(transcript).toContainText('Where the team stands:', { timeout: TEAM_TIMEOUT })
    await expect(transcript).toContainText('bob (tester) is idle')

    // Isolated and without Node: the page sees the named functions and nothing else.
    const exposed = await window.evaluate(() => {
      const page = globalThis as PageGlobals
      return {
        keys: Object.keys(page.agentTeams ?? {}).sort(),
        require: typeof page.require,
        process: typeof page.process,
      }
    })
    expect(exposed).toEqual({
      keys: [...commandNames, 'onEvents'].sort(),
      require: 'undefined',
      process: 'undefined',
    })

    // Quit: main holds it until the team has stopped and let go of its folder, then exits.
    // While an agent still works the shell first asks "Quit / Cancel" in a native box, which
    // nothing here can click: the person's answer, Quit, is given in its place.
    await electronApp.evaluate(({ dialog }) => {
      dialog.showMessageBox = (async () => ({
        response: 0,
        checkboxChecked: false,
      })) as unknown as typeof dialog.showMessageBox
    })
    const exited = new Promise<number | null>((resolveExit) =>
      electronApp.process().once('exit', (code) => resolveExit(code)),
    )
    await electronApp.evaluate(({ app: electron }) => electron.quit()).catch(() => undefined)
    expect(await exited).toBe(0)
    app = undefined
    expect(existsSync(join(workspace, '.team', 'runtime.lock'))).toBe(false)
  })

  test('a failed command reaches the page with its name, code and message', async () => {
    const { window } = await launch()
    const missing = join(tmpdir(), 'agent-teams-e2e-no-such-folder')
    const rejection = await window.evaluate(async (path) => {
      try {
        await (globalThis as PageGlobals).agentTeams?.openWorkspace({ path })
        return null
      } catch (error) {
        const { name, code, message } = error as { name: unknown; code: unknown; message: unknown }
        return { name, code, message }
      }
    }, missing)
    expect(rejection).toEqual({
      name: 'TeamError',
      code: 'not-found',
      message: expect.stringContaining('There is no folder'),
    })
  })
})
