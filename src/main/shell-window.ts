import { clipboard, dialog, Menu, shell, type BrowserWindow, type WebContents } from 'electron'
import type { HostEvent } from '../shared/contract'
import {
  buildContextMenuTemplate,
  contextTargetScript,
  noContextTarget,
  parseContextTarget,
} from './context-menu'
import { installLinkPolicy } from './links'
import { troublePrompt, type PageTrouble } from './page-trouble'
import type { WindowPlace } from './window-state'

/** What one window's shell behaviour needs from the app. */
export interface ShellWindowOptions {
  readonly isAppUrl: (url: string) => boolean
  /** Sends an event of main's own to this window's page. */
  readonly send: (contents: WebContents, event: HostEvent) => void
  /** The window moved, resized or changed mode: its place is to be saved. */
  readonly placeChanged: () => void
  /** Asks before closing while agents work: true when it held the close to ask. */
  readonly holdClose: (window: BrowserWindow) => boolean
}

/**
 * The desktop behaviour of one window, wired to Electron: links go through the link policy,
 * right-click opens the context menu, a crashed or hung page offers Reload, a change of its
 * place is reported, and closing it while agents work asks first. Every decision is in a pure
 * module; this file only connects them to Electron's events.
 */
export function manageWindow(window: BrowserWindow, options: ShellWindowOptions): void {
  const contents = window.webContents
  installLinkPolicy(contents, {
    isAppUrl: options.isAppUrl,
    openExternal: (url) => shell.openExternal(url),
    notify: options.send,
  })
  contents.on('context-menu', (_event, params) => void showContextMenu(window, params))
  const offerReload = reloadOffer(window)
  contents.on('render-process-gone', (_event, details) =>
    offerReload({ kind: 'gone', reason: details.reason, exitCode: details.exitCode }),
  )
  window.on('unresponsive', () => offerReload({ kind: 'unresponsive' }))
  for (const change of [
    'resize',
    'move',
    'maximize',
    'unmaximize',
    'enter-full-screen',
    'leave-full-screen',
  ] as const)
    window.on(change as 'resize', options.placeChanged)
  window.on('close', (event) => {
    if (options.holdClose(window)) event.preventDefault()
  })
}

/** Opens a window where its saved place says: maximized or full screen as it was left. */
export function restoreWindowMode(window: BrowserWindow, place: WindowPlace | null): void {
  if (place?.maximized === true) window.maximize()
  if (place?.fullScreen === true) window.setFullScreen(true)
}

/** Where a window is now, and the folder it has open, as window-state.json keeps it. */
export function placeOf(window: BrowserWindow, workspace: string | null): WindowPlace {
  const bounds = window.getNormalBounds()
  return {
    bounds: {
      x: Math.round(bounds.x),
      y: Math.round(bounds.y),
      width: Math.max(1, Math.round(bounds.width)),
      height: Math.max(1, Math.round(bounds.height)),
    },
    maximized: window.isMaximized(),
    fullScreen: window.isFullScreen(),
    workspace,
  }
}

async function showContextMenu(
  window: BrowserWindow,
  params: Electron.ContextMenuParams,
): Promise<void> {
  const contents = window.webContents
  const target = await contents
    .executeJavaScript(contextTargetScript(params.x, params.y, contents.getZoomFactor()))
    .then(parseContextTarget, () => noContextTarget)
  const template = buildContextMenuTemplate(params, target, {
    copyText: (text) => clipboard.writeText(text),
    replaceMisspelling: (word) => contents.replaceMisspelling(word),
    addToDictionary: (word) => contents.session.addWordToSpellCheckerDictionary(word),
  })
  if (template.length > 0 && !window.isDestroyed())
    Menu.buildFromTemplate(template).popup({ window })
}

/** Asks Reload / Close (or Wait) when the page crashed or hung; one question at a time. */
function reloadOffer(window: BrowserWindow): (trouble: PageTrouble) => void {
  let asking = false
  return (trouble) => {
    const prompt = troublePrompt(trouble)
    console.error(`[window] page trouble: ${JSON.stringify(trouble)}`)
    // A hung page keeps reporting itself: the open question answers all of it.
    if (prompt === null || asking || window.isDestroyed()) return
    asking = true
    const { reload, ...options } = prompt
    void dialog
      .showMessageBox(window, options)
      .then(({ response }) => {
        if (window.isDestroyed()) return
        if (response === reload) window.webContents.reload()
        else if (trouble.kind === 'gone') window.close()
      })
      .finally(() => {
        asking = false
      })
  }
}
