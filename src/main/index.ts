import { join } from 'node:path'
import { app, BrowserWindow, session } from 'electron'
import icon from '../../resources/icon.png?asset'
import {
  developmentContentSecurityPolicy,
  productionContentSecurityPolicy,
} from '../shared/content-security-policy'
import { devServerLocation, fileLocation, isAppUrl, type AppLocation } from './app-location'
import { registerIpcHandlers } from './ipc'
import { denyAllPermissions, hardenWebContents, installContentSecurityPolicy } from './security'
import { resolveWorkspace } from './workspace'

const rendererIndexHtml = join(import.meta.dirname, '../renderer/index.html')
const preloadScript = join(import.meta.dirname, '../preload/index.cjs')

/** electron-vite dev sets ELECTRON_RENDERER_URL; a packaged app always loads the built file. */
function resolveAppLocation(): AppLocation {
  const devServerUrl = process.env.ELECTRON_RENDERER_URL
  if (devServerUrl !== undefined && devServerUrl !== '' && !app.isPackaged) {
    return devServerLocation(devServerUrl)
  }
  return fileLocation(rendererIndexHtml)
}

function createMainWindow(location: AppLocation): BrowserWindow {
  const window = new BrowserWindow({
    title: 'Agent Teams',
    width: 1200,
    height: 800,
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
  const loaded =
    location.kind === 'dev-server'
      ? window.loadURL(location.url)
      : window.loadFile(rendererIndexHtml)
  loaded.catch((error: unknown) => {
    console.error(`[main] could not load ${location.url}:`, error)
  })
  return window
}

function focus(window: BrowserWindow): void {
  if (window.isMinimized()) window.restore()
  window.focus()
}

function start(): void {
  const location = resolveAppLocation()
  const workspace = resolveWorkspace(process.argv, process.cwd())
  let mainWindow: BrowserWindow | undefined

  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, location))
  app.on('second-instance', () => {
    if (mainWindow !== undefined && !mainWindow.isDestroyed()) focus(mainWindow)
  })
  app.on('window-all-closed', () => {
    // On macOS an app stays active without windows until the person quits it explicitly.
    if (process.platform !== 'darwin') app.quit()
  })

  void app.whenReady().then(() => {
    const policy =
      location.kind === 'dev-server'
        ? developmentContentSecurityPolicy
        : productionContentSecurityPolicy
    installContentSecurityPolicy(session.defaultSession, policy)
    denyAllPermissions(session.defaultSession)
    const disposeIpc = registerIpcHandlers({
      isTrustedUrl: (url) => isAppUrl(location, url),
      getInfo: () => ({ version: app.getVersion(), workspace }),
    })
    app.once('will-quit', disposeIpc)

    mainWindow = createMainWindow(location)
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) mainWindow = createMainWindow(location)
    })
  })
}

// Sandbox every renderer, including any created without explicit webPreferences.
app.enableSandbox()

if (app.requestSingleInstanceLock()) {
  start()
} else {
  // Another instance owns the window; it is told through 'second-instance' and takes focus.
  app.quit()
}
