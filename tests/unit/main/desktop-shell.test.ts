import { EventEmitter } from 'node:events'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { BrowserWindow, MenuItemConstructorOptions } from 'electron'
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
let nextId = 1
function fakeWindow(focused: boolean) {
  let destroyed = false
  const window = Object.assign(new EventEmitter(), {
    webContents: Object.assign(new EventEmitter(), {
      id: nextId++,
      setWindowOpenHandler: () => undefined,
    }),
    isDestroyed: () => destroyed,
    isFocused: () => focused,
    isMinimized: () => false,
    restore: () => undefined,
    show: vi.fn(),
    focus: vi.fn(),
    getNormalBounds: () => ({ x: 40, y: 30, width: 1000, height: 700 }),
    isMaximized: () => true,
    isFullScreen: () => false,
    /** Electron's close: 'close' may be prevented; otherwise the window goes, then 'closed'. */
    close() {
      let prevented = false
      window.emit('close', { preventDefault: () => (prevented = true) })
      if (prevented) return
      destroyed = true
      window.emit('closed')
    },
  })
  return window
}

function fakeService(recent: string[] = []) {
  const listeners = new Set<(event: HostEvent) => void>()
  return {
    execute: vi.fn(async () => ({ paths: recent })),
    onEvent(listener: (event: HostEvent) => void) {
      listeners.add(listener)
      return { dispose: () => listeners.delete(listener) }
    },
    emit(event: HostEvent) {
      for (const listener of listeners) listener(event)
    },
  }
}

const shellOptions = {
  logFile: '/logs/main.log',
  isAppUrl: () => false,
  argv: ['/opt/agent-teams/agent-teams'],
  cwd: '/home/dana',
}

const flush = () => new Promise((resolve) => setImmediate(resolve))

const openedAt = (workspace: string): HostEvent => ({
  type: 'workspace-opened',
  snapshot: snapshot({ workspace, members: [agentView('alice')] }),
})
const opened = openedAt('/home/dana/stats')
const working: HostEvent = {
  type: 'agent-status-changed',
  name: 'alice',
  previous: 'idle',
  status: 'working',
  reason: 'activated',
  cause: null,
  error_code: null,
}

function savedState(): unknown {
  return JSON.parse(readFileSync(join(electron.state.userData, 'window-state.json'), 'utf8'))
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

  /** A shell, and what it sent to pages and asked main to open. */
  function makeShell(argv = shellOptions.argv) {
    const sent: { window: number; event: HostEvent }[] = []
    const newWindows: (string | undefined)[] = []
    const shell = createDesktopShell({
      ...shellOptions,
      argv,
      ipc: { send: (contents, event) => sent.push({ window: contents.id, event }) },
      openWindow: (workspace) => newWindows.push(workspace),
    })
    return { shell, sent, newWindows }
  }

  function addWindow(
    shell: ReturnType<typeof makeShell>['shell'],
    focused: boolean,
    recent: string[] = [],
  ) {
    const window = fakeWindow(focused)
    const service = fakeService(recent)
    shell.manage(window as unknown as BrowserWindow, service, null)
    return { window, service }
  }

  function setup(focused: boolean, recent: string[] = []) {
    const made = makeShell()
    const { window, service } = addWindow(made.shell, focused, recent)
    const events = () => made.sent.map((entry) => entry.event)
    return { ...made, window, service, events }
  }

  it('restores every window of the last quit with its folder, where it was', () => {
    const folder = join(electron.state.userData, 'project')
    mkdirSync(folder)
    writeFileSync(
      join(electron.state.userData, 'window-state.json'),
      JSON.stringify({
        version: 2,
        windows: [
          {
            bounds: { x: 5000, y: 100, width: 1000, height: 700 },
            maximized: false,
            fullScreen: false,
            workspace: folder,
          },
          {
            bounds: { x: 10, y: 20, width: 900, height: 600 },
            maximized: true,
            fullScreen: false,
            workspace: '/gone',
          },
        ],
      }),
    )
    const { shell } = makeShell()
    expect(shell.startWindows.map((start) => start.workspace)).toEqual([folder, undefined])
    // Its monitor is gone: centred on the primary display.
    expect(shell.startWindows[0]?.bounds).toEqual({ x: 460, y: 170, width: 1000, height: 700 })
    expect(shell.startWindows[1]?.bounds).toEqual({ x: 10, y: 20, width: 900, height: 600 })
    // A folder named on the command line wins over the saved ones.
    const named = makeShell([...shellOptions.argv, 'web']).shell
    expect(named.startWindows.map((start) => start.workspace)).toEqual(['/home/dana/web'])
  })

  it('reads the version 1 file of a single window', () => {
    const folder = join(electron.state.userData, 'project')
    mkdirSync(folder)
    writeFileSync(
      join(electron.state.userData, 'window-state.json'),
      JSON.stringify({
        version: 1,
        bounds: { x: 40, y: 30, width: 1000, height: 700 },
        maximized: false,
        fullScreen: false,
        workspace: folder,
      }),
    )
    const { shell } = makeShell()
    expect(shell.startWindows).toEqual([
      expect.objectContaining({
        workspace: folder,
        bounds: { x: 40, y: 30, width: 1000, height: 700 },
      }),
    ])
  })

  it('builds the menu with the recent folders, again when a folder opens', async () => {
    const { service } = setup(true, ['/home/dana/stats'])
    await flush()
    service.emit(opened)
    await flush()
    expect(electron.state.menus).toHaveLength(2)
    const file = (electron.state.menus[1] as MenuItemConstructorOptions[])[0]
    const items = file?.submenu as MenuItemConstructorOptions[]
    const recent = items.find((item) => item.label === 'Open Recent')?.submenu
    expect(recent).toEqual([expect.objectContaining({ label: 'stats — /home/dana/stats' })])
  })

  it('File > New Window asks main for a window on its first-run screen', async () => {
    const { newWindows } = setup(true)
    await flush()
    const file = (electron.state.menus.at(-1) as MenuItemConstructorOptions[])[0]
    const item = (file?.submenu as MenuItemConstructorOptions[]).find(
      (entry) => entry.label === 'New Window',
    )
    ;(item?.click as unknown as () => void)()
    expect(newWindows).toEqual([undefined])
  })

  it('in the background: notifies, counts the badge, and a click shows the agent', async () => {
    const { service, window, events } = setup(false)
    service.emit(opened)
    service.emit({
      type: 'agent-status-changed',
      name: 'alice',
      previous: 'working',
      status: 'error',
      reason: 'HTTP 529',
      cause: null,
      error_code: null,
    })
    expect(electron.state.notifications.map((n) => n.title)).toEqual(['alice stopped on an error'])
    expect(electron.state.badge).toEqual([1])
    electron.state.notifications[0]?.emit('click')
    expect(window.focus).toHaveBeenCalled()
    expect(events()).toEqual([
      { type: 'menu-command', command: { kind: 'show-agent', name: 'alice' } },
    ])
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
      cause: null,
      error_code: null,
    })
    expect(electron.state.notifications).toEqual([])
    expect(electron.state.badge).toEqual([1])
  })

  it('a second launch with a folder, none open, opens it in the window', () => {
    const { shell, events, newWindows } = setup(true)
    shell.secondLaunch(['/opt/agent-teams/agent-teams', '/home/dana/web'], '/home/dana')
    expect(events()).toEqual([
      { type: 'menu-command', command: { kind: 'open-recent', path: '/home/dana/web' } },
    ])
    expect(newWindows).toEqual([])
  })

  it('a second launch with another folder open opens a new window for it, asking nothing', () => {
    const { shell, service, events, newWindows } = setup(true)
    service.emit(opened)
    shell.secondLaunch(['/opt/agent-teams/agent-teams', '/home/dana/web'], '/home/dana')
    expect(newWindows).toEqual(['/home/dana/web'])
    expect(electron.state.dialogs).toEqual([])
    expect(events()).toEqual([])
  })

  it('one window per workspace: a second launch with an open folder brings its window forward', () => {
    const made = makeShell()
    const stats = addWindow(made.shell, false)
    const web = addWindow(made.shell, true)
    stats.service.emit(opened)
    web.service.emit(openedAt('/home/dana/web'))
    made.shell.secondLaunch(['/opt/agent-teams/agent-teams', '/home/dana/stats'], '/home/dana')
    expect(stats.window.focus).toHaveBeenCalled()
    expect(web.window.focus).not.toHaveBeenCalled()
    expect(made.newWindows).toEqual([])
  })

  it('counts what waits in every window on one badge, and notifies for the window it is in', () => {
    const made = makeShell()
    const first = addWindow(made.shell, false)
    const second = addWindow(made.shell, false)
    first.service.emit(opened)
    second.service.emit(openedAt('/home/dana/web'))
    const error: HostEvent = {
      type: 'agent-status-changed',
      name: 'alice',
      previous: 'working',
      status: 'error',
      reason: 'HTTP 529',
      cause: null,
      error_code: null,
    }
    first.service.emit(error)
    second.service.emit(error)
    expect(electron.state.badge).toEqual([1, 2])
    electron.state.notifications[1]?.emit('click')
    expect(second.window.focus).toHaveBeenCalled()
    expect(made.sent).toEqual([
      {
        window: second.window.webContents.id,
        event: { type: 'menu-command', command: { kind: 'show-agent', name: 'alice' } },
      },
    ])
  })

  it('closing a window whose agents work asks Close / Cancel; the others are kept in the state', async () => {
    const made = makeShell()
    const first = addWindow(made.shell, false)
    const second = addWindow(made.shell, true)
    first.service.emit(opened)
    second.service.emit(openedAt('/home/dana/web'))
    second.service.emit(working)
    electron.state.dialogResponse = 1
    second.window.close()
    await flush()
    expect(electron.state.dialogs.map((asked) => asked.buttons)).toEqual([['Close', 'Cancel']])
    expect(second.window.isDestroyed()).toBe(false)
    electron.state.dialogResponse = 0
    second.window.close()
    await flush()
    expect(second.window.isDestroyed()).toBe(true)
    // Saved after the store's delay: wait for the file to say so, not for the delay.
    await vi.waitFor(
      () =>
        expect(savedState()).toEqual({
          version: 2,
          windows: [expect.objectContaining({ workspace: '/home/dana/stats' })],
        }),
      { timeout: 5000, interval: 50 },
    )
  })

  it('the last window closed stays in the state, for the next launch', () => {
    const { service, window } = setup(true)
    service.emit(opened)
    window.close()
    expect(savedState()).toEqual({
      version: 2,
      windows: [expect.objectContaining({ workspace: '/home/dana/stats' })],
    })
  })

  it('quitting while an agent works asks first; Quit then quits for real', async () => {
    const made = makeShell()
    const calm = addWindow(made.shell, true)
    const busy = addWindow(made.shell, true)
    calm.service.emit(opened)
    busy.service.emit(openedAt('/home/dana/web'))
    busy.service.emit(working)
    const event = { preventDefault: vi.fn() }
    expect(made.shell.holdQuit(event)).toBe(true)
    expect(event.preventDefault).toHaveBeenCalled()
    await flush()
    expect(electron.state.dialogs[0]?.buttons).toEqual(['Quit', 'Cancel'])
    expect(electron.state.quits).toBe(1)
    // The confirmed quit comes back through before-quit and is not asked again.
    expect(made.shell.holdQuit({ preventDefault: vi.fn() })).toBe(false)
  })

  it('quitting with nobody at work asks nothing, and saves every window with its folder', () => {
    const made = makeShell()
    const first = addWindow(made.shell, true)
    const second = addWindow(made.shell, true)
    first.service.emit(opened)
    second.service.emit(openedAt('/home/dana/web'))
    expect(made.shell.holdQuit({ preventDefault: vi.fn() })).toBe(false)
    expect(electron.state.dialogs).toEqual([])
    const place = {
      bounds: { x: 40, y: 30, width: 1000, height: 700 },
      maximized: true,
      fullScreen: false,
    }
    // The most recently opened (or focused) first.
    expect(savedState()).toEqual({
      version: 2,
      windows: [
        { ...place, workspace: '/home/dana/web' },
        { ...place, workspace: '/home/dana/stats' },
      ],
    })
  })
})
