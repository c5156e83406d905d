// The stand-in's menus, notifications, shell and clipboard: Menu.buildFromTemplate builds and
// checks a template as Electron does, and the test can read the application menu and click its
// items; notifications, shell and clipboard calls are recorded, never acted on.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { EventEmitter } from 'node:events'
import { fakeEvent, record, refuse, strict } from './recording.mjs'

/** The roles and item types Electron declares for MenuItemConstructorOptions (electron.d.ts). */
function declaredUnion(field) {
  const declarations = readFileSync(
    createRequire(import.meta.url).resolve('electron/electron.d.ts'),
    'utf8',
  )
  const start = declarations.indexOf('interface MenuItemConstructorOptions {')
  const body = declarations.slice(start, declarations.indexOf('\n  }', start))
  const line = body.match(new RegExp(`^\\s*${field}\\?: \\(('[^)]*')\\);$`, 'm'))
  if (start === -1 || line === null) throw new Error(`electron.d.ts declares no ${field} union`)
  return new Set([...line[1].matchAll(/'([^']+)'/g)].map((match) => match[1]))
}
const ROLES = declaredUnion('role')
const TYPES = declaredUnion('type')

let applicationMenu = null
/** The context menu shown last (Menu.popup). */
let lastPopup = null

class MenuItem {
  constructor(options) {
    if (options.role !== undefined && !ROLES.has(options.role))
      refuse('new MenuItem', `Invalid role: ${options.role}`)
    const type = options.type ?? (options.submenu === undefined ? 'normal' : 'submenu')
    if (!TYPES.has(type)) refuse('new MenuItem', `Unknown menu item type: ${type}`)
    this.label = options.label ?? ''
    this.role = options.role ?? null
    this.type = type
    this.enabled = options.enabled ?? true
    this.visible = options.visible ?? true
    this.accelerator = options.accelerator ?? null
    this.registerAccelerator = options.registerAccelerator ?? true
    this.click = options.click ?? null
    this.submenu =
      options.submenu === undefined
        ? null
        : options.submenu instanceof Menu
          ? options.submenu
          : buildFromTemplate(options.submenu)
  }
}

class Menu {
  constructor(items) {
    this.items = items
  }
  popup(options = {}) {
    shown(this, options)
  }
}

/** A context menu popped up: kept, so that the test can click its items. */
function shown(menu, options) {
  lastPopup = menu
  record('Menu.popup', describeMenu(menu), { window: options.window !== undefined })
}

/** Electron's check: an array of objects, each with a label, a role or a type. */
function buildFromTemplate(template) {
  if (!Array.isArray(template))
    refuse('Menu.buildFromTemplate', 'Invalid template for Menu: Menu template must be an array')
  const valid = template.every(
    (item) =>
      item !== null &&
      typeof item === 'object' &&
      ('label' in item || 'role' in item || item.type === 'separator'),
  )
  if (!valid)
    refuse(
      'Menu.buildFromTemplate',
      'Invalid template for MenuItem: must have at least one of label, role or type',
    )
  return strict('Menu', new Menu(template.map((item) => strict('MenuItem', new MenuItem(item)))))
}

/** A menu as plain data: what the person sees of each item. */
export function describeMenu(menu) {
  return menu.items.map((item) => ({
    label: item.label,
    role: item.role,
    type: item.type,
    enabled: item.enabled,
    accelerator: item.accelerator,
    submenu: item.submenu === null ? null : describeMenu(item.submenu),
  }))
}

const MenuStatics = Object.assign(Menu, {
  buildFromTemplate(template) {
    const menu = buildFromTemplate(template)
    record('Menu.buildFromTemplate')
    return menu
  },
  setApplicationMenu(menu) {
    if (menu !== null && !(menu instanceof Menu))
      refuse('Menu.setApplicationMenu', 'menu must be a Menu or null')
    applicationMenu = menu
    record('Menu.setApplicationMenu', menu === null ? null : describeMenu(menu))
  },
  getApplicationMenu() {
    return applicationMenu
  },
})
export const MenuApi = strict('Menu', MenuStatics)

/**
 * Clicks an item of the application menu by its labels (['Team', 'Stop All']) as Electron does:
 * `click(menuItem, focusedWindow, event)`, and only when the item is enabled.
 */
export function clickApplicationMenu(path, focusedWindow) {
  return clickItem(applicationMenu, path, focusedWindow)
}

/** Clicks an item of the context menu shown last. */
export function clickPopupMenu(path, focusedWindow) {
  return clickItem(lastPopup, path, focusedWindow)
}

function clickItem(menu, path, focusedWindow) {
  let items = menu?.items ?? []
  let item
  for (const label of path) {
    item = items.find((candidate) => candidate.label === label)
    if (item === undefined) throw new Error(`The menu has no item ${path.join(' > ')}`)
    items = item.submenu?.items ?? []
  }
  if (!item.enabled) return { clicked: false }
  if (typeof item.click !== 'function') throw new Error(`${path.join(' > ')} has no click`)
  item.click(item, focusedWindow, fakeEvent('MenuItem.click'))
  return { clicked: true }
}

// --- Notification --------------------------------------------------------------------------------

const notifications = []

class Notification extends EventEmitter {
  constructor(options = {}) {
    super()
    record('new Notification', options)
    this.title = options.title ?? ''
    this.body = options.body ?? ''
    notifications.push(this)
    return strict('Notification', this, { emitter: true })
  }
  static isSupported() {
    return true
  }
  show() {
    record('Notification.show', { title: this.title, body: this.body })
    this.emit('show', fakeEvent('Notification.show'))
  }
  close() {
    record('Notification.close', { title: this.title })
    this.emit('close', fakeEvent('Notification.close'))
  }
}
export const NotificationApi = strict('Notification', Notification)

/** The person clicks the newest notification shown. */
export function clickLastNotification() {
  const shown = notifications.at(-1)
  if (shown === undefined) throw new Error('No notification was shown')
  shown.emit('click', fakeEvent('Notification.click'))
  return { title: shown.title }
}

// --- shell and clipboard -------------------------------------------------------------------------

export const shell = strict('shell', {
  async openExternal(url) {
    record('shell.openExternal', url)
  },
  showItemInFolder(path) {
    record('shell.showItemInFolder', path)
  },
  async openPath(path) {
    record('shell.openPath', path)
    return ''
  },
})

export const clipboard = strict('clipboard', {
  writeText(text) {
    record('clipboard.writeText', text)
  },
})
