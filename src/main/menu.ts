import { basename } from 'node:path'
import type { MenuItemConstructorOptions } from 'electron'
import type { MenuCommand } from '../shared/desktop'

/** What the menu does beyond Electron's roles: commands for the window, and main's own. */
export interface MenuActions {
  /** A command the window acts on (delivered as a `menu-command` event). */
  send(command: MenuCommand): void
  /** Opens another window, on its first-run screen, for another folder. */
  newWindow(): void
  openDocumentation(): void
  showLogFile(): void
  showAbout(): void
}

export interface MenuOptions {
  readonly platform: NodeJS.Platform
  /** A packaged build has no Reload and no developer tools. */
  readonly isPackaged: boolean
  readonly appName: string
  /** Folders opened before, newest first (the list AppService keeps in recent.json). */
  readonly recent: readonly string[]
  readonly hasWorkspace: boolean
  readonly actions: MenuActions
}

/** Open Recent shows this many folders; the first-run screen lists the rest. */
export const RECENT_IN_MENU = 10

/**
 * The application menu as a template, from plain values: pure, so that every platform's menu
 * is tested without Electron. Items the page already answers by its own keyboard shortcuts
 * show their keys with `registerAccelerator: false`, so that one key press does not act twice.
 */
export function buildMenuTemplate(options: MenuOptions): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin'
  return [
    ...(mac ? [macAppMenu(options.appName, options.actions)] : []),
    fileMenu(options, mac),
    editMenu(),
    viewMenu(options),
    teamMenu(options),
    helpMenu(options, mac),
  ]
}

/**
 * macOS puts About, Hide and Quit under the app's own name. About is ours, not the role's
 * standard panel, so that it names the log file as it does elsewhere.
 */
function macAppMenu(appName: string, actions: MenuActions): MenuItemConstructorOptions {
  return {
    label: appName,
    role: 'appMenu',
    submenu: [
      { label: `About ${appName}`, click: () => actions.showAbout() },
      { type: 'separator' },
      { role: 'services' },
      { type: 'separator' },
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      { type: 'separator' },
      { role: 'quit' },
    ],
  }
}

function fileMenu(options: MenuOptions, mac: boolean): MenuItemConstructorOptions {
  const { actions } = options
  return {
    label: '&File',
    role: 'fileMenu',
    submenu: [
      {
        label: 'New Window',
        accelerator: 'CmdOrCtrl+Shift+N',
        click: () => actions.newWindow(),
      },
      { type: 'separator' },
      {
        label: 'Open Folder…',
        accelerator: 'CmdOrCtrl+O',
        registerAccelerator: false,
        click: () => actions.send({ kind: 'open-folder' }),
      },
      { label: 'Open Recent', submenu: recentMenu(options) },
      {
        label: 'Close Folder',
        enabled: options.hasWorkspace,
        click: () => actions.send({ kind: 'close-folder' }),
      },
      { type: 'separator' },
      mac ? { role: 'close' } : { role: 'quit' },
    ],
  }
}

function recentMenu(options: MenuOptions): MenuItemConstructorOptions[] {
  const folders = options.recent.slice(0, RECENT_IN_MENU)
  if (folders.length === 0) return [{ label: 'No recent folders', enabled: false }]
  return folders.map((path) => ({
    // The folder's name first, its place after: two projects named "app" stay apart.
    label: `${basename(path) || path} — ${path}`,
    click: () => options.actions.send({ kind: 'open-recent', path }),
  }))
}

/** The standard roles: undo, copy and paste work in every field, on every platform. */
function editMenu(): MenuItemConstructorOptions {
  return {
    label: '&Edit',
    role: 'editMenu',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { role: 'pasteAndMatchStyle' },
      { role: 'delete' },
      { role: 'selectAll' },
    ],
  }
}

function viewMenu(options: MenuOptions): MenuItemConstructorOptions {
  const { actions } = options
  const developer: MenuItemConstructorOptions[] = options.isPackaged
    ? []
    : [
        { role: 'reload' },
        { role: 'forceReload' },
        { role: 'toggleDevTools' },
        { type: 'separator' },
      ]
  return {
    label: '&View',
    role: 'viewMenu',
    submenu: [
      ...developer,
      {
        label: 'Toggle Roster',
        accelerator: 'CmdOrCtrl+B',
        registerAccelerator: false,
        enabled: options.hasWorkspace,
        click: () => actions.send({ kind: 'toggle-roster' }),
      },
      {
        label: 'Toggle Activity',
        accelerator: 'CmdOrCtrl+Shift+A',
        registerAccelerator: false,
        enabled: options.hasWorkspace,
        click: () => actions.send({ kind: 'toggle-activity' }),
      },
      {
        label: 'Toggle Timeline',
        accelerator: 'CmdOrCtrl+Shift+L',
        registerAccelerator: false,
        enabled: options.hasWorkspace,
        click: () => actions.send({ kind: 'toggle-timeline' }),
      },
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  }
}

function teamMenu(options: MenuOptions): MenuItemConstructorOptions {
  const { actions } = options
  return {
    label: '&Team',
    submenu: [
      {
        label: 'Spawn Teammate…',
        accelerator: 'CmdOrCtrl+N',
        registerAccelerator: false,
        enabled: options.hasWorkspace,
        click: () => actions.send({ kind: 'spawn-teammate' }),
      },
      {
        label: 'Search the Team…',
        accelerator: 'CmdOrCtrl+Shift+F',
        registerAccelerator: false,
        enabled: options.hasWorkspace,
        click: () => actions.send({ kind: 'search-team' }),
      },
      { type: 'separator' },
      {
        label: 'Stop All',
        enabled: options.hasWorkspace,
        click: () => actions.send({ kind: 'stop-all' }),
      },
      {
        label: 'Resume All',
        enabled: options.hasWorkspace,
        click: () => actions.send({ kind: 'resume-all' }),
      },
    ],
  }
}

function helpMenu(options: MenuOptions, mac: boolean): MenuItemConstructorOptions {
  const { actions } = options
  return {
    label: '&Help',
    role: 'help',
    submenu: [
      {
        label: 'Keyboard Shortcuts',
        accelerator: 'F1',
        registerAccelerator: false,
        click: () => actions.send({ kind: 'show-shortcuts' }),
      },
      { label: 'Documentation', click: () => actions.openDocumentation() },
      { label: 'Show Log File', click: () => actions.showLogFile() },
      // macOS has About in the app menu (the standard panel); elsewhere it lives here.
      ...(mac
        ? []
        : [{ type: 'separator' as const }, { label: 'About', click: () => actions.showAbout() }]),
    ],
  }
}
