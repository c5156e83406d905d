import { EventEmitter } from 'node:events'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { BrowserWindow, MenuItemConstructorOptions } from 'electron'
import type { IpcAdapter } from '../../../src/main/ipc'
import type { HostEvent } from '../../../src/shared/contract'
import { agentView, snapshot } from '../renderer/fake-api'

/** A recording stand-in for the parts of Electron the shell's wiring touches. */
const electron = vi.hoisted(() => {
  const state = {
    userData: '',
    badge: [] as number[],
    notifications: [] as { title: string; body: string; emit(name: string): void }[],
    menus: [] as unknown[],
    dialogs: [] as { message: string; buttons: string[] }[],
    dialogResponse: 0,
    quits: 0,
  }
  return { state }
})

vi.mock('electron', async () => {
  // Factories run before the file's imports: take what they need themselves.
  const { EventEmitter: Emitter } = await import('node:events')
  const { state } = electron
  class FakeNotification extends Emitter {
    static isSupported = () => true
    constructor(readonly options: { title: string; body: string }) {
      super()
    }
    get title() {
      return this.options.title
    }
    get body() {
      return this.options.body
    }
    show() {
      state.notifications.push(this)
    }
  }
  const area = { x: 0, y: 0, width: 1920, height: 1040 }
  return {
    app: {
      getPath: () => state.userData,
      getName: () => 'Agent Teams',
      getVersion: () => '0.1.0',
      getAppPath: () => state.userData,
      isPackaged: true,
      setBadgeCount: (count: number) => state.badge.push(count),
      quit: () => state.quits++,
    },
    BrowserWindow: { getAllWindows: () => [{}] },
    Menu: {
      buildFromTemplate: (template: unknown) => template,
      setApplicationMenu: (menu: unknown) => state.menus.push(menu),
    },
    Notification: FakeNotification,
    dialog: {
      showMessageBox: async (...args: unknown[]) => {
        const options = args.at(-1) as { message: string; buttons: string[] }
        state.dialogs.push(options)
        return { response: state.dialogResponse }
      },
    },
    screen: {
      getAllDisplays: () => [{ workArea: area }],
      getPrimaryDisplay: () => ({ workArea: area }),
    },
    shell: { openExternal: async () => undefined, showItemInFolder: () => undefined },
    clipboard: { writeText: () => undefined },
  }
})

vi.mock('electron-log/main', () => ({ default: {} }))

const { createDesktopShell } = await import('../../../src/main/desktop-shell')

/** A window that is focused or not, and records what it is asked. */
function fakeWindow(focused: boolean) {
  const window = Object.assign(new EventEmitter(), {
    webContents: Object.assign(new EventEmitter(), { setWindowOpenHandler: () => undefined }),
    isDestroyed: () => false,
    isFocused: () => focused,
    isMinimized: () => false,
    restore: () => undefined,
    show: vi.fn(),
    focus: vi.fn(),
    getNormalBounds: () => ({ x: 40, y: 30, width: 1000, height: 700 }),
    isMaximized: () => true,
    isFullScreen: () => false,
  })
  return window
}

function fakeService(recent: string[] = []) {
  const listeners = new Set<(event: HostEvent) => void>()
  return {
    execute: vi.fn(async () => ({ paths: recent })),
    onEvent(listener: (event: HostEvent) => void) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    emit(event: HostEvent) {
      for (const listener of listeners) listener(event)
    },
  }
}

function fakeIpc() {
  const sent: HostEvent[] = []
  const ipc = {
    attach: () => undefined,
    send: (_contents: unknown, event: HostEvent) => sent.push(event),
    dispose: () => undefined,
  } satisfies IpcAdapter as unknown as IpcAdapter
  return { ipc, sent }
}

const shellOptions = {
  logFile: '/logs/main.log',
  isAppUrl: () => false,
  argv: ['/opt/agent-teams/agent-teams'],
  cwd: '/home/dana',
}

const flush = () => new Promise((resolve) => setImmediate(resolve))

const opened: HostEvent = {
  type: 'workspace-opened',
  snapshot: snapshot({ workspace: '/home/dana/stats', members: [agentView('alice')] }),
}

describe('the desktop shell wired to Electron', () => {
  beforeEach(() => {
    electron.state.userData = mkdtempSync(join(tmpdir(), 'agent-teams-shell-'))
    Object.assign(electron.state, {
      badge: [],
      notifications: [],
      menus: [],
      dialogs: [],
      dialogResponse: 0,
      quits: 0,
    })
  })
  afterEach(() => rmSync(electron.state.userData, { recursive: true, force: true }))

  function setup(focused: boolean, recent: string[] = []) {
    const shell = createDesktopShell({ ...shellOptions })
    const window = fakeWindow(focused)
    const service = fakeService(recent)
    const { ipc, sent } = fakeIpc()
    shell.attachService(service, ipc)
    shell.manage(window as unknown as BrowserWindow)
    return { shell, window, service, sent }
  }

  it('restores the last folder if it still exists, and the window’s place', () => {
    const folder = join(electron.state.userData, 'project')
    mkdirSync(folder)
    writeFileSync(
      join(electron.state.userData, 'window-state.json'),
      JSON.stringify({
        version: 1,
        bounds: { x: 5000, y: 100, width: 1000, height: 700 },
        maximized: false,
        fullScreen: false,
        workspace: folder,
      }),
    )
    const shell = createDesktopShell({ ...shellOptions })
    expect(shell.startWorkspace).toBe(folder)
    // Its monitor is gone: centred on the primary display.
    expect(shell.bounds).toEqual({ x: 460, y: 170, width: 1000, height: 700 })
    // A folder named on the command line wins over the saved one.
    const named = createDesktopShell({ ...shellOptions, argv: [...shellOptions.argv, 'web'] })
    expect(named.startWorkspace).toBe('/home/dana/web')
  })

  it('builds the menu with the recent folders, again when a folder opens', async () => {
    const { service } = setup(true, ['/home/dana/stats'])
    await flush()
    service.emit(opened)
    await flush()
    expect(electron.state.menus).toHaveLength(2)
    const file = (electron.state.menus[1] as MenuItemConstructorOptions[])[0]
    const recent = (file?.submenu as MenuItemConstructorOptions[])[1]?.submenu
    expect(recent).toEqual([expect.objectContaining({ label: 'stats — /home/dana/stats' })])
  })

  it('in the background: notifies, counts the badge, and a click shows the agent', async () => {
    const { service, window, sent } = setup(false)
    service.emit(opened)
    service.emit({
      type: 'agent-status-changed',
      name: 'alice',
      previous: 'working',
      status: 'error',
      reason: 'HTTP 529',
    })
    expect(electron.state.notifications.map((n) => n.title)).toEqual(['alice stopped on an error'])
    expect(electron.state.badge).toEqual([1])
    electron.state.notifications[0]?.emit('click')
    expect(window.focus).toHaveBeenCalled()
    expect(sent).toEqual([{ type: 'menu-command', command: { kind: 'show-agent', name: 'alice' } }])
  })

  it('in front: no notification, but the badge still counts', () => {
    const { service } = setup(true)
    service.emit(opened)
    service.emit({
      type: 'agent-status-changed',
      name: 'alice',
      previous: 'working',
      status: 'stalled',
      reason: 'silent',
    })
    expect(electron.state.notifications).toEqual([])
    expect(electron.state.badge).toEqual([1])
  })

  it('a second launch with a folder, none open, opens it in the window', () => {
    const { shell, sent } = setup(true)
    shell.secondLaunch(['/opt/agent-teams/agent-teams', '/home/dana/web'], '/home/dana')
    expect(sent).toEqual([
      { type: 'menu-command', command: { kind: 'open-recent', path: '/home/dana/web' } },
    ])
  })

  it('a second launch with another folder open asks first', async () => {
    const { shell, service, sent } = setup(true)
    service.emit(opened)
    electron.state.dialogResponse = 1
    shell.secondLaunch(['/opt/agent-teams/agent-teams', '/home/dana/web'], '/home/dana')
    await flush()
    expect(electron.state.dialogs[0]?.message).toBe('Open /home/dana/web?')
    expect(sent).toEqual([])
  })

  it('quitting while an agent works asks first; Quit then quits for real', async () => {
    const { shell, service } = setup(true)
    service.emit(opened)
    service.emit({
      type: 'agent-status-changed',
      name: 'alice',
      previous: 'idle',
      status: 'working',
      reason: 'activated',
    })
    const event = { preventDefault: vi.fn() }
    expect(shell.holdQuit(event)).toBe(true)
    expect(event.preventDefault).toHaveBeenCalled()
    await flush()
    expect(electron.state.dialogs[0]?.buttons).toEqual(['Quit', 'Cancel'])
    expect(electron.state.quits).toBe(1)
    // The confirmed quit comes back through before-quit and is not asked again.
    expect(shell.holdQuit({ preventDefault: vi.fn() })).toBe(false)
  })

  it('quitting with nobody at work asks nothing, and saves the window with its folder', () => {
    const { shell, service } = setup(true)
    service.emit(opened)
    expect(shell.holdQuit({ preventDefault: vi.fn() })).toBe(false)
    expect(electron.state.dialogs).toEqual([])
    const saved = JSON.parse(
      readFileSync(join(electron.state.userData, 'window-state.json'), 'utf8'),
    ) as unknown
    expect(saved).toEqual({
      version: 1,
      bounds: { x: 40, y: 30, width: 1000, height: 700 },
      maximized: true,
      fullScreen: false,
      workspace: '/home/dana/stats',
    })
  })
})
