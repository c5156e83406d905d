import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { _electron, expect, test, type ElectronApplication, type Page } from '@playwright/test'
import type { AgentTeamsApi } from '../../src/shared/contract'
import { commandNames } from '../../src/shared/ipc-channels'

/**
 * The desktop app's first use, in Electron itself: start with `--workspace`, see the window,
 * its title and the roster with the lead, and talk to the runtime through the preload. Run it
 * under `xvfb-run` on a machine without a display. Where the Electron binary is not installed
 * (it cannot be downloaded on some machines), the spec skips itself and says why.
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

test.describe('the desktop app', () => {
  test.skip(reason !== undefined, reason)

  let folders: string[] = []
  let app: ElectronApplication | undefined

  const folder = (prefix: string): string => {
    const dir = mkdtempSync(join(tmpdir(), prefix))
    folders.push(dir)
    return dir
  }

  async function launch(workspace: string): Promise<{ app: ElectronApplication; window: Page }> {
    expect(existsSync(mainScript), 'Build the app first: npx electron-vite build').toBe(true)
    const userData = folder('agent-teams-e2e-userdata-')
    const env: Record<string, string> = {}
    for (const [key, value] of Object.entries(process.env))
      if (value !== undefined) env[key] = value
    // A newcomer: no key in the environment, settings in a fresh folder of their own.
    delete env.ANTHROPIC_API_KEY
    delete env.ELECTRON_RENDERER_URL
    env.XDG_CONFIG_HOME = userData
    const args = [mainScript, `--workspace=${workspace}`, `--user-data-dir=${userData}`]
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
    await app?.close()
    app = undefined
    for (const dir of folders) rmSync(dir, { recursive: true, force: true })
    folders = []
  })

  test('first use: the workspace from --workspace, the title, the roster with the lead', async () => {
    const workspace = folder('agent-teams-e2e-workspace-')
    const { window } = await launch(workspace)

    await expect(window).toHaveTitle(/Agent Teams/)
    // The roster names the lead on its own (not inside a sentence such as the tagline).
    await expect(window.getByText('lead', { exact: true }).first()).toBeVisible()
    await window.screenshot({ path: join(screenshots, 'electron-first-use.png') })

    // The runtime behind the window opened the folder given on the command line.
    const info = await window.evaluate(() => (globalThis as PageGlobals).agentTeams?.getInfo({}))
    expect(info).toEqual({ version: expect.any(String), workspace, mode: 'electron' })
    const snapshot = await window.evaluate(() =>
      (globalThis as PageGlobals).agentTeams?.getSnapshot({}),
    )
    expect(snapshot?.lead.name).toBe('lead')
    expect(snapshot?.workspace).toBe(workspace)
    expect(existsSync(join(workspace, '.team'))).toBe(true)

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
  })

  test('a failed command reaches the page with its name, code and message', async () => {
    const { window } = await launch(folder('agent-teams-e2e-workspace-'))
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
      code: 'invalid-argument',
      message: expect.stringContaining('There is no folder'),
    })
  })
})
