import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { app, BrowserWindow, dialog, Menu, Notification, screen, shell } from 'electron'
import log from 'electron-log/main'
import type { HostEvent } from '../shared/contract'
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
import { manageWindow, restoreWindowMode } from './shell-window'
import {
  createWindowStateStore,
  decideSecondLaunch,
  initialBounds,
  type Rectangle,
  type WindowState,
  type WindowStateStore,
} from './window-state'
import { launchFolder, workspaceAtStart } from './workspace'

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
  onEvent(listener: (event: HostEvent) => void): () => void
}

export interface DesktopShell {
  /** The folder to open at start: the launch's, else the last one still on disk. */
  readonly startWorkspace: string | undefined
  /** Bounds for the main window: where it was, on a display that still exists. */
  readonly bounds: Rectangle
  /** Wires the service's events (menu, badge, notifications); call once it exists. */
  attachService(service: ShellService, ipc: IpcAdapter): void
  /** Menu, links, context menu, crash recovery, place and close question for a new window. */
  manage(window: BrowserWindow): void
  /** app 'second-instance': focus, open the folder, or ask to switch. */
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

/**
 * The shell's state over the app's life: the one window, what the team's events say waits on
 * the person, the open folder. Every decision is a pure module's; this class holds the state
 * and calls Electron.
 */
class ElectronDesktopShell implements DesktopShell {
  readonly startWorkspace: string | undefined
  readonly bounds: Rectangle
  private readonly store: WindowStateStore
  private readonly saved: WindowState | null
  private attention: AttentionState = emptyAttention
  private workspace: string | null = null
  private window: BrowserWindow | undefined
  private savePlace: () => void = () => undefined
  private quitConfirmed = false
  private service: ShellService | undefined
  private ipc: IpcAdapter | undefined
  /** Kept until clicked or closed: a collected Notification loses its click handler. */
  private readonly shown = new Set<Notification>()

  constructor(private readonly options: DesktopShellOptions) {
    this.store = createWindowStateStore(join(app.getPath('userData'), 'window-state.json'))
    this.saved = this.store.load()
    const screens = displays()
    this.bounds = initialBounds(this.saved, screens.all, screens.primary)
    this.startWorkspace = workspaceAtStart(
      launchFolder(options.argv, options.cwd, app.isPackaged),
      this.saved?.workspace ?? null,
      existsSync,
    )
  }

  attachService(service: ShellService, ipc: IpcAdapter): void {
    this.service = service
    this.ipc = ipc
    service.onEvent((event) => this.onEvent(event))
    this.rebuildMenu()
  }

  manage(window: BrowserWindow): void {
    this.window = window
    // Maximizing a hidden window shows it early on some platforms: wait for its first frame.
    window.once('ready-to-show', () => restoreWindowMode(window, this.saved))
    this.savePlace = manageWindow(window, {
      isAppUrl: this.options.isAppUrl,
      send: (contents, event) => this.ipc?.send(contents, event),
      store: this.store,
      workspace: () => this.workspace,
      // On macOS closing the window leaves the app and the team running: nothing to ask.
      holdClose: (closing) =>
        process.platform !== 'darwin' &&
        BrowserWindow.getAllWindows().length <= 1 &&
        this.holdToAsk(closing),
    }).savePlace
  }

  secondLaunch(argv: readonly string[], cwd: string): void {
    this.focusWindow()
    const decision = decideSecondLaunch(launchFolder(argv, cwd, app.isPackaged), this.workspace)
    if (decision.kind === 'open') this.send({ kind: 'open-recent', path: decision.path })
    if (decision.kind !== 'ask-to-switch') return
    void ask(this.window, {
      type: 'question',
      buttons: ['Open', 'Cancel'],
      defaultId: 0,
      cancelId: 1,
      message: `Open ${decision.path}?`,
      detail: `This closes the team in ${decision.current}; it comes back when you open that folder again.`,
    }).then(({ response }) => {
      if (response === 0) this.send({ kind: 'open-recent', path: decision.path })
    })
  }

  holdQuit(event: { preventDefault(): void }): boolean {
    // Quitting ends with app.exit(), which skips the window's close: save its place now.
    this.store.flush()
    if (!this.holdToAsk(this.window)) return false
    event.preventDefault()
    return true
  }

  /** A command for the page (a `menu-command` event). */
  private send(command: MenuCommand): void {
    const window = this.window
    if (window !== undefined && !window.isDestroyed())
      this.ipc?.send(window.webContents, { type: 'menu-command', command })
  }

  private focusWindow(): void {
    const window = this.window
    if (window === undefined || window.isDestroyed()) return
    if (window.isMinimized()) window.restore()
    window.show()
    window.focus()
  }

  private onEvent(event: HostEvent): void {
    const window = this.window
    const focused = window !== undefined && !window.isDestroyed() && window.isFocused()
    const before = badgeCount(this.attention)
    const observed = observe(this.attention, event, { focused })
    this.attention = observed.state
    for (const notification of observed.notifications) this.notify(notification)
    if (badgeCount(this.attention) !== before) app.setBadgeCount(badgeCount(this.attention))
    if (event.type === 'workspace-opened' || event.type === 'workspace-closed') {
      this.workspace = event.type === 'workspace-opened' ? event.snapshot.workspace : null
      this.savePlace()
      this.rebuildMenu()
    }
  }

  private notify(notification: DesktopNotification): void {
    if (!Notification.isSupported()) return
    const shown = new Notification({ title: notification.title, body: notification.body })
    this.shown.add(shown)
    shown.on('click', () => {
      this.shown.delete(shown)
      this.focusWindow()
      this.send({ kind: 'show-agent', name: notification.agent })
    })
    shown.on('close', () => this.shown.delete(shown))
    shown.show()
  }

  private rebuildMenu(): void {
    const recent = this.service
      ? this.service.execute('getRecentWorkspaces', {}).then((result) => {
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
      hasWorkspace: this.workspace !== null,
      actions: {
        send: (command) => this.send(command),
        openDocumentation: () => {
          if (!openDocumentation()) this.send({ kind: 'show-shortcuts' })
        },
        showLogFile: () => shell.showItemInFolder(logFile),
        showAbout: () => showAbout(this.window, logFile),
      },
    })
  }

  /** Asks "Quit / Cancel" while agents work (true: held to ask); on Quit, quits for real. */
  private holdToAsk(parent: BrowserWindow | undefined): boolean {
    const question = quitQuestion(this.attention)
    if (this.quitConfirmed || question === null) return false
    void ask(parent, {
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
