import { mkdirSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { z } from 'zod'
import { writeFileAtomicSync } from '../runtime/fs/durable'

/** More windows than this at a quit are not worth reopening all at once. */
export const MAX_WINDOWS_SAVED = 20

const rectangleSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(1),
  height: z.number().int().min(1),
})
export type Rectangle = z.infer<typeof rectangleSchema>

/** One window's place: its normal bounds, its mode, and the folder it had open. */
export const windowPlaceSchema = z.object({
  /** The normal (not maximized) bounds, so that un-maximizing after a restart goes back there. */
  bounds: rectangleSchema,
  maximized: z.boolean(),
  fullScreen: z.boolean(),
  workspace: z.string().min(1).nullable(),
})
export type WindowPlace = z.infer<typeof windowPlaceSchema>

/**
 * window-state.json in the app's userData, version 2: every window open at the last quit, the
 * most recently used first. Version 1 (one window) is read as a list of one.
 */
export const windowStateSchema = z.object({
  version: z.literal(2),
  windows: z.array(windowPlaceSchema).max(MAX_WINDOWS_SAVED),
})
export type WindowState = z.infer<typeof windowStateSchema>

const windowStateV1Schema = windowPlaceSchema.extend({ version: z.literal(1) })

export const DEFAULT_SIZE = { width: 1200, height: 800 } as const
/** The window's own minimum (BrowserWindow minWidth/minHeight). */
export const MIN_SIZE = { width: 720, height: 480 } as const
/** How much of a saved window must lie on a display for it to be reachable there. */
const VISIBLE_MARGIN = { width: 120, height: 60 } as const

/** The saved state, or null when there is none or it cannot be read (the defaults apply). */
export function parseWindowState(text: string): WindowState | null {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return null
  }
  const parsed = windowStateSchema.safeParse(json)
  if (parsed.success) return parsed.data
  const old = windowStateV1Schema.safeParse(json)
  if (!old.success) return null
  const { version: _version, ...place } = old.data
  return { version: 2, windows: [place] }
}

function overlap(a: Rectangle, b: Rectangle): { width: number; height: number } {
  return {
    width: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    height: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  }
}

function fitInside(bounds: Rectangle, area: Rectangle): Rectangle {
  const width = Math.min(bounds.width, area.width)
  const height = Math.min(bounds.height, area.height)
  return {
    width,
    height,
    x: Math.min(Math.max(bounds.x, area.x), area.x + area.width - width),
    y: Math.min(Math.max(bounds.y, area.y), area.y + area.height - height),
  }
}

/**
 * Where a saved window may open: on the display that still shows enough of it (moved fully
 * inside that display's work area, shrunk if it is larger); otherwise, when its monitor is gone
 * or the layout changed, centred on the primary display. Displays are their work areas.
 */
export function placeOnDisplays(
  saved: Rectangle,
  displays: readonly Rectangle[],
  primary: Rectangle,
): Rectangle {
  const host = displays.find((area) => {
    const shared = overlap(saved, area)
    return shared.width >= VISIBLE_MARGIN.width && shared.height >= VISIBLE_MARGIN.height
  })
  if (host !== undefined) return fitInside(saved, host)
  const width = Math.min(saved.width, primary.width)
  const height = Math.min(saved.height, primary.height)
  return {
    width,
    height,
    x: primary.x + Math.round((primary.width - width) / 2),
    y: primary.y + Math.round((primary.height - height) / 2),
  }
}

/** The bounds to open a window with: the saved ones placed on today's displays, or centred. */
export function initialBounds(
  place: WindowPlace | null,
  displays: readonly Rectangle[],
  primary: Rectangle,
): Rectangle {
  if (place === null) return placeOnDisplays({ x: 0, y: 0, ...DEFAULT_SIZE }, [], primary)
  return placeOnDisplays(place.bounds, displays, primary)
}

/** How far a new window opens from the one it follows, so that it does not hide it exactly. */
const CASCADE = 28

/** A new window's bounds: the default size, or the last window's, a step down and right. */
export function cascadeBounds(
  last: Rectangle | null,
  displays: readonly Rectangle[],
  primary: Rectangle,
): Rectangle {
  if (last === null) return initialBounds(null, displays, primary)
  return placeOnDisplays(
    { ...last, x: last.x + CASCADE, y: last.y + CASCADE },
    displays.length > 0 ? displays : [primary],
    primary,
  )
}

/** A window to open at start: where it was (null: anywhere), and its folder. */
export interface StartWindow {
  readonly place: WindowPlace | null
  readonly workspace: string | undefined
}

/**
 * The windows to open at start. A launch that names a folder opens that folder alone, in the
 * last used window's place. Otherwise every window open at the last quit comes back, each with
 * its folder if that still exists (a folder deleted since is no error worth a dialog at start);
 * always at least one window.
 */
export function windowsAtStart(
  requested: string | undefined,
  saved: WindowState | null,
  exists: (path: string) => boolean,
): StartWindow[] {
  const places = saved?.windows ?? []
  if (requested !== undefined) return [{ place: places[0] ?? null, workspace: requested }]
  if (places.length === 0) return [{ place: null, workspace: undefined }]
  const seen = new Set<string>()
  return places.map((place) => {
    const folder = place.workspace
    // One window per workspace: a file edited by hand to list one twice opens it once.
    const usable = folder !== null && exists(folder) && !seen.has(folder)
    if (usable) seen.add(folder)
    return { place, workspace: usable ? folder : undefined }
  })
}

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

export interface WindowStateStore {
  /** What was saved, or null (none yet, or unreadable: never a reason not to start). */
  load(): WindowState | null
  /** Saves soon: moves and resizes come many a second, the file is written once they settle. */
  save(state: WindowState): void
  /** Writes a pending save now (on close and quit). */
  flush(): void
  /** Drops the timer; a pending save is written first. */
  dispose(): void
}

export const SAVE_DELAY_MS = 500

/**
 * The window state file, written atomically (temp file, fsync, rename), so that a crash while
 * saving leaves the old state or the new one, never a torn file that loses the window's place.
 */
export function createWindowStateStore(
  path: string,
  timers: Timers = globalThis as unknown as Timers,
  delayMs = SAVE_DELAY_MS,
): WindowStateStore {
  let pending: WindowState | null = null
  let timer: unknown = null
  function write(): void {
    if (timer !== null) timers.clearTimeout(timer)
    timer = null
    const state = pending
    pending = null
    if (state === null) return
    try {
      mkdirSync(dirname(path), { recursive: true })
      writeFileAtomicSync(path, `${JSON.stringify(state, null, 2)}\n`)
    } catch (error) {
      // Losing the window's place is not worth a crash or a dialog: say so in the log.
      console.warn(`[window-state] could not save ${path}:`, error)
    }
  }
  return {
    load() {
      try {
        return parseWindowState(readFileSync(path, 'utf8'))
      } catch {
        return null
      }
    },
    save(state) {
      pending = state
      if (timer !== null) timers.clearTimeout(timer)
      timer = timers.setTimeout(write, delayMs)
    },
    flush: write,
    dispose: write,
  }
}

/** What a second launch of the app asks of the running one; windows are named by their id. */
export type SecondLaunch =
  | { readonly kind: 'focus'; readonly window: number }
  | { readonly kind: 'open-here'; readonly window: number; readonly path: string }
  | { readonly kind: 'new-window'; readonly path: string | undefined }

/** A window as the second launch sees it. */
export interface OpenWindow {
  readonly id: number
  /** The folder it has open (null: its first-run screen). */
  readonly workspace: string | null
}

/**
 * One window per workspace: a second launch with a folder already open in a window brings that
 * window forward; with a folder not open anywhere, opens it in the most recently used window if
 * that one has no folder yet, otherwise in a new window. Without a folder it brings the most
 * recently used window forward (a new one if there is none). `windows` is in order of use, the
 * most recent first.
 */
export function decideSecondLaunch(
  requested: string | undefined,
  windows: readonly OpenWindow[],
): SecondLaunch {
  const recent = windows[0]
  if (requested === undefined)
    return recent === undefined
      ? { kind: 'new-window', path: undefined }
      : { kind: 'focus', window: recent.id }
  const holder = windows.find((window) => window.workspace === requested)
  if (holder !== undefined) return { kind: 'focus', window: holder.id }
  if (recent !== undefined && recent.workspace === null)
    return { kind: 'open-here', window: recent.id, path: requested }
  return { kind: 'new-window', path: requested }
}
