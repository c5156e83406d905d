import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuiltApp } from '../../helpers/built-app'
import { MainProcess, type CallRecord } from './electron-stand-in/main-process'
import {
  launcherEnvironment,
  makeSmokeFolders,
  type SmokeFolders,
} from './electron-stand-in/smoke-environment'

/**
 * The desktop shell, through the BUILT main process on the electron stand-in (see
 * main-smoke.test.ts for how it runs): the window comes back where window-state.json left it,
 * with the folder that was open; the application menu is set and its items reach the page;
 * links go to the system browser or are refused; the right-click menu copies a message; a
 * crashed page offers Reload; a fault nothing caught is logged to the log file and does not end
 * main; the key store says why it is a plain file; a reply while the window is in the background
 * is notified; a second launch with another folder opens it in a second window with its own
 * team, a folder open in one window is never opened in another, and closing a window closes its
 * team alone.
 */

/** A laptop screen, and a larger monitor to its right (work areas leave room for panels). */
const DISPLAYS = [
  {
    bounds: { x: 0, y: 0, width: 1920, height: 1080 },
    workArea: { x: 0, y: 0, width: 1920, height: 1040 },
  },
  {
    bounds: { x: 1920, y: 0, width: 2560, height: 1440 },
    workArea: { x: 1920, y: 0, width: 2560, height: 1400 },
  },
]
/** Left half off the monitor's right edge: it opens moved inside that monitor, not centred. */
const SAVED_BOUNDS = { x: 3900, y: 200, width: 1000, height: 700 }
const PLACED_BOUNDS = { x: 4480 - 1000, y: 200, width: 1000, height: 700 }

interface MenuEntry {
  label: string
  role: string | null
  enabled: boolean
  submenu: MenuEntry[] | null
}

let folders: SmokeFolders
let main: MainProcess
/** window-state.json as the test wrote it, before main started. */
let savedText: string

function windowStatePath(): string {
  return join(folders.userData, 'window-state.json')
}

async function eventually<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`${what} did not happen. Output:\n${main.output}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/** main's own events sent to the page (menu commands, notices, alerts), in order. */
function sentEvents(type: string): Record<string, unknown>[] {
  return main
    .calls('webContents.send')
    .flatMap((call: CallRecord) => call.args[1] as Record<string, unknown>[])
    .filter((event) => event.type === type)
}

const APP_URL = 'app://agent-teams/index.html'

/** A command from the page of a window (numbered in the order they were made). */
async function invokeIn<T>(window: number, name: string, params: unknown = {}): Promise<T> {
  const answer = await main.request<{ ok: boolean; result?: T; error?: unknown }>('invoke', {
    channel: `command:${name}`,
    params,
    senderUrl: APP_URL,
    window,
  })
  if (!answer.ok) throw new Error(`${name} failed: ${JSON.stringify(answer.error)}`)
  return answer.result as T
}

function invoke<T>(name: string, params: unknown = {}): Promise<T> {
  return invokeIn<T>(0, name, params)
}

function applicationMenu(): MenuEntry[] {
  const menu = main.calls('Menu.setApplicationMenu').at(-1)?.args[0] as MenuEntry[] | undefined
  if (menu === undefined) throw new Error('no application menu was set')
  return menu
}

function submenu(menu: MenuEntry[], label: string): MenuEntry[] {
  return menu.find((entry) => entry.label === label)?.submenu ?? []
}

beforeAll(async () => {
  ensureBuiltApp()
  folders = makeSmokeFolders('agent-teams-shell-smoke-')
  const saved = {
    version: 1,
    bounds: SAVED_BOUNDS,
    maximized: true,
    fullScreen: false,
    workspace: folders.workspace,
  }
  savedText = JSON.stringify(saved)
  writeFileSync(windowStatePath(), savedText)
  // No folder on the command line: the one open when the app last quit comes back.
  const env = launcherEnvironment(folders, [], { STAND_IN_DISPLAYS: JSON.stringify(DISPLAYS) })
  main = new MainProcess([], env)
  await main.loaded
  await main.request('ready')
  await main.waitForCall('BrowserWindow.loadURL')
  // The window's folder opens after it is made; the tests ask about both.
  await main.waitForWorkspaceOpened()
  await main.caughtUp()
}, 240_000)

afterAll(() => {
  main.kill()
  rmSync(folders.root, { recursive: true, force: true })
})

describe('the desktop shell of the built main process', () => {
  it('reopens the window where window-state.json left it, on the display that shows it', async () => {
    const [created] = main.calls('new BrowserWindow')
    expect(created?.args[0]).toMatchObject(PLACED_BOUNDS)
    expect(main.calls('screen.getAllDisplays').length).toBeGreaterThan(0)
    // Maximized again once the page has painted, as it was left.
    expect(await main.request('page-ready')).toEqual({ visible: true, focused: true })
    expect(main.calls('BrowserWindow.maximize')).toHaveLength(1)
    expect(main.problems).toEqual([])
  })

  it('reopens the folder that was open, and keeps it in window-state.json', async () => {
    const info = await main.request<{ ok: boolean; result: { workspace: string | null } }>(
      'invoke',
      { channel: 'command:getInfo', params: {}, senderUrl: 'app://agent-teams/index.html' },
    )
    expect(info.result.workspace).toBe(folders.workspace)
    // The maximize above is saved (after a short delay): the file main wrote, not the test's.
    const saved = await eventually('saving the window state', () => {
      const text = readFileSync(windowStatePath(), 'utf8')
      return text === savedText ? undefined : (JSON.parse(text) as unknown)
    })
    // The test wrote version 1 (one window); main keeps version 2, a list of windows.
    expect(saved).toEqual({
      version: 2,
      windows: [
        { bounds: PLACED_BOUNDS, maximized: true, fullScreen: false, workspace: folders.workspace },
      ],
    })
  })

  it('sets the application menu: File, Edit, View, Team, Help, for the open folder', async () => {
    await eventually('an application menu with the folder open', () => {
      const closeFolder = submenu(applicationMenu(), '&File').find(
        (entry) => entry.label === 'Close Folder',
      )
      return closeFolder?.enabled === true ? true : undefined
    })
    const menu = applicationMenu()
    expect(menu.map((entry) => entry.label)).toEqual(['&File', '&Edit', '&View', '&Team', '&Help'])
    const roles = (label: string): (string | null)[] =>
      submenu(menu, label).map((entry) => entry.role)
    expect(roles('&Edit')).toEqual(
      expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']),
    )
    // `electron .` from the project, not packaged: the developer's Reload and DevTools are there.
    expect(roles('&View')).toEqual(expect.arrayContaining(['reload', 'toggleDevTools']))
    const recent = submenu(submenu(menu, '&File'), 'Open Recent')
    expect(recent.map((entry) => entry.label)).toContain(`workspace — ${folders.workspace}`)
    const team = submenu(menu, '&Team').filter((entry) => entry.label !== '')
    expect(team.map((entry) => [entry.label, entry.enabled])).toEqual([
      ['Spawn Teammate…', true],
      ['Search the Team…', true],
      ['Stop All', true],
      ['Resume All', true],
    ])
    expect(main.problems).toEqual([])
  })

  it('sends a menu item to the page, and shows the log file from Help', async () => {
    expect(await main.request('menu-click', { path: ['&Team', 'Stop All'] })).toEqual({
      clicked: true,
    })
    const commands = await eventually('the menu command reaching the page', () => {
      const sent = sentEvents('menu-command')
      return sent.length > 0 ? sent : undefined
    })
    expect(commands).toEqual([{ type: 'menu-command', command: { kind: 'stop-all' } }])
    await main.request('menu-click', { path: ['&Help', 'Show Log File'] })
    const [shown] = main.calls('shell.showItemInFolder')
    expect(shown?.args).toEqual([join(folders.userData, 'logs', 'main.log')])
  })

  it('opens web links in the system browser and refuses a file: link with a notice', async () => {
    expect(await main.request('window-open', { url: 'https://example.com/docs' })).toEqual({
      action: 'deny',
    })
    expect(await main.request('navigate', { url: 'file:///etc/passwd' })).toEqual({
      defaultPrevented: true,
    })
    expect(main.calls('shell.openExternal').map((call) => call.args[0])).toEqual([
      'https://example.com/docs',
    ])
    const notices = await eventually('the refusal notice', () => {
      const sent = sentEvents('desktop-notice')
      return sent.length > 0 ? sent : undefined
    })
    expect(notices).toEqual([
      expect.objectContaining({
        title: 'Link not opened',
        message: expect.stringContaining('file:///etc/passwd was not opened'),
      }),
    ])
  })

  it('on a right-click over a message, offers Copy Message, which copies its text', async () => {
    // Chromium's params for a click on text that is not a field, nothing selected.
    const params = {
      x: 200,
      y: 300,
      isEditable: false,
      selectionText: '',
      misspelledWord: '',
      dictionarySuggestions: [],
      editFlags: { canCut: false, canCopy: false, canPaste: false, canSelectAll: true },
    }
    const pageAnswer = { message: 'The tests pass.', code: null }
    await main.request('context-menu', { params, pageAnswer })
    const popup = await main.waitForCall('Menu.popup')
    const items = popup.args[0] as MenuEntry[]
    expect(items.map((item) => item.role ?? item.label)).toEqual(['selectAll', '', 'Copy Message'])
    expect(await main.request('popup-click', { path: ['Copy Message'] })).toEqual({
      clicked: true,
    })
    expect(main.calls('clipboard.writeText').map((call) => call.args[0])).toEqual([
      'The tests pass.',
    ])
  })

  it('offers Reload when the page crashes, and asks nothing when it closes cleanly', async () => {
    await main.request('page-gone', { reason: 'clean-exit', exitCode: 0 })
    expect(main.calls('dialog.showMessageBox')).toHaveLength(0)
    await main.request('page-gone', { reason: 'crashed', exitCode: 139 })
    const reloaded = await main.waitForCall('webContents.reload')
    const [asked] = main.calls('dialog.showMessageBox')
    expect(asked?.args[0]).toMatchObject({ buttons: ['Reload', 'Close'] })
    expect(asked!.seq).toBeLessThan(reloaded.seq)
  })

  it('survives a rejection and an exception nothing caught, and logs both to its log file', async () => {
    await main.request('fault', { kind: 'rejection', message: 'smoke: a lost rejection' })
    await main.request('fault', { kind: 'exception', message: 'smoke: a thrown exception' })
    const alerts = await eventually('both team alerts', () => {
      const sent = sentEvents('team-alert')
      const text = JSON.stringify(sent)
      return text.includes('smoke: a lost rejection') && text.includes('smoke: a thrown exception')
        ? sent
        : undefined
    })
    expect(alerts.map((alert) => alert.message)).toEqual([
      expect.stringContaining('smoke: a lost rejection'),
      expect.stringContaining('smoke: a thrown exception'),
    ])
    const info = await main.request<{ ok: boolean }>('invoke', {
      channel: 'command:getInfo',
      params: {},
      senderUrl: 'app://agent-teams/index.html',
    })
    expect(info.ok).toBe(true)
    const log = join(folders.userData, 'logs', 'main.log')
    await eventually('the log file', () => (existsSync(log) ? true : undefined))
    const logged = readFileSync(log, 'utf8')
    expect(logged).toContain('[main] internal error (unhandledRejection)')
    expect(logged).toContain('[main] internal error (uncaughtException)')
    expect(main.problems).toEqual([])
  })

  it('keeps the key in the settings file, and says why, without an OS keyring', async () => {
    expect(await invoke('getSettings')).toMatchObject({
      secretStorage: 'plain-file',
      secretStorageNote: expect.stringContaining('No keyring'),
    })
    expect(main.calls('safeStorage.isAsyncEncryptionAvailable')).toHaveLength(1)
    expect(main.calls('safeStorage.getSelectedStorageBackend')).toHaveLength(1)
  })

  it('notifies when the lead replies while the window is not focused', async () => {
    await main.request('blur')
    await invoke('saveSettings', { useOfflineModel: true })
    await invoke('chat', { text: 'Hello, lead' })
    const shown = await main.waitForCall('Notification.show')
    expect(shown.args[0]).toMatchObject({ title: 'The lead replied' })
    // Clicking it brings the window forward on the lead's chat.
    await main.request('notification-click')
    const shownAgent = await eventually('the page told to show the lead', () => {
      const sent = sentEvents('menu-command')
      return sent.find((event) => JSON.stringify(event).includes('show-agent'))
    })
    expect(shownAgent).toEqual({
      type: 'menu-command',
      command: { kind: 'show-agent', name: 'lead' },
    })
    expect(main.calls('BrowserWindow.focus').length).toBeGreaterThan(1)
    expect(main.problems).toEqual([])
  })

  it('on a second launch with another folder, opens it in a new window with its own team', async () => {
    const other = join(folders.root, 'other-project')
    mkdirSync(other)
    const made = main.calls('new BrowserWindow').length
    // Electron's 'second-instance': (event, argv, workingDirectory) of the second launch.
    await main.request('emit-app', {
      event: 'second-instance',
      args: [[process.execPath, 'out/main/index.js', `--workspace=${other}`], folders.root],
    })
    const created = await eventually('a second window', () => {
      const calls = main.calls('new BrowserWindow')
      return calls.length > made ? calls.at(-1) : undefined
    })
    // A step down and right from the first, kept inside its display (it is at the right edge).
    expect(created.args[0]).toMatchObject({ ...PLACED_BOUNDS, y: PLACED_BOUNDS.y + 28 })
    const info = await eventually('the second window’s team in the other folder', async () => {
      const answer = await invokeIn<{ workspace: string | null }>(1, 'getInfo')
      return answer.workspace === other ? answer : undefined
    })
    expect(info.workspace).toBe(other)
    // The first window keeps its own team, asked nothing.
    expect((await invoke<{ workspace: string | null }>('getInfo')).workspace).toBe(
      folders.workspace,
    )
    expect(main.problems).toEqual([])
  })

  it('one window per workspace: a folder open in one window is brought forward, not opened twice', async () => {
    await main.request('focus', { window: 1 })
    const focusedBefore = main.calls('BrowserWindow.focus').length
    await main.request('emit-app', {
      event: 'second-instance',
      args: [[process.execPath, 'out/main/index.js', `--workspace=${folders.workspace}`], '/'],
    })
    await eventually('the first window brought forward', () =>
      main.calls('BrowserWindow.focus').length > focusedBefore ? true : undefined,
    )
    expect(main.calls('new BrowserWindow')).toHaveLength(2)
    // Opening the second window's folder from the first is refused, and names why.
    const other = join(folders.root, 'other-project')
    const answer = await main.request<{ ok: boolean; error?: { code: string; message: string } }>(
      'invoke',
      { channel: 'command:openWorkspace', params: { path: other }, senderUrl: APP_URL },
    )
    expect(answer.ok).toBe(false)
    expect(answer.error).toMatchObject({
      code: 'workspace-busy',
      message: expect.stringContaining('open in another window'),
    })
  })

  it('closing the second window stops its team and forgets it; the first goes on', async () => {
    expect(await main.request('close-window', { window: 1 })).toEqual({ closed: true })
    const other = join(folders.root, 'other-project')
    const saved = await eventually('the closed window dropped from the state', () => {
      const state = JSON.parse(readFileSync(windowStatePath(), 'utf8')) as { windows: unknown[] }
      return state.windows.length === 1 ? state : undefined
    })
    expect(saved.windows).toEqual([expect.objectContaining({ workspace: folders.workspace })])
    // Its team stopped and released the folder: the first window can open it now, then goes back.
    await eventually('the other folder free to open', async () => {
      const answer = await main.request<{ ok: boolean }>('invoke', {
        channel: 'command:openWorkspace',
        params: { path: other },
        senderUrl: APP_URL,
      })
      return answer.ok ? true : undefined
    })
    await invoke('openWorkspace', { path: folders.workspace })
    expect(await main.request('windows')).toEqual({ open: 1, made: 2 })
    expect(main.problems).toEqual([])
  })

  it('quits cleanly, leaving the window state for the next launch', async () => {
    await main.request('emit-app', { event: 'before-quit' })
    expect(await main.exited).toBe(0)
    expect(JSON.parse(readFileSync(windowStatePath(), 'utf8'))).toEqual({
      version: 2,
      windows: [
        { bounds: PLACED_BOUNDS, maximized: true, fullScreen: false, workspace: folders.workspace },
      ],
    })
    expect(main.problems).toEqual([])
  })
})
