import { dirname, join, resolve as resolvePath } from 'node:path'
import { app, BrowserWindow, dialog, protocol, session, type OpenDialogOptions } from 'electron'
import icon from '../../resources/icon.png?asset'
import {
  developmentContentSecurityPolicy,
  productionContentSecurityPolicy,
} from '../shared/content-security-policy'
import { serializeError, TeamError } from '../shared/errors'
import { appProtocolLocation, devServerLocation, isAppUrl, type AppLocation } from './app-location'
import { registerAppScheme, serveAppProtocol } from './app-protocol'
import { createDesktopShell, setUpLogging, type DesktopShell } from './desktop-shell'
import { createIpcAdapter } from './ipc'
import { AppService } from '../app/app-service'
import { adoptLoginShellPath } from '../runtime/system/login-shell-path'
import { faultAlert, installProcessGuard } from '../runtime/system/process-guard'
import { onStopSignals } from '../runtime/system/stop-signals'
import { settingsPath } from '../runtime/model/config'
import { createSecretStore } from './secret-store'
import { denyAllPermissions, hardenWebContents, installContentSecurityPolicy } from './security'
import type { Rectangle, WindowPlace } from './window-state'

const rendererDirectory = join(import.meta.dirname, '../renderer')
const preloadScript = join(import.meta.dirname, '../preload/index.cjs')

/** How long quitting waits for the team to stop before it exits anyway. */
const CLOSE_TIMEOUT_MS = 5000

/** electron-vite dev sets ELECTRON_RENDERER_URL; otherwise the built page, on app://. */
function resolveAppLocation(): AppLocation {
  const devServerUrl = process.env.ELECTRON_RENDERER_URL
  if (devServerUrl !== undefined && devServerUrl !== '' && !app.isPackaged) {
    return devServerLocation(devServerUrl)
  }
  return appProtocolLocation()
}

function createWindow(
  location: AppLocation,
  bounds: { x: number; y: number; width: number; height: number },
): BrowserWindow {
  const window = new BrowserWindow({
    title: 'Agent Teams',
    ...bounds,
    minWidth: 720,
    minHeight: 480,
    // Shown once the first frame is painted, on the page's own background: no white flash.
    show: false,
    backgroundColor: '#0f1115',
    autoHideMenuBar: true,
    icon,
    webPreferences: {
      preload: preloadScript,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    },
  })
  window.once('ready-to-show', () => window.show())
  window.loadURL(location.url).catch((error: unknown) => {
    console.error(`[main] could not load ${location.url}:`, error)
  })
  return window
}

function focus(window: BrowserWindow): void {
  if (window.isDestroyed()) return
  if (window.isMinimized()) window.restore()
  window.show()
  window.focus()
}

/** The OS folder picker, attached to the window when there is one; null when cancelled. */
async function pickFolder(window: BrowserWindow | undefined): Promise<string | null> {
  const options: OpenDialogOptions = { properties: ['openDirectory', 'createDirectory'] }
  const result =
    window !== undefined && !window.isDestroyed()
      ? await dialog.showOpenDialog(window, options)
      : await dialog.showOpenDialog(options)
  return result.canceled ? null : (result.filePaths[0] ?? null)
}

/** The config folder the CLI and browser mode use too, shared by every window's team. */
function configDirectory(): string {
  // ~/.config/agent-teams, not userData (named after the product, and elsewhere on macOS): one
  // settings file for every way in.
  return dirname(settingsPath(process.env))
}

/**
 * Opens the folder a window was opened for; null when it opened, else why not. A folder that
 * cannot be opened (missing, or another runtime holds it) must not keep the window from
 * showing: it shows without one and says why. Opened through the command, not `create`, so
 * that a failed open leaves no half-made team behind.
 */
async function openAtStart(
  service: AppService,
  workspace: string | undefined,
): Promise<string | null> {
  if (workspace === undefined) return null
  try {
    await service.execute('openWorkspace', { path: workspace })
    return null
  } catch (error) {
    return serializeError(error).message
  }
}

async function closeWithin(services: readonly AppService[], timeoutMs: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      console.warn(`[main] the team did not stop within ${timeoutMs} ms; going on anyway`)
      resolve()
    }, timeoutMs)
  })
  try {
    await Promise.race([
      Promise.all(
        services.map((service) =>
          service.close().catch((error: unknown) => {
            console.error('[main] closing a team failed:', error)
          }),
        ),
      ),
      timeout,
    ])
  } finally {
    clearTimeout(timer)
  }
}

/** One window and its team: each window holds one workspace, and a workspace one window. */
interface Session {
  readonly window: BrowserWindow
  readonly service: AppService
  /** The folder its team has open, or is opening. */
  claim: string | null
}

function start(): void {
  const logFile = setUpLogging()
  // Asked at once, in parallel with Electron's start; awaited before the first agent can run.
  const loginPath = adoptLoginShellPath(process.env)
  const location = resolveAppLocation()
  const sessions = new Set<Session>()
  let desktopShell: DesktopShell | undefined
  let quitting = false
  // SIGINT or SIGTERM (a logout, `kill`) quits as the menu does, without asking: Electron's own
  // handling of them stops once anything in Node listens, and the sandbox runtime does from the
  // first sandboxed command on (stop-signals.ts). A second signal exits at once.
  let signalled = false
  onStopSignals(() => {
    signalled = true
    app.quit()
  })
  // One bug in one handler must not close the windows on every team: reported, not fatal.
  installProcessGuard((fault) => {
    console.error(`[main] internal error (${fault.origin}):`, fault.detail)
    for (const session of sessions) session.service.currentHost?.team.publish(faultAlert(fault))
  })
  // Registered before any window: each window's page is routed to its own team.
  const ipc = createIpcAdapter({ isTrustedUrl: (url) => isAppUrl(location, url) })
  // The key store is the same for every window (one settings file), made once.
  let secrets: ReturnType<typeof createSecretStore> | undefined

  /**
   * A workspace is open in one window only: opening it in another brings that one forward and
   * says so, instead of a second team fighting the first for the folder's lock. A window
   * claims its folder when the open is asked for, not when it has finished, so that two quick
   * opens of one folder cannot both pass.
   */
  const guarded = (owner: Session) => ({
    execute: async (name: string, params: unknown): Promise<unknown> => {
      if (name === 'closeWorkspace') owner.claim = null
      const path = openWorkspacePath(name, params)
      if (path === undefined) {
        const result = await owner.service.execute(name, params)
        // The demo's folder is new, made by the service: claimed once it is known.
        if (name === 'startDemo') owner.claim = (result as { workspace: string }).workspace
        // One settings file for every window: the other teams follow a new key or endpoint.
        if (name === 'saveSettings')
          for (const other of sessions)
            if (other !== owner)
              other.service.settingsChanged().catch((error: unknown) => {
                console.error('[main] a window could not follow the new settings:', error)
              })
        return result
      }
      const holder = [...sessions].find((other) => other !== owner && other.claim === path)
      if (holder !== undefined) {
        focus(holder.window)
        throw new TeamError(
          'workspace-busy',
          `${path} is open in another window; that window was brought forward.`,
        )
      }
      owner.claim = path
      try {
        return await owner.service.execute(name, params)
      } catch (error) {
        // A failed open leaves nothing open (the team before it was closed first).
        if (owner.claim === path) owner.claim = null
        throw error
      }
    },
    onEvent: (listener: Parameters<AppService['onEvent']>[0]) => owner.service.onEvent(listener),
  })

  /** Opens a window with its own team, on this folder or its first-run screen. */
  const openWindow = async (
    workspace: string | undefined,
    bounds: Rectangle,
    place: WindowPlace | null,
  ): Promise<void> => {
    if (quitting || desktopShell === undefined) return
    // The folder picker belongs to the window, made once the team exists.
    const picker: { window?: BrowserWindow } = {}
    secrets ??= createSecretStore(configDirectory())
    const service = await AppService.create({
      mode: 'electron',
      version: app.getVersion(),
      configDirectory: configDirectory(),
      secrets: await secrets,
      env: process.env,
      pickFolder: () => pickFolder(picker.window),
    })
    const window = createWindow(location, bounds)
    picker.window = window
    const session: Session = { window, service, claim: null }
    sessions.add(session)
    const commands = guarded(session)
    ipc.attach(window.webContents, commands)
    // Listening before the folder opens: the menu, the window's place and the badge follow
    // the team from its 'workspace-opened' on.
    desktopShell.manage(window, commands, place)
    window.once('closed', () => {
      sessions.delete(session)
      // Quitting closes every team itself, and waits for them.
      if (!quitting) void closeWithin([service], CLOSE_TIMEOUT_MS)
    })
    const problem = await openAtStart(commands as unknown as AppService, workspace)
    if (problem !== null && !window.isDestroyed()) {
      void dialog.showMessageBox(window, {
        type: 'error',
        message: `Could not open the workspace ${workspace ?? ''}`,
        detail: problem,
      })
    }
  }
  const openLater = (workspace: string | undefined): void => {
    const shell = desktopShell
    if (shell === undefined) return
    openWindow(workspace, shell.nextBounds(), null).catch(windowFailed)
  }

  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, location))
  app.on('second-instance', (_event, argv, cwd) => desktopShell?.secondLaunch(argv, cwd))
  app.on('window-all-closed', () => {
    // On macOS an app stays active without windows until the person quits it explicitly.
    if (process.platform !== 'darwin') app.quit()
  })
  app.on('before-quit', (event) => {
    // Agents at work: the person is asked first (Quit / Cancel); a Quit comes back here.
    if (!quitting && !signalled && desktopShell?.holdQuit(event) === true) return
    // Agents may be mid-write: hold the quit until every team has stopped and released its files.
    event.preventDefault()
    if (quitting) return
    quitting = true
    ipc.dispose()
    const services = [...sessions].map((session) => session.service)
    void closeWithin(services, CLOSE_TIMEOUT_MS).then(() => app.exit())
  })

  app
    .whenReady()
    .then(async () => {
      const policy =
        location.kind === 'dev-server'
          ? developmentContentSecurityPolicy
          : productionContentSecurityPolicy
      installContentSecurityPolicy(session.defaultSession, policy)
      if (location.kind === 'app-protocol') serveAppProtocol(protocol, rendererDirectory)
      denyAllPermissions(session.defaultSession)

      await loginPath
      const shell = createDesktopShell({
        logFile,
        isAppUrl: (url) => isAppUrl(location, url),
        argv: process.argv,
        cwd: process.cwd(),
        ipc,
        openWindow: openLater,
      })
      desktopShell = shell
      // The most recently used window is opened last, so that it ends up in front.
      for (const planned of [...shell.startWindows].reverse())
        await openWindow(planned.workspace, planned.bounds, planned.place)
      app.on('activate', () => {
        if (BrowserWindow.getAllWindows().length === 0) openLater(undefined)
      })
    })
    .catch((error: unknown) => {
      console.error('[main] could not start:', error)
      dialog.showErrorBox('Agent Teams could not start', serializeError(error).message)
      app.exit(1)
    })
}

/** A window opened after the start that could not be made: said, and the others go on. */
function windowFailed(error: unknown): void {
  console.error('[main] could not open a window:', error)
  dialog.showErrorBox('Agent Teams could not open a window', serializeError(error).message)
}

/** The folder an `openWorkspace` command asks for, resolved as the service resolves it. */
function openWorkspacePath(name: string, params: unknown): string | undefined {
  if (name !== 'openWorkspace' || typeof params !== 'object' || params === null) return undefined
  const path = (params as { path?: unknown }).path
  return typeof path === 'string' && path !== '' ? resolvePath(path) : undefined
}

// Sandbox every renderer, including any created without explicit webPreferences.
app.enableSandbox()
// The app: scheme's privileges are fixed when Chromium starts, so this precedes 'ready'.
registerAppScheme(protocol)

if (app.requestSingleInstanceLock()) {
  start()
} else {
  // Another instance owns the window; it is told through 'second-instance' and takes focus.
  app.quit()
}
