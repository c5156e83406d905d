import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commands } from '../../../src/shared/contract'
import { commandChannel, type CommandName } from '../../../src/shared/ipc-channels'
import { productionContentSecurityPolicy } from '../../../src/shared/content-security-policy'
import { ensureBuiltApp } from '../../helpers/built-app'
import { REPO_ROOT } from '../../helpers/processes'
import { MainProcess } from './electron-stand-in/main-process'
import {
  launcherEnvironment,
  longRunningNode,
  makeSmokeFolders,
  sleeperPids,
  type SmokeFolders,
} from './electron-stand-in/smoke-environment'

/**
 * The main-process smoke test: the BUILT out/main/index.js runs in plain Node with a recording
 * stand-in for 'electron' (tests/unit/main/electron-stand-in), since the Electron binary cannot
 * run here. It proves what can be proven without a window: the app: scheme is privileged before
 * ready, the window's hardened options and real preload, a handler for every contract command
 * answering against a real workspace, and a quit that stops the team and its processes. It is
 * started as a desktop launcher starts it (no TERM): agents' bash finds `node` only through the
 * PATH main takes from the login shell. The desktop shell is proven in main-shell-smoke.test.ts.
 */

const APP_PAGE = 'app://agent-teams/index.html'
const contractCommands = Object.keys(commands) as CommandName[]
/** electron-log's own channel: its main module handles it from the moment it is imported. */
const ELECTRON_LOG_CHANNEL = '__ELECTRON_LOG__'

let folders: SmokeFolders
let workspace: string
let sleeper: { bin: string; token: string }
let main: MainProcess

/** Running, not merely a zombie waiting for a parent outside the namespace to reap it. */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

async function invoke(name: CommandName, params: unknown = {}, senderUrl = APP_PAGE) {
  return main.request<{ ok: boolean; result?: unknown; error?: unknown }>('invoke', {
    channel: commandChannel(name),
    params,
    senderUrl,
  })
}

beforeAll(async () => {
  ensureBuiltApp()
  folders = makeSmokeFolders('agent-teams-main-smoke-')
  workspace = folders.workspace
  sleeper = longRunningNode(folders)
  // The sleeper's folder is on the login shell's PATH only, not on the PATH main starts with.
  main = new MainProcess([`--workspace=${workspace}`], launcherEnvironment(folders, [sleeper.bin]))
  await main.loaded
}, 240_000)

afterAll(() => {
  main.kill()
  for (const pid of sleeperPids(sleeper.token)) if (isAlive(pid)) process.kill(pid, 'SIGKILL')
  rmSync(folders.root, { recursive: true, force: true })
})

describe('the built main process, on a recording stand-in for electron', () => {
  it('registers the app: scheme as privileged before the app is ready', () => {
    const [registered] = main.calls('protocol.registerSchemesAsPrivileged')
    expect(registered).toMatchObject({ ready: false })
    expect(registered?.args[0]).toEqual([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
    ])
    expect(main.calls('app.enableSandbox')).toHaveLength(1)
    expect(main.calls('new BrowserWindow')).toHaveLength(0)
    expect(main.problems).toEqual([])
  })

  it('once ready, opens one hardened window on app:// with the built preload', async () => {
    await main.request('ready')
    const loaded = await main.waitForCall('BrowserWindow.loadURL')
    // The link policy's handler is installed after loadURL: its record may still be on its way.
    await main.caughtUp()
    expect(loaded.args).toEqual([APP_PAGE])
    const [created] = main.calls('new BrowserWindow')
    const options = created?.args[0] as { webPreferences: Record<string, unknown> }
    expect(options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    })
    const preload = options.webPreferences.preload as string
    expect(preload).toBe(join(REPO_ROOT, 'out', 'preload', 'index.cjs'))
    expect(existsSync(preload)).toBe(true)
    expect(main.calls('protocol.handle').map((call) => [call.args[0], call.ready])).toEqual([
      ['app', true],
    ])
    // security.ts's deny-all handler, then the link policy's, which denies the same way.
    expect(main.calls('webContents.setWindowOpenHandler')).toHaveLength(2)
    expect(main.calls('session.setPermissionRequestHandler')).toHaveLength(1)
    expect(main.problems).toEqual([])
  })

  it('has an ipcMain handler for every command of the contract, and no other', () => {
    const channels = main.calls('ipcMain.handle').map((call) => call.args[0])
    expect(channels).toContain(ELECTRON_LOG_CHANNEL)
    const ours = channels.filter((channel) => channel !== ELECTRON_LOG_CHANNEL)
    expect([...ours].sort()).toEqual(contractCommands.map(commandChannel).sort())
  })

  it('answers commands against the real workspace given with --workspace', async () => {
    // The folder opens after the window is made: asked before that, getInfo has no workspace.
    await main.waitForWorkspaceOpened()
    expect(await invoke('getInfo')).toEqual({
      ok: true,
      result: { version: '0.0.0-stand-in', workspace, mode: 'electron', offline: false },
    })
    const snapshot = await invoke('getSnapshot')
    expect(snapshot).toMatchObject({ ok: true, result: { workspace, lead: { name: 'lead' } } })
    expect(existsSync(join(workspace, '.team', 'runtime.lock'))).toBe(true)
    const spawned = await invoke('getTranscript', { name: 'nobody' })
    expect(spawned).toMatchObject({ ok: false, error: { name: 'TeamError' } })
  })

  it('started outside a terminal, takes PATH from the login shell, as `$SHELL -ilc`', () => {
    const args = readFileSync(folders.loginShellArgs, 'utf8').split('\n')
    expect(args[0]).toBe('-ilc')
    expect(args[1]).toContain('printenv PATH')
    expect(main.output).not.toContain('[path]')
  })

  it('refuses a command from a page that is not the app, before it runs', async () => {
    await expect(invoke('getInfo', {}, 'file:///etc/passwd')).rejects.toThrow(
      /not the app's own page/,
    )
    await expect(invoke('getInfo', {}, 'app://elsewhere/index.html')).rejects.toThrow(
      /not the app's own page/,
    )
  })

  it('keeps the window on the app: no navigation away, no new windows, no permissions', async () => {
    expect(await main.request('navigate', { url: 'https://example.com/' })).toEqual({
      defaultPrevented: true,
    })
    expect(await main.request('navigate', { url: `${APP_PAGE}#inbox` })).toEqual({
      defaultPrevented: false,
    })
    expect(await main.request('window-open', { url: 'https://example.com/' })).toEqual({
      action: 'deny',
    })
    expect(await main.request('permission', { permission: 'media' })).toEqual({
      granted: false,
      checked: false,
    })
    // The one exception: writing to the clipboard, for the Copy buttons.
    expect(await main.request('permission', { permission: 'clipboard-sanitized-write' })).toEqual({
      granted: true,
      checked: true,
    })
  })

  it('serves the built page on app:// with its CSP, and nothing outside out/renderer', async () => {
    const page = await main.request<{
      status: number
      headers: Record<string, string>
      body: string
    }>('protocol-request', { scheme: 'app', url: APP_PAGE, method: 'GET' })
    expect(page.status).toBe(200)
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(page.headers['content-security-policy']).toBe(productionContentSecurityPolicy)
    expect(page.body).toBe(readFileSync(join(REPO_ROOT, 'out', 'renderer', 'index.html'), 'utf8'))
    const escape = await main.request<{ status: number; body: string }>('protocol-request', {
      scheme: 'app',
      url: 'app://agent-teams/..%2fmain%2findex.js',
      method: 'GET',
    })
    expect(escape.status).toBe(403)
  })

  it('on quit, stops the team, kills its running commands and releases the workspace', async () => {
    const demo = await invoke('startDemo')
    expect(demo).toMatchObject({ ok: true, result: { offline: true } })
    const demoFolder = (demo.result as { workspace: string }).workspace
    expect(existsSync(join(workspace, '.team', 'runtime.lock'))).toBe(false)
    // The demo's tester reaches its `node --test` (the sleeper) through the offline model,
    // with the PATH the login shell gave main.
    const deadline = Date.now() + 60_000
    while (sleeperPids(sleeper.token).length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const sleepers = sleeperPids(sleeper.token)
    expect(sleepers.length, `no bash command started. Output:\n${main.output}`).toBeGreaterThan(0)
    expect(sleepers.every(isAlive)).toBe(true)
    expect(existsSync(join(demoFolder, '.team', 'runtime.lock'))).toBe(true)

    // Quitting is held until the team has stopped, then main exits by itself.
    expect(await main.request('emit-app', { event: 'before-quit' })).toEqual({
      defaultPrevented: true,
    })
    const code = await Promise.race([
      main.exited,
      new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 15_000)),
    ])
    expect(code, main.output).toBe(0)
    expect(main.calls('app.exit')).toHaveLength(1)
    const removed = main.calls('ipcMain.removeHandler').map((call) => call.args[0])
    expect([...removed].sort()).toEqual(contractCommands.map(commandChannel).sort())
    expect(sleepers.filter(isAlive)).toEqual([])
    expect(existsSync(join(demoFolder, '.team', 'runtime.lock'))).toBe(false)
    expect(main.problems).toEqual([])
  }, 90_000)
})
