// A recording stand-in for the 'electron' module, for the main-process smoke test: the built
// out/main/index.js runs under plain Node (no Electron binary) in a child process, and this
// module records every call it makes and sends each record to the test over the fork's IPC
// channel. The test drives it with messages: 'ready' fires app's ready, 'invoke' calls an
// ipcMain handler as a page would, 'emit-app' emits an app event, 'navigate', 'window-open'
// and 'protocol-request' exercise what main registered.
//
// It knows only the APIs listed below. Any other property of a stand-in object is reported to
// the test (which then fails) and throws, so that main cannot use an API this file does not
// imitate and pass silently. Where Electron refuses a call at a given time (a BrowserWindow or
// a protocol handler before ready, scheme privileges after it), the stand-in refuses it too.
// To let main use a new API, add it here with the behaviour Electron documents.
import { EventEmitter } from 'node:events'

if (typeof process.send !== 'function') {
  throw new Error('The electron stand-in runs only in a child forked with an IPC channel')
}

let sequence = 0
let ready = false
/** Sends to the test, in order; process.send queues, so records never overtake each other. */
const send = (message) => process.send(message)

function serializable(value, depth = 0) {
  if (typeof value === 'function') return '[function]'
  if (value === undefined || value === null || typeof value !== 'object') return value ?? null
  if (depth > 4) return '[deep]'
  if (value instanceof EventEmitter) return '[emitter]'
  if (Array.isArray(value)) return value.map((item) => serializable(item, depth + 1))
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, serializable(item, depth + 1)]),
  )
}

function record(api, ...args) {
  sequence += 1
  send({ type: 'record', record: { seq: sequence, api, ready, args: serializable(args) } })
}

/** Reports a misuse Electron would refuse, and throws as Electron does. */
function refuse(api, message) {
  send({ type: 'misuse', api, message })
  throw new Error(`${api}: ${message}`)
}

const EMITTER_METHODS = new Set([
  'on',
  'once',
  'off',
  'addListener',
  'removeListener',
  'removeAllListeners',
  'emit',
  'listeners',
  'listenerCount',
  'prependListener',
])

/** Wraps `target` so that reading any property it does not know reports and throws. */
function strict(name, target, { emitter = false } = {}) {
  return new Proxy(target, {
    get(object, property, receiver) {
      if (typeof property === 'symbol' || property === 'then' || property === 'toJSON') {
        return Reflect.get(object, property, receiver)
      }
      if (property in object && (emitter || !EMITTER_METHODS.has(property))) {
        return Reflect.get(object, property, receiver)
      }
      const api = `${name}.${String(property)}`
      send({ type: 'unknown-api', api })
      throw new Error(`The electron stand-in does not know ${api}`)
    },
  })
}

/** An Electron event object: preventDefault is recorded so the test can see it was called. */
function fakeEvent(api) {
  const event = {
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true
      record(`${api}:preventDefault`)
    },
  }
  return event
}

// --- app --------------------------------------------------------------------------------------

let resolveReady
const whenReady = new Promise((resolve) => (resolveReady = resolve))
const appEmitter = new EventEmitter()

function exitProcess(code) {
  // Exits once this last message, and so every record queued before it, has been written.
  process.send({ type: 'exit', code }, () => process.exit(code))
}

const appTarget = Object.assign(appEmitter, {
  isPackaged: false,
  enableSandbox() {
    record('app.enableSandbox')
    if (ready) refuse('app.enableSandbox', 'must be called before the app is ready')
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
    return ready
  },
  getPath(name) {
    record('app.getPath', name)
    if (name === 'userData') return process.env.STAND_IN_USER_DATA
    return refuse('app.getPath', `the stand-in has no folder for "${name}"`)
  },
  getVersion() {
    record('app.getVersion')
    return '0.0.0-stand-in'
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

// --- webContents and BrowserWindow --------------------------------------------------------------

let nextWebContentsId = 1

function createWebContents() {
  const id = nextWebContentsId++
  let windowOpenHandler
  let destroyed = false
  const target = Object.assign(new EventEmitter(), {
    id,
    setWindowOpenHandler(handler) {
      record('webContents.setWindowOpenHandler')
      windowOpenHandler = handler
    },
    send(channel, ...args) {
      // Only the event types: text deltas would flood the record otherwise.
      const types = Array.isArray(args[0]) ? args[0].map((event) => event?.type) : []
      record('webContents.send', channel, types)
    },
    isDestroyed() {
      return destroyed
    },
    destroy() {
      destroyed = true
      target.emit('destroyed')
    },
    windowOpenHandler: () => windowOpenHandler,
  })
  return strict('webContents', target, { emitter: true })
}

const windows = []

class BrowserWindow extends EventEmitter {
  constructor(options) {
    super()
    record('new BrowserWindow', options)
    if (!ready) refuse('new BrowserWindow', 'Cannot create BrowserWindow before app is ready')
    this.options = options
    this.webContents = createWebContents()
    this.destroyed = false
    windows.push(this)
    const window = strict('BrowserWindow', this, { emitter: true })
    appEmitter.emit('web-contents-created', fakeEvent('app.web-contents-created'), this.webContents)
    return window
  }
  static getAllWindows() {
    record('BrowserWindow.getAllWindows')
    return windows.filter((window) => !window.destroyed)
  }
  loadURL(url) {
    record('BrowserWindow.loadURL', url)
    return Promise.resolve()
  }
  show() {
    record('BrowserWindow.show')
  }
  isMinimized() {
    return false
  }
  restore() {
    record('BrowserWindow.restore')
  }
  focus() {
    record('BrowserWindow.focus')
  }
  isDestroyed() {
    return this.destroyed
  }
}

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
    if (!ready)
      refuse('session.defaultSession', 'the default session exists only once the app is ready')
    defaultSession ??= createSession()
    return defaultSession
  },
})

const protocolHandlers = new Map()
const protocol = strict('protocol', {
  registerSchemesAsPrivileged(schemes) {
    record('protocol.registerSchemesAsPrivileged', schemes)
    if (ready)
      refuse('protocol.registerSchemesAsPrivileged', 'must be called before the app is ready')
  },
  handle(scheme, handler) {
    record('protocol.handle', scheme)
    if (!ready) refuse('protocol.handle', 'must be called after the app is ready')
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
const ipcMain = strict('ipcMain', {
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
})

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

// No OS secret store here, as on a Linux machine without a keyring.
const safeStorage = strict('safeStorage', {
  isEncryptionAvailable() {
    record('safeStorage.isEncryptionAvailable')
    return false
  },
  getSelectedStorageBackend() {
    record('safeStorage.getSelectedStorageBackend')
    return 'basic_text'
  },
  encryptString() {
    return refuse('safeStorage.encryptString', 'Encryption is not available.')
  },
  decryptString() {
    return refuse('safeStorage.decryptString', 'Decryption is not available.')
  },
})

// --- what the test asks for ---------------------------------------------------------------------

const commands = {
  ready() {
    ready = true
    appEmitter.emit('ready', fakeEvent('app.ready'), {})
    resolveReady()
    return {}
  },
  async invoke({ channel, params, senderUrl }) {
    const handler = ipcHandlers.get(channel)
    if (handler === undefined) throw new Error(`No handler registered for '${channel}'`)
    const sender = windows[0]?.webContents
    return handler({ senderFrame: { url: senderUrl }, sender }, structuredClone(params))
  },
  'emit-app'({ event }) {
    const fake = fakeEvent(`app.${event}`)
    appEmitter.emit(event, fake)
    return { defaultPrevented: fake.defaultPrevented }
  },
  navigate({ url }) {
    const fake = fakeEvent('webContents.will-navigate')
    windows[0].webContents.emit('will-navigate', fake, url)
    return { defaultPrevented: fake.defaultPrevented }
  },
  'window-open'({ url }) {
    return windows[0].webContents.windowOpenHandler()({ url })
  },
  permission({ permission }) {
    return new Promise((resolve) => {
      sessionHandlers.permissionRequest(windows[0].webContents, permission, resolve, {})
    }).then((granted) => ({ granted, checked: sessionHandlers.permissionCheck() }))
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

export { app, BrowserWindow, dialog, ipcMain, protocol, safeStorage, session }
export default { app, BrowserWindow, dialog, ipcMain, protocol, safeStorage, session }
