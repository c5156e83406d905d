import { dirname, join } from 'node:path'
import { app, BrowserWindow, dialog, protocol, session, type OpenDialogOptions } from 'electron'
import icon from '../../resources/icon.png?asset'
import {
  developmentContentSecurityPolicy,
  productionContentSecurityPolicy,
} from '../shared/content-security-policy'
import { serializeError } from '../shared/errors'
import { appProtocolLocation, devServerLocation, isAppUrl, type AppLocation } from './app-location'
import { registerAppScheme, serveAppProtocol } from './app-protocol'
import { createDesktopShell, setUpLogging, type DesktopShell } from './desktop-shell'
import { createIpcAdapter, type IpcAdapter } from './ipc'
import { AppService } from './runtime/app-service'
import { adoptLoginShellPath } from './runtime/login-shell-path'
import { faultAlert, installProcessGuard } from './runtime/process-guard'
import { settingsPath } from './runtime/model/config'
import { createSecretStore } from './secret-store'
import { denyAllPermissions, hardenWebContents, installContentSecurityPolicy } from './security'
import { DEFAULT_SIZE } from './window-state'

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

function createMainWindow(
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
  if (window.isMinimized()) window.restore()
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

/** The app service, in the config folder it shares with the CLI and browser mode. */
async function createService(currentWindow: () => BrowserWindow | undefined): Promise<AppService> {
  // The config folder the CLI and browser mode use too (~/.config/agent-teams), not userData
  // (named after the product, and elsewhere on macOS): one settings file for every way in.
  const configDirectory = dirname(settingsPath(process.env))
  return AppService.create({
    mode: 'electron',
    version: app.getVersion(),
    configDirectory,
    secrets: await createSecretStore(configDirectory),
    env: process.env,
    pickFolder: () => pickFolder(currentWindow()),
  })
}

/**
 * Opens the folder the launch asked for (or the one open at the last quit); null when it
 * opened, else why not. A folder that cannot be opened (missing, or another runtime holds it)
 * must not keep the app from starting: it starts without one and says why. Opened through the
 * command, not `create`, so that a failed open leaves no half-made service behind.
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

async function closeWithin(service: AppService, timeoutMs: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      console.warn(`[main] the team did not stop within ${timeoutMs} ms; quitting anyway`)
      resolve()
    }, timeoutMs)
  })
  try {
    await Promise.race([service.close(), timeout])
  } catch (error) {
    console.error('[main] closing the team failed:', error)
  } finally {
    clearTimeout(timer)
  }
}

function start(): void {
  const logFile = setUpLogging()
  // Asked at once, in parallel with Electron's start; awaited before the first agent can run.
  const loginPath = adoptLoginShellPath(process.env)
  const location = resolveAppLocation()
  let desktopShell: DesktopShell | undefined
  let mainWindow: BrowserWindow | undefined
  let running: { service: AppService; ipc: IpcAdapter } | undefined
  let quitting = false
  // One bug in one handler must not close the window on the whole team: reported, not fatal.
  installProcessGuard((fault) => {
    console.error(`[main] internal error (${fault.origin}):`, fault.detail)
    running?.service.currentHost?.team.publish(faultAlert(fault))
  })

  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, location))
  app.on('second-instance', (_event, argv, cwd) => {
    if (mainWindow !== undefined && !mainWindow.isDestroyed()) focus(mainWindow)
    desktopShell?.secondLaunch(argv, cwd)
  })
  app.on('window-all-closed', () => {
    // On macOS an app stays active without windows until the person quits it explicitly.
    if (process.platform !== 'darwin') app.quit()
  })
  app.on('before-quit', (event) => {
    // Agents at work: the person is asked first (Quit / Cancel); a Quit comes back here.
    if (!quitting && desktopShell?.holdQuit(event) === true) return
    if (running === undefined) return
    // Agents may be mid-write: hold the quit until the team has stopped and released its files.
    event.preventDefault()
    if (quitting) return
    quitting = true
    const { service, ipc } = running
    ipc.dispose()
    void closeWithin(service, CLOSE_TIMEOUT_MS).then(() => app.exit())
  })

  const openWindow = (ipc: IpcAdapter): BrowserWindow => {
    const window = createMainWindow(
      location,
      desktopShell?.bounds ?? { x: 0, y: 0, ...DEFAULT_SIZE },
    )
    ipc.attach(window.webContents)
    desktopShell?.manage(window)
    mainWindow = window
    return window
  }

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
      desktopShell = createDesktopShell({
        logFile,
        isAppUrl: (url) => isAppUrl(location, url),
        argv: process.argv,
        cwd: process.cwd(),
      })
      const workspace = desktopShell.startWorkspace
      const service = await createService(() => mainWindow)
      const ipc = createIpcAdapter({ service, isTrustedUrl: (url) => isAppUrl(location, url) })
      running = { service, ipc }
      // Listening before the folder opens: the menu, the saved window state and the badge
      // follow the team from its 'workspace-opened' on.
      desktopShell.attachService(service, ipc)
      const openProblem = await openAtStart(service, workspace)

      const window = openWindow(ipc)
      if (openProblem !== null) {
        void dialog.showMessageBox(window, {
          type: 'error',
          message: `Could not open the workspace ${workspace ?? ''}`,
          detail: openProblem,
        })
      }
      app.on('activate', () => {
        if (BrowserWindow.getAllWindows().length === 0 && !quitting) openWindow(ipc)
      })
    })
    .catch((error: unknown) => {
      console.error('[main] could not start:', error)
      dialog.showErrorBox('Agent Teams could not start', serializeError(error).message)
      app.exit(1)
    })
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
