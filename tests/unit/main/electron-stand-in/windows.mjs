// The stand-in's BrowserWindow, webContents and screen. A window keeps its bounds and its
// maximized, full-screen, visible and focused state, and emits the events Electron emits when
// they change; the test raises what only a page or the person can cause (the first paint, a
// crash, a lost focus) through the requests in electron.mjs.
import { EventEmitter } from 'node:events'
import { appEmitter, fakeEvent, lifecycle, record, refuse, strict } from './recording.mjs'

let nextWebContentsId = 1
/** What the page answers to main's next executeJavaScript calls, in order (see 'context-menu'). */
export const pageAnswers = []

/** What webContents.send carried on the app's event channel: types, and main's own events whole. */
function summarizeEvents(payload) {
  if (!Array.isArray(payload)) return []
  const kept = new Set(['menu-command', 'desktop-notice', 'team-alert'])
  // Only the types of the team's events: text deltas would flood the record otherwise.
  return payload.map((event) => (kept.has(event?.type) ? event : { type: event?.type }))
}

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
      record('webContents.send', channel, summarizeEvents(args[0]))
    },
    reload() {
      record('webContents.reload')
    },
    /** There is no page to run the code in: it resolves with what the test says the page answers. */
    executeJavaScript(code) {
      record('webContents.executeJavaScript')
      if (typeof code !== 'string') refuse('webContents.executeJavaScript', 'code must be a string')
      return Promise.resolve(pageAnswers.shift() ?? null)
    },
    getZoomFactor() {
      return 1
    },
    replaceMisspelling(word) {
      record('webContents.replaceMisspelling', word)
    },
    isDestroyed() {
      return destroyed
    },
    isCrashed() {
      return false
    },
    destroy() {
      destroyed = true
      target.emit('destroyed')
    },
    windowOpenHandler: () => windowOpenHandler,
  })
  return strict('webContents', target, { emitter: true })
}

export const windows = []

class BrowserWindow extends EventEmitter {
  constructor(options = {}) {
    super()
    record('new BrowserWindow', options)
    if (!lifecycle.ready)
      refuse('new BrowserWindow', 'Cannot create BrowserWindow before app is ready')
    this.options = options
    const width = options.width ?? 800
    const height = options.height ?? 600
    const area = primaryDisplay().workArea
    // Without x and y Electron centres the window on the primary display.
    this.bounds = {
      x: options.x ?? area.x + Math.round((area.width - width) / 2),
      y: options.y ?? area.y + Math.round((area.height - height) / 2),
      width,
      height,
    }
    this.maximized = false
    this.fullScreen = false
    this.visible = options.show !== false
    this.focused = this.visible
    this.destroyed = false
    this.webContents = createWebContents()
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
  /** Shows the window and gives it focus. */
  show() {
    record('BrowserWindow.show')
    if (!this.visible) {
      this.visible = true
      this.emit('show')
    }
    this.focus()
  }
  /** Focuses this window; the one focused before loses focus, as on a desktop. */
  focus() {
    record('BrowserWindow.focus')
    if (this.focused) return
    for (const other of windows)
      if (other !== this && other.focused && !other.destroyed) {
        other.focused = false
        other.emit('blur')
      }
    this.focused = true
    this.emit('focus')
  }
  /**
   * Electron's close: 'close' may be prevented (main asks first); otherwise the window and its
   * page are destroyed, 'closed' follows, and with the last window gone the app hears
   * 'window-all-closed'.
   */
  close() {
    record('BrowserWindow.close')
    if (this.destroyed) return
    const event = fakeEvent('BrowserWindow.close')
    this.emit('close', event)
    if (event.defaultPrevented) return
    this.destroyed = true
    this.focused = false
    this.webContents.destroy()
    this.emit('closed')
    if (windows.every((window) => window.destroyed))
      appEmitter.emit('window-all-closed', fakeEvent('app.window-all-closed'))
  }
  blur() {
    record('BrowserWindow.blur')
    if (!this.focused) return
    this.focused = false
    this.emit('blur')
  }
  isFocused() {
    return this.focused
  }
  isVisible() {
    return this.visible
  }
  isMinimized() {
    return false
  }
  restore() {
    record('BrowserWindow.restore')
  }
  /** Maximizes, and shows the window if it was hidden, as Electron does. */
  maximize() {
    record('BrowserWindow.maximize')
    if (!this.visible) this.show()
    if (this.maximized) return
    this.maximized = true
    this.emit('maximize')
  }
  isMaximized() {
    return this.maximized
  }
  setFullScreen(flag) {
    record('BrowserWindow.setFullScreen', flag)
    if (this.fullScreen === flag) return
    this.fullScreen = flag
    this.emit(flag ? 'enter-full-screen' : 'leave-full-screen')
  }
  isFullScreen() {
    return this.fullScreen
  }
  getBounds() {
    return { ...this.bounds }
  }
  /** The bounds of the normal state, whatever the window's state (maximized, full screen). */
  getNormalBounds() {
    return { ...this.bounds }
  }
  isDestroyed() {
    return this.destroyed
  }
}
export const BrowserWindowApi = BrowserWindow

// --- screen -------------------------------------------------------------------------------------

/**
 * The displays, from STAND_IN_DISPLAYS (a JSON array of { bounds, workArea }, the first one
 * primary) or one 1920×1080 screen with a 40-pixel panel, as a laptop on its own would report.
 */
function configuredDisplays() {
  const given = process.env.STAND_IN_DISPLAYS
  const layout =
    given === undefined || given === ''
      ? [
          {
            bounds: { x: 0, y: 0, width: 1920, height: 1080 },
            workArea: { x: 0, y: 0, width: 1920, height: 1040 },
          },
        ]
      : JSON.parse(given)
  return layout.map((display, index) =>
    strict('Display', {
      id: index + 1,
      label: `Stand-in display ${index + 1}`,
      bounds: display.bounds,
      workArea: display.workArea,
      size: { width: display.bounds.width, height: display.bounds.height },
      workAreaSize: { width: display.workArea.width, height: display.workArea.height },
      scaleFactor: 1,
      rotation: 0,
      internal: index === 0,
    }),
  )
}
const displays = configuredDisplays()

function primaryDisplay() {
  return displays[0]
}

function intersection(a, b) {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)
  return width > 0 && height > 0 ? width * height : 0
}

/** Electron's screen module exists only once the app is ready. */
function requireReady(api) {
  if (!lifecycle.ready) refuse(api, 'the screen module cannot be used before the app is ready')
}

export const screen = strict('screen', {
  getAllDisplays() {
    record('screen.getAllDisplays')
    requireReady('screen.getAllDisplays')
    return [...displays]
  },
  getPrimaryDisplay() {
    record('screen.getPrimaryDisplay')
    requireReady('screen.getPrimaryDisplay')
    return primaryDisplay()
  },
  /** The display that most closely intersects the rectangle (the primary when none does). */
  getDisplayMatching(rect) {
    record('screen.getDisplayMatching', rect)
    requireReady('screen.getDisplayMatching')
    const best = displays.reduce((found, display) =>
      intersection(display.bounds, rect) > intersection(found.bounds, rect) ? display : found,
    )
    return intersection(best.bounds, rect) > 0 ? best : primaryDisplay()
  },
})
