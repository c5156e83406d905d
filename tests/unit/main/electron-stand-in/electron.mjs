// A recording stand-in for the 'electron' module, for the main-process smoke tests: the built
// out/main/index.js runs under plain Node (no Electron binary) in a child process, and this
// module records every call it makes and sends each record to the test over the fork's IPC
// channel. The test drives it with messages: 'ready' fires app's ready, 'invoke' calls an
// ipcMain handler as a page would, 'emit-app' emits an app event, 'navigate', 'window-open',
// 'page-ready', 'page-gone', 'blur', 'menu-click', 'context-menu', 'popup-click',
// 'notification-click', 'focus', 'close-window' and 'protocol-request' do what a page, the
// person or Chromium would (on the window numbered `window` in the order they were made, the
// first by default);
// 'fault' raises an error nothing catches.
// Windows and screen live in windows.mjs, menus, notifications, shell and clipboard in
// desktop-apis.mjs, the shared recording in recording.mjs.
//
// It knows only the APIs it defines. Any other property of a stand-in object is reported to
// the test (which then fails) and throws, so that main cannot use an API the stand-in does not
// imitate and pass silently; that holds for packages main loads too (electron-log requires
// 'electron' and gets the same strict object). Where Electron refuses a call at a given time (a
// BrowserWindow, the screen or a protocol handler before ready, scheme privileges after it),
// the stand-in refuses it too. To let main use a new API, add it with the behaviour Electron
// documents.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  clickApplicationMenu,
  clickPopupMenu,
  clipboard,
  MenuApi as Menu,
  NotificationApi as Notification,
  shell,
  clickLastNotification,
} from './desktop-apis.mjs'
import {
  appEmitter,
  fakeEvent,
  lifecycle,
  record,
  refuse,
  send,
  serializable,
  strict,
} from './recording.mjs'
import { BrowserWindowApi as BrowserWindow, pageAnswers, screen, windows } from './windows.mjs'

// Electron's main process says what it is; electron-log (and the About box) read these.
Object.defineProperty(process.versions, 'electron', { value: '45.5.0', enumerable: true })
process.type = 'browser'

// A packaged app's command line has no app path: [executable, ...the person's arguments].
// Under Node, argv[1] is the script; as Electron does, a packaged start does not show it.
if (process.env.STAND_IN_PACKAGED === '1') process.argv.splice(1, 1)

// --- app --------------------------------------------------------------------------------------

let resolveReady
const whenReady = new Promise((resolve) => (resolveReady = resolve))

/** The app's name as Electron takes it: the productName, else the name, of its package.json. */
function packageName() {
  const manifest = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8'))
  return manifest.productName ?? manifest.name
}

function exitProcess(code) {
  // Exits once this last message, and so every record queued before it, has been written.
  process.send({ type: 'exit', code }, () => process.exit(code))
}

const appTarget = Object.assign(appEmitter, {
  // `electron .` from the project (electron-vite's dev and preview) unless the test says packaged.
  isPackaged: process.env.STAND_IN_PACKAGED === '1',
  name: packageName(),
  getName() {
    return appTarget.name
  },
  getAppPath() {
    return process.cwd()
  },
  enableSandbox() {
    record('app.enableSandbox')
    if (lifecycle.ready) refuse('app.enableSandbox', 'must be called before the app is ready')
  },
  requestSingleInstanceLock() {
    record('app.requestSingleInstanceLock')
    return true
  },
  whenReady() {
    record('app.whenReady')
    return whenReady
  },
  isReady() {
    return lifecycle.ready
  },
  /**
   * Electron's folders on Linux: appData is $XDG_CONFIG_HOME (else ~/.config), userData is
   * appData/<app name>, logs is userData/logs. The test always sets XDG_CONFIG_HOME, so that
   * nothing main writes lands in the real home folder.
   */
  getPath(name) {
    record('app.getPath', name)
    const appData = process.env.XDG_CONFIG_HOME
    if (appData === undefined || appData === '')
      return refuse('app.getPath', 'the stand-in needs XDG_CONFIG_HOME: it never uses ~/.config')
    const folders = { appData, userData: join(appData, appTarget.name) }
    folders.logs = join(folders.userData, 'logs')
    if (name in folders) return folders[name]
    return refuse('app.getPath', `the stand-in has no folder for "${name}"`)
  },
  getVersion() {
    record('app.getVersion')
    return '0.0.0-stand-in'
  },
  /** Electron answers whether the badge was set; Linux sets it only in Unity-like launchers. */
  setBadgeCount(count) {
    record('app.setBadgeCount', count)
    if (!Number.isInteger(count) || count < 0) refuse('app.setBadgeCount', 'count must be >= 0')
    return true
  },
  quit() {
    record('app.quit')
    const event = fakeEvent('app.before-quit')
    appEmitter.emit('before-quit', event)
    if (!event.defaultPrevented) exitProcess(0)
  },
  exit(code = 0) {
    record('app.exit', code)
    exitProcess(code)
  },
})
const app = strict('app', appTarget, { emitter: true })

// --- session, protocol, ipcMain, dialog, safeStorage --------------------------------------------

const sessionHandlers = {}

function createSession() {
  const webRequest = strict('session.webRequest', {
    onHeadersReceived(listener) {
      record('session.webRequest.onHeadersReceived')
      sessionHandlers.headersReceived = listener
    },
  })
  return strict('session', {
    webRequest,
    setPermissionRequestHandler(handler) {
      record('session.setPermissionRequestHandler')
      sessionHandlers.permissionRequest = handler
    },
    setPermissionCheckHandler(handler) {
      record('session.setPermissionCheckHandler')
      sessionHandlers.permissionCheck = handler
    },
  })
}

let defaultSession
const session = strict('session', {
  get defaultSession() {
    if (!lifecycle.ready)
      refuse('session.defaultSession', 'the default session exists only once the app is ready')
    defaultSession ??= createSession()
    return defaultSession
  },
})

const protocolHandlers = new Map()
const protocol = strict('protocol', {
  registerSchemesAsPrivileged(schemes) {
    record('protocol.registerSchemesAsPrivileged', schemes)
    if (lifecycle.ready)
      refuse('protocol.registerSchemesAsPrivileged', 'must be called before the app is ready')
  },
  handle(scheme, handler) {
    record('protocol.handle', scheme)
    if (!lifecycle.ready) refuse('protocol.handle', 'must be called after the app is ready')
    if (protocolHandlers.has(scheme)) refuse('protocol.handle', `${scheme} is already handled`)
    protocolHandlers.set(scheme, handler)
  },
  unhandle(scheme) {
    record('protocol.unhandle', scheme)
    protocolHandlers.delete(scheme)
  },
  isProtocolHandled(scheme) {
    return protocolHandlers.has(scheme)
  },
})

const ipcHandlers = new Map()
const ipcListeners = []
// ipcMain is an EventEmitter in Electron: `on` is its own, the rest refused.
const ipcMain = strict(
  'ipcMain',
  {
    handle(channel, handler) {
      record('ipcMain.handle', channel)
      if (ipcHandlers.has(channel)) {
        refuse('ipcMain.handle', `Attempted to register a second handler for '${channel}'`)
      }
      ipcHandlers.set(channel, handler)
    },
    removeHandler(channel) {
      record('ipcMain.removeHandler', channel)
      ipcHandlers.delete(channel)
    },
    /** ipcRenderer.send's messages; no page sends any here, so listeners are only kept. */
    on(channel, listener) {
      record('ipcMain.on', channel)
      ipcListeners.push({ channel, listener })
      return ipcMain
    },
  },
  { emitter: true },
)

const dialog = strict('dialog', {
  async showOpenDialog(...args) {
    record('dialog.showOpenDialog', args.at(-1))
    return { canceled: true, filePaths: [] }
  },
  async showMessageBox(...args) {
    record('dialog.showMessageBox', args.at(-1))
    return { response: 0, checkboxChecked: false }
  },
  showErrorBox(title, content) {
    record('dialog.showErrorBox', title, content)
  },
})

// A Linux machine without a keyring: Chromium falls back to its hard-coded key ('basic_text'),
// which Electron counts as available but protects nothing. The stand-in encrypts nothing: main
// must see the backend and keep the key in the settings file instead, so any encryption here
// is reported as the misuse it would be.
const safeStorage = strict('safeStorage', {
  /** Resolves once the OS store has been asked, which Electron does when the app is ready. */
  async isAsyncEncryptionAvailable() {
    record('safeStorage.isAsyncEncryptionAvailable')
    await whenReady
    return true
  },
  getSelectedStorageBackend() {
    record('safeStorage.getSelectedStorageBackend')
    // Electron knows the backend only once the app is ready.
    return lifecycle.ready ? 'basic_text' : 'unknown'
  },
  encryptStringAsync() {
    return Promise.reject(
      refuseLater('safeStorage.encryptStringAsync', 'the basic_text backend protects nothing'),
    )
  },
  decryptStringAsync() {
    return Promise.reject(
      refuseLater('safeStorage.decryptStringAsync', 'the basic_text backend protects nothing'),
    )
  },
})

/** A refusal delivered as a rejection, as Electron's asynchronous APIs fail. */
function refuseLater(api, message) {
  try {
    refuse(api, message)
  } catch (error) {
    return error
  }
}

// --- what the test asks for ---------------------------------------------------------------------

/** The window a request names (`window`: its place in the order windows were made). */
function windowOf(message) {
  const window = windows[message.window ?? 0]
  if (window === undefined) throw new Error(`there is no window ${message.window ?? 0}`)
  return window
}

const commands = {
  ready() {
    lifecycle.ready = true
    appEmitter.emit('ready', fakeEvent('app.ready'), {})
    resolveReady()
    return {}
  },
  async invoke(message) {
    const { channel, params, senderUrl } = message
    const handler = ipcHandlers.get(channel)
    if (handler === undefined) throw new Error(`No handler registered for '${channel}'`)
    const sender = windowOf(message).webContents
    return handler({ senderFrame: { url: senderUrl }, sender }, structuredClone(params))
  },
  'emit-app'({ event, args = [] }) {
    const fake = fakeEvent(`app.${event}`)
    appEmitter.emit(event, fake, ...args)
    return { defaultPrevented: fake.defaultPrevented }
  },
  navigate(message) {
    const fake = fakeEvent('webContents.will-navigate')
    windowOf(message).webContents.emit('will-navigate', fake, message.url)
    return { defaultPrevented: fake.defaultPrevented }
  },
  'window-open'(message) {
    return windowOf(message).webContents.windowOpenHandler()({ url: message.url })
  },
  permission({ permission }) {
    return new Promise((resolve) => {
      sessionHandlers.permissionRequest(windows[0].webContents, permission, resolve, {})
    }).then((granted) => ({
      granted,
      // As Electron calls it: (webContents, permission, requestingOrigin, details).
      checked: sessionHandlers.permissionCheck(windows[0].webContents, permission, '', {}),
    }))
  },
  /** The page paints its first frame. */
  'page-ready'(message) {
    const window = windowOf(message)
    window.emit('ready-to-show', fakeEvent('BrowserWindow.ready-to-show'))
    return { visible: window.isVisible(), focused: window.isFocused() }
  },
  /** The person switches to another application. */
  blur(message) {
    windowOf(message).blur()
    return {}
  },
  /** The person clicks on a window. */
  focus(message) {
    windowOf(message).focus()
    return {}
  },
  /** The person clicks a window's close button. */
  'close-window'(message) {
    const window = windowOf(message)
    window.close()
    return { closed: window.isDestroyed() }
  },
  /** How many windows are open, and the URL each loaded. */
  windows() {
    return { open: windows.filter((window) => !window.destroyed).length, made: windows.length }
  },
  'menu-click'(message) {
    return clickApplicationMenu(message.path, windowOf(message))
  },
  /** A right-click in the page: Chromium's params, and what the page tells main's script. */
  'context-menu'(message) {
    pageAnswers.push(message.pageAnswer)
    windowOf(message).webContents.emit(
      'context-menu',
      fakeEvent('webContents.context-menu'),
      message.params,
    )
    return {}
  },
  'popup-click'(message) {
    return clickPopupMenu(message.path, windowOf(message))
  },
  'notification-click'() {
    return clickLastNotification()
  },
  /** The page's renderer process ends (a crash, the OOM killer). */
  'page-gone'(message) {
    windowOf(message).webContents.emit('render-process-gone', fakeEvent('webContents.gone'), {
      reason: message.reason,
      exitCode: message.exitCode,
    })
    return {}
  },
  /** A fault nothing in main catches: a rejected promise, or an exception thrown from a timer. */
  fault({ kind, message }) {
    if (kind === 'rejection') void Promise.reject(new Error(message))
    else
      setImmediate(() => {
        throw new Error(message)
      })
    return {}
  },
  async 'protocol-request'({ scheme, url, method }) {
    const response = await protocolHandlers.get(scheme)(new Request(url, { method }))
    return {
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body: await response.text(),
    }
  },
}

process.on('message', (message) => {
  const command = commands[message.type]
  if (command === undefined) return
  Promise.resolve()
    .then(() => command(message))
    .then(
      (result) => send({ type: 'reply', id: message.id, result: serializable(result) }),
      (error) => send({ type: 'reply', id: message.id, error: String(error?.message ?? error) }),
    )
})

// After the importing module (out/main/index.js) has run its top level.
setImmediate(() => send({ type: 'loaded' }))

const electron = {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  ipcMain,
  Menu,
  Notification,
  protocol,
  safeStorage,
  screen,
  session,
  shell,
}
// `require('electron')` (electron-log's, from node_modules) gets this strict object, so a
// package's use of an API the stand-in does not imitate is reported as main's own would be. The
// renderer's modules are undefined in main's 'electron', as in Electron: packages probe for them
// (electron-log's preload checks for ipcRenderer).
const required = strict('electron', {
  ...electron,
  contextBridge: undefined,
  ipcRenderer: undefined,
  webFrame: undefined,
})
export {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  ipcMain,
  Menu,
  Notification,
  protocol,
  safeStorage,
  screen,
  session,
  shell,
  required as 'module.exports',
}
export default electron
