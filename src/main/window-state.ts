import { mkdirSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { z } from 'zod'
import { writeFileAtomicSync } from './runtime/fs/durable'

const rectangleSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(1),
  height: z.number().int().min(1),
})
export type Rectangle = z.infer<typeof rectangleSchema>

/** window-state.json in the app's userData: where the window was, and the folder it had open. */
export const windowStateSchema = z.object({
  version: z.literal(1),
  /** The normal (not maximized) bounds, so that un-maximizing after a restart goes back there. */
  bounds: rectangleSchema,
  maximized: z.boolean(),
  fullScreen: z.boolean(),
  workspace: z.string().min(1).nullable(),
})
export type WindowState = z.infer<typeof windowStateSchema>

export const DEFAULT_SIZE = { width: 1200, height: 800 } as const
/** The window's own minimum (BrowserWindow minWidth/minHeight). */
export const MIN_SIZE = { width: 720, height: 480 } as const
/** How much of a saved window must lie on a display for it to be reachable there. */
const VISIBLE_MARGIN = { width: 120, height: 60 } as const

/** The saved state, or null when there is none or it cannot be read (the defaults apply). */
export function parseWindowState(text: string): WindowState | null {
  try {
    const parsed = windowStateSchema.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
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
  state: WindowState | null,
  displays: readonly Rectangle[],
  primary: Rectangle,
): Rectangle {
  if (state === null) return placeOnDisplays({ x: 0, y: 0, ...DEFAULT_SIZE }, [], primary)
  return placeOnDisplays(state.bounds, displays, primary)
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

/** What a second launch of the app asks of the running one. */
export type SecondLaunch =
  | { readonly kind: 'focus' }
  | { readonly kind: 'open'; readonly path: string }
  /** Another folder is open: the app has one team per process, so the person chooses. */
  | { readonly kind: 'ask-to-switch'; readonly path: string; readonly current: string }

/**
 * The app runs one AppService (one team) per process, in one window. A second launch without a
 * folder, or with the folder already open, brings that window forward; with a folder and none
 * open, opens it there; with another folder open, asks before closing the open team for it.
 */
export function decideSecondLaunch(
  requested: string | undefined,
  current: string | null,
): SecondLaunch {
  if (requested === undefined || requested === current) return { kind: 'focus' }
  if (current === null) return { kind: 'open', path: requested }
  return { kind: 'ask-to-switch', path: requested, current }
}
