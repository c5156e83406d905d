import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { app, dialog, Menu, Notification, screen, shell, type BrowserWindow } from 'electron'
import log from 'electron-log/main'
import type { HostEvent } from '../shared/contract'
import type { Disposable } from '../shared/disposable'
import type { MenuCommand } from '../shared/desktop'
import type { IpcAdapter } from './ipc'
import { aboutDetail, rotateLogFile, routeConsole } from './logging'
import { buildMenuTemplate } from './menu'
import {
  badgeCount,
  emptyAttention,
  observe,
  quitQuestion,
  type AttentionState,
  type DesktopNotification,
} from './notifications'
import { manageWindow, placeOf, restoreWindowMode } from './shell-window'
import {
  cascadeBounds,
  createWindowStateStore,
  decideSecondLaunch,
  initialBounds,
  MAX_WINDOWS_SAVED,
  windowsAtStart,
  type Rectangle,
  type StartWindow,
  type WindowPlace,
  type WindowStateStore,
} from './window-state'
import { launchFolder } from './workspace'

/** Log files rotate at this size (electron-log's default is 1 MB, a few hours of a busy team). */
const LOG_FILE_BYTES = 5 * 1024 * 1024

/**
 * Main's log in the app's log folder (electron-log's default: ~/.config/<app>/logs on Linux,
 * ~/Library/Logs/<app> on macOS), rotated, with console.warn/error routed to it. Called first at
 * start, so that nothing main says is lost. Returns the log file's path.
 */
export function setUpLogging(): string {
  log.transports.file.maxSize = LOG_FILE_BYTES
  log.transports.file.archiveLogFn = (file) => rotateLogFile(file.path)
  routeConsole(console, log)
  log.errorHandler.startCatching({ showDialog: false })
  return log.transports.file.getFile().path
}

/** The part of AppService the shell uses. */
export interface ShellService {
  execute(name: string, params: unknown): Promise<unknown>
  onEvent(listener: (event: HostEvent) => void): Disposable
}

/** A window to open at start: its folder, its bounds on today's displays, its saved place. */
export interface PlannedWindow extends StartWindow {
  readonly bounds: Rectangle
}

export interface DesktopShell {
  /** The windows to open at start: the launch's folder, else every window of the last quit. */
  readonly startWindows: readonly PlannedWindow[]
  /** Bounds for a window opened later (New Window, a second launch): a step from the last. */
  nextBounds(): Rectangle
  /**
   * Takes a new window and its team: menu, links, context menu, crash recovery, notifications,
   * badge, place, and the question before closing it while its agents work. `place` restores
   * its maximized or full-screen mode once it has painted.
   */
  manage(window: BrowserWindow, service: ShellService, place: WindowPlace | null): void
  /** app 'second-instance': focus the window with the folder, or open it. */
  secondLaunch(argv: readonly string[], cwd: string): void
  /** app 'before-quit': true when the quit is held to ask the person first. */
  holdQuit(event: { preventDefault(): void }): boolean
}

function displays(): { all: Rectangle[]; primary: Rectangle } {
  return {
    all: screen.getAllDisplays().map((display) => display.workArea),
    primary: screen.getPrimaryDisplay().workArea,
  }
}

export interface DesktopShellOptions {
  readonly logFile: string
  /** Whether a URL is the app's own page (app-location's check). */
  readonly isAppUrl: (url: string) => boolean
  /** This launch's command line and folder (process.argv, process.cwd()). */
  readonly argv: readonly string[]
  readonly cwd: string
  /** Sends main's own events (menu commands, notices) to a window's page. */
  readonly ipc: Pick<IpcAdapter, 'send'>
  /** Opens a new window with its own team, for this folder or on its first-run screen. */
  readonly openWindow: (workspace: string | undefined) => void
}

/** The desktop shell: menu, notifications, window state, second launch. Call after `ready`. */
export function createDesktopShell(options: DesktopShellOptions): DesktopShell {
  return new ElectronDesktopShell(options)
}

/** A message box on the window when there is one, else on its own. */
function ask(
  parent: BrowserWindow | undefined,
  options: Electron.MessageBoxOptions,
): Promise<Electron.MessageBoxReturnValue> {
  return parent !== undefined && !parent.isDestroyed()
    ? dialog.showMessageBox(parent, options)
    : dialog.showMessageBox(options)
}

/** One window and what the shell knows of its team. */
interface ManagedWindow {
  readonly window: BrowserWindow
  readonly service: ShellService
  /** What the team's events say waits on the person. */
  attention: AttentionState
  /** The folder its team has open. */
  workspace: string | null
  /** Set once the person said Close while its agents worked: the close goes ahead. */
  closeConfirmed: boolean
}

/**
 * The shell's state over the app's life: the windows, in order of use (the most recent first),
 * each with its team's attention state and folder. Every decision is a pure module's; this
 * class holds the state and calls Electron.
 */
class ElectronDesktopShell implements DesktopShell {
  readonly startWindows: readonly PlannedWindow[]
  private readonly store: WindowStateStore
  private windows: ManagedWindow[] = []
  private quitConfirmed = false
  /** The count last shown on the dock or taskbar. */
  private badge = 0
  /** Kept until clicked or closed: a collected Notification loses its click handler. */
  private readonly shown = new Set<Notification>()

  constructor(private readonly options: DesktopShellOptions) {
    this.store = createWindowStateStore(join(app.getPath('userData'), 'window-state.json'))
    const screens = displays()
    this.startWindows = windowsAtStart(
      launchFolder(options.argv, options.cwd, app.isPackaged),
      this.store.load(),
      existsSync,
    ).map((start) => ({
      ...start,
      bounds: initialBounds(start.place, screens.all, screens.primary),
    }))
  }

  nextBounds(): Rectangle {
    const last = this.windows[0]?.window
    const screens = displays()
    return cascadeBounds(
      last === undefined || last.isDestroyed() ? null : last.getNormalBounds(),
      screens.all,
      screens.primary,
    )
  }

  manage(window: BrowserWindow, service: ShellService, place: WindowPlace | null): void {
    const managed: ManagedWindow = {
      window,
      service,
      attention: emptyAttention,
      workspace: null,
      closeConfirmed: false,
    }
    this.windows.unshift(managed)
    // Maximizing a hidden window shows it early on some platforms: wait for its first frame.
    window.once('ready-to-show', () => restoreWindowMode(window, place))
    manageWindow(window, {
      isAppUrl: this.options.isAppUrl,
      send: (contents, event) => this.options.ipc.send(contents, event),
      placeChanged: () => this.savePlaces(),
      holdClose: () => this.holdClose(managed),
    })
    window.on('focus', () => {
      this.windows = [managed, ...this.windows.filter((other) => other !== managed)]
      this.savePlaces()
      this.rebuildMenu()
    })
    const subscription = service.onEvent((event) => this.onEvent(managed, event))
    window.once('closed', () => {
      subscription.dispose()
      this.windows = this.windows.filter((other) => other !== managed)
      // The last window's place stays saved: the next launch opens it again.
      if (this.windows.length > 0) this.savePlaces()
      else this.store.flush()
      this.updateBadge()
      this.rebuildMenu()
    })
    this.savePlaces()
    this.rebuildMenu()
  }

  secondLaunch(argv: readonly string[], cwd: string): void {
    const decision = decideSecondLaunch(
      launchFolder(argv, cwd, app.isPackaged),
      this.windows.map((managed) => ({
        id: managed.window.webContents.id,
        workspace: managed.workspace,
      })),
    )
    if (decision.kind === 'new-window') {
      this.options.openWindow(decision.path)
      return
    }
    const target = this.windows.find((managed) => managed.window.webContents.id === decision.window)
    if (target === undefined) return
    focusWindow(target.window)
    if (decision.kind === 'open-here')
      this.send(target, { kind: 'open-recent', path: decision.path })
  }

  holdQuit(event: { preventDefault(): void }): boolean {
    // Quitting ends with app.exit(), which skips the windows' close: save their places now.
    this.savePlaces()
    this.store.flush()
    if (this.quitConfirmed) return false
    const question = quitQuestion(
      this.windows.map((managed) => managed.attention),
      'quit',
    )
    if (question === null) return false
    event.preventDefault()
    void ask(this.windows[0]?.window, {
      type: 'question',
      buttons: ['Quit', 'Cancel'],
      defaultId: 1,
      cancelId: 1,
      ...question,
    }).then(({ response }) => {
      if (response !== 0) return
      this.quitConfirmed = true
      app.quit()
    })
    return true
  }

  /** Closing a window closes its team: asks "Close / Cancel" first while its agents work. */
  private holdClose(managed: ManagedWindow): boolean {
    this.store.flush()
    if (this.quitConfirmed || managed.closeConfirmed) return false
    const question = quitQuestion([managed.attention], 'close')
    if (question === null) return false
    void ask(managed.window, {
      type: 'question',
      buttons: ['Close', 'Cancel'],
      defaultId: 1,
      cancelId: 1,
      ...question,
    }).then(({ response }) => {
      if (response !== 0 || managed.window.isDestroyed()) return
      managed.closeConfirmed = true
      managed.window.close()
    })
    return true
  }

  /** Every open window's place, the most recently used first. */
  private savePlaces(): void {
    const open = this.windows.filter((managed) => !managed.window.isDestroyed())
    if (open.length === 0) return
    this.store.save({
      version: 2,
      windows: open
        .slice(0, MAX_WINDOWS_SAVED)
        .map((managed) => placeOf(managed.window, managed.workspace)),
    })
  }

  /** A command for a window's page (a `menu-command` event). */
  private send(managed: ManagedWindow | undefined, command: MenuCommand): void {
    if (managed === undefined || managed.window.isDestroyed()) return
    this.options.ipc.send(managed.window.webContents, { type: 'menu-command', command })
  }

  private onEvent(managed: ManagedWindow, event: HostEvent): void {
    const window = managed.window
    const focused = !window.isDestroyed() && window.isFocused()
    const observed = observe(managed.attention, event, { focused })
    managed.attention = observed.state
    for (const notification of observed.notifications) this.notify(managed, notification)
    this.updateBadge()
    if (event.type === 'workspace-opened' || event.type === 'workspace-closed') {
      managed.workspace = event.type === 'workspace-opened' ? event.snapshot.workspace : null
      this.savePlaces()
      this.rebuildMenu()
    }
  }

  /** The dock or taskbar badge: what waits on the person in every window. */
  private updateBadge(): void {
    const count = this.windows.reduce((sum, managed) => sum + badgeCount(managed.attention), 0)
    if (count !== this.badge) {
      this.badge = count
      app.setBadgeCount(count)
    }
  }

  private notify(managed: ManagedWindow, notification: DesktopNotification): void {
    if (!Notification.isSupported()) return
    const shown = new Notification({ title: notification.title, body: notification.body })
    this.shown.add(shown)
    shown.on('click', () => {
      this.shown.delete(shown)
      if (managed.window.isDestroyed()) return
      focusWindow(managed.window)
      this.send(managed, { kind: 'show-agent', name: notification.agent })
    })
    shown.on('close', () => this.shown.delete(shown))
    shown.show()
  }

  /**
   * The menu acts on the most recently used window: rebuilt when another comes forward. The
   * recent folders are the same for every window (one recent.json): any team can list them.
   */
  private rebuildMenu(): void {
    const source = this.windows[0]?.service
    const recent = source
      ? source.execute('getRecentWorkspaces', {}).then((result) => {
          return (result as { paths: string[] }).paths
        })
      : Promise.resolve([])
    void recent
      .then((paths) => Menu.setApplicationMenu(Menu.buildFromTemplate(this.menuTemplate(paths))))
      .catch((error: unknown) => console.warn('[menu] could not build the menu:', error))
  }

  private menuTemplate(recent: readonly string[]): Electron.MenuItemConstructorOptions[] {
    const logFile = this.options.logFile
    return buildMenuTemplate({
      platform: process.platform,
      isPackaged: app.isPackaged,
      appName: app.getName(),
      recent,
      hasWorkspace: (this.windows[0]?.workspace ?? null) !== null,
      actions: {
        send: (command) => this.send(this.windows[0], command),
        newWindow: () => this.options.openWindow(undefined),
        openDocumentation: () => {
          if (!openDocumentation()) this.send(this.windows[0], { kind: 'show-shortcuts' })
        },
        showLogFile: () => shell.showItemInFolder(logFile),
        showAbout: () => showAbout(this.windows[0]?.window, logFile),
      },
    })
  }
}

function focusWindow(window: BrowserWindow): void {
  if (window.isDestroyed()) return
  if (window.isMinimized()) window.restore()
  window.show()
  window.focus()
}

/** Opens the README that ships beside the app's code; false where there is none. */
function openDocumentation(): boolean {
  const readme = join(app.getAppPath(), 'README.md')
  if (!existsSync(readme)) return false
  void shell.openPath(readme)
  return true
}

function showAbout(parent: BrowserWindow | undefined, logFile: string): void {
  void ask(parent, {
    type: 'info',
    message: app.getName(),
    detail: aboutDetail({
      name: app.getName(),
      version: app.getVersion(),
      electron: process.versions.electron ?? '',
      chrome: process.versions.chrome ?? '',
      node: process.versions.node,
      logFile,
    }),
  })
}
