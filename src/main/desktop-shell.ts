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

/** The desktop shell: menu, notifications, window state, second launch. Call after `ready`. */
export function createDesktopShell(options: {
  readonly logFile: string
  /** Whether a URL is the app's own page (app-location's check). */
  readonly isAppUrl: (url: string) => boolean
  /** This launch's command line and folder (process.argv, process.cwd()). */
  readonly argv: readonly string[]
  readonly cwd: string
}): DesktopShell {
  const store = createWindowStateStore(join(app.getPath('userData'), 'window-state.json'))
  const saved: WindowState | null = store.load()
  const screens = displays()
  let attention: AttentionState = emptyAttention
  let workspace: string | null = null
  let window: BrowserWindow | undefined
  let savePlace: () => void = () => undefined
  let send: (command: MenuCommand) => void = () => undefined
  let quitConfirmed = false
  let service: ShellService | undefined
  let ipc: IpcAdapter | undefined
  const shown = new Set<Notification>()

  const focusWindow = (): void => {
    if (window === undefined || window.isDestroyed()) return
    if (window.isMinimized()) window.restore()
    window.show()
    window.focus()
  }

  async function rebuildMenu(): Promise<void> {
    const recent = service
      ? ((await service.execute('getRecentWorkspaces', {})) as { paths: string[] }).paths
      : []
    const template = buildMenuTemplate({
      platform: process.platform,
      isPackaged: app.isPackaged,
      appName: app.getName(),
      recent,
      hasWorkspace: workspace !== null,
      actions: {
        send: (command) => send(command),
        openDocumentation: () => {
          if (!openDocumentation()) send({ kind: 'show-shortcuts' })
        },
        showLogFile: () => shell.showItemInFolder(options.logFile),
        showAbout: () => showAbout(window, options.logFile),
      },
    })
    Menu.setApplicationMenu(Menu.buildFromTemplate(template))
  }

  function notify(notification: DesktopNotification): void {
    if (!Notification.isSupported()) return
    const shownNotification = new Notification({
      title: notification.title,
      body: notification.body,
    })
    // Kept until clicked or closed: a collected Notification loses its click handler.
    shown.add(shownNotification)
    shownNotification.on('click', () => {
      shown.delete(shownNotification)
      focusWindow()
      send({ kind: 'show-agent', name: notification.agent })
    })
    shownNotification.on('close', () => shown.delete(shownNotification))
    shownNotification.show()
  }

  function onEvent(event: HostEvent): void {
    const focused = window !== undefined && !window.isDestroyed() && window.isFocused()
    const observed = observe(attention, event, { focused })
    const before = badgeCount(attention)
    attention = observed.state
    for (const notification of observed.notifications) notify(notification)
    if (badgeCount(attention) !== before) app.setBadgeCount(badgeCount(attention))
    if (event.type === 'workspace-opened' || event.type === 'workspace-closed') {
      workspace = event.type === 'workspace-opened' ? event.snapshot.workspace : null
      savePlace()
      void rebuildMenu().catch((error: unknown) => console.warn('[menu] rebuild failed:', error))
    }
  }

  /** Asks "Quit / Cancel" while agents work; on Quit, quits for real. */
  function holdToAsk(parent: BrowserWindow | undefined): boolean {
    const question = quitQuestion(attention)
    if (quitConfirmed || question === null) return false
    const ask = {
      type: 'question' as const,
      buttons: ['Quit', 'Cancel'],
      defaultId: 1,
      cancelId: 1,
    }
    const answer =
      parent !== undefined && !parent.isDestroyed()
        ? dialog.showMessageBox(parent, { ...ask, ...question })
        : dialog.showMessageBox({ ...ask, ...question })
    void answer.then(({ response }) => {
      if (response !== 0) return
      quitConfirmed = true
      app.quit()
    })
    return true
  }

  return {
    startWorkspace: workspaceAtStart(
      launchFolder(options.argv, options.cwd, app.isPackaged),
      saved?.workspace ?? null,
      existsSync,
    ),
    bounds: initialBounds(saved, screens.all, screens.primary),
    attachService(attached, adapter) {
      service = attached
      ipc = adapter
      send = (command) => {
        if (window !== undefined && !window.isDestroyed())
          adapter.send(window.webContents, { type: 'menu-command', command })
      }
      attached.onEvent(onEvent)
      void rebuildMenu().catch((error: unknown) => console.warn('[menu] build failed:', error))
    },
    manage(managed) {
      window = managed
      // Maximizing a hidden window shows it early on some platforms: wait for its first frame.
      managed.once('ready-to-show', () => restoreWindowMode(managed, saved))
      savePlace = manageWindow(managed, {
        isAppUrl: options.isAppUrl,
        send: (contents, event) => ipc?.send(contents, event),
        store,
        workspace: () => workspace,
        // On macOS closing the window leaves the app and the team running: nothing to ask.
        holdClose: (closing) =>
          process.platform !== 'darwin' &&
          BrowserWindow.getAllWindows().length <= 1 &&
          holdToAsk(closing),
      }).savePlace
    },
    secondLaunch(argv, cwd) {
      focusWindow()
      const decision = decideSecondLaunch(launchFolder(argv, cwd, app.isPackaged), workspace)
      if (decision.kind === 'open') send({ kind: 'open-recent', path: decision.path })
      if (decision.kind !== 'ask-to-switch') return
      const ask = {
        type: 'question' as const,
        buttons: ['Open', 'Cancel'],
        defaultId: 0,
        cancelId: 1,
        message: `Open ${decision.path}?`,
        detail: `This closes the team in ${decision.current}; it comes back when you open that folder again.`,
      }
      const answer =
        window !== undefined && !window.isDestroyed()
          ? dialog.showMessageBox(window, ask)
          : dialog.showMessageBox(ask)
      void answer.then(({ response }) => {
        if (response === 0) send({ kind: 'open-recent', path: decision.path })
      })
    },
    holdQuit(event) {
      // Quitting ends with app.exit(), which skips the window's close: save its place now.
      store.flush()
      if (!holdToAsk(window)) return false
      event.preventDefault()
      return true
    },
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
  const options = {
    type: 'info' as const,
    message: app.getName(),
    detail: aboutDetail({
      name: app.getName(),
      version: app.getVersion(),
      electron: process.versions.electron ?? '',
      chrome: process.versions.chrome ?? '',
      node: process.versions.node,
      logFile,
    }),
  }
  if (parent !== undefined && !parent.isDestroyed()) void dialog.showMessageBox(parent, options)
  else void dialog.showMessageBox(options)
}
