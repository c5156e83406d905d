import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  cascadeBounds,
  createWindowStateStore,
  decideSecondLaunch,
  initialBounds,
  parseWindowState,
  placeOnDisplays,
  windowsAtStart,
  type Timers,
  type WindowPlace,
  type WindowState,
} from '../../../src/main/window-state'

const primary = { x: 0, y: 0, width: 1920, height: 1040 }
const right = { x: 1920, y: 0, width: 2560, height: 1400 }

const place = (change: Partial<WindowPlace> = {}): WindowPlace => ({
  bounds: { x: 2100, y: 100, width: 1400, height: 900 },
  maximized: false,
  fullScreen: false,
  workspace: '/home/dana/stats',
  ...change,
})
/** A saved state of one window with these changes, or of the windows given. */
const state = (change: Partial<WindowPlace> = {}, ...more: WindowPlace[]): WindowState => ({
  version: 2,
  windows: [place(change), ...more],
})

describe('placing a saved window on today’s displays', () => {
  it('keeps a window where it was when its display is still there', () => {
    expect(placeOnDisplays(place().bounds, [primary, right], primary)).toEqual(place().bounds)
  })

  it('brings a window whose monitor is gone back on the primary display, centred', () => {
    expect(placeOnDisplays(place().bounds, [primary], primary)).toEqual({
      x: 260,
      y: 70,
      width: 1400,
      height: 900,
    })
  })

  it('moves a window hanging off the edge fully inside, and shrinks one larger than the screen', () => {
    expect(
      placeOnDisplays({ x: 1700, y: -50, width: 800, height: 600 }, [primary], primary),
    ).toEqual({ x: 1120, y: 0, width: 800, height: 600 })
    expect(
      placeOnDisplays({ x: 10, y: 10, width: 4000, height: 3000 }, [primary], primary),
    ).toEqual(primary)
  })

  it('a sliver left on a display does not count as visible', () => {
    const sliver = { x: 1900, y: 100, width: 800, height: 600 }
    expect(placeOnDisplays(sliver, [primary], primary)).toEqual({
      x: 560,
      y: 220,
      width: 800,
      height: 600,
    })
  })

  it('without a saved state, opens at the default size centred on the primary display', () => {
    expect(initialBounds(null, [primary], primary)).toEqual({
      x: 360,
      y: 120,
      width: 1200,
      height: 800,
    })
  })
})

describe('reading the saved state', () => {
  it('accepts what the store writes, refuses anything else', () => {
    const two = state({}, place({ workspace: null }))
    expect(parseWindowState(JSON.stringify(two))).toEqual(two)
    expect(parseWindowState('{"version":2}')).toBeNull()
    expect(parseWindowState('{"version":3,"windows":[]}')).toBeNull()
    expect(parseWindowState('{ torn')).toBeNull()
    expect(parseWindowState(JSON.stringify(state({ bounds: { x: 0 } as never })))).toBeNull()
    const many = { version: 2, windows: Array.from({ length: 21 }, () => place()) }
    expect(parseWindowState(JSON.stringify(many))).toBeNull()
  })

  it('reads version 1 (one window) as a list of one', () => {
    expect(parseWindowState(JSON.stringify({ version: 1, ...place() }))).toEqual(state())
    expect(
      parseWindowState(JSON.stringify({ version: 1, ...place(), maximized: 'yes' })),
    ).toBeNull()
  })
})

/** Timers the test runs by hand. */
function manualTimers() {
  const pending = new Map<number, () => void>()
  let next = 1
  const timers: Timers = {
    setTimeout: (callback) => {
      pending.set(next, callback)
      return next++
    },
    clearTimeout: (handle) => pending.delete(handle as number),
  }
  return {
    timers,
    count: () => pending.size,
    runAll() {
      for (const [id, callback] of [...pending]) {
        pending.delete(id)
        callback()
      }
    },
  }
}

describe('the window state store', () => {
  let folder: string | undefined
  afterEach(() => {
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true })
  })

  it('writes once the moves settle, the last state only, atomically in a new folder', () => {
    folder = mkdtempSync(join(tmpdir(), 'agent-teams-window-'))
    const path = join(folder, 'userData', 'window-state.json')
    const clock = manualTimers()
    const store = createWindowStateStore(path, clock.timers)
    for (let x = 0; x < 50; x++) store.save(state({ bounds: { x, y: 0, width: 800, height: 600 } }))
    expect(clock.count()).toBe(1)
    expect(store.load()).toBeNull()
    clock.runAll()
    expect(store.load()?.windows[0]?.bounds.x).toBe(49)
    // Nothing but the file itself: the temp file was renamed over it.
    expect(readdirSync(join(folder, 'userData'))).toEqual(['window-state.json'])
  })

  it('flush writes a pending save at once; a second flush writes nothing new', () => {
    folder = mkdtempSync(join(tmpdir(), 'agent-teams-window-'))
    const path = join(folder, 'window-state.json')
    const clock = manualTimers()
    const store = createWindowStateStore(path, clock.timers)
    store.save(state({ maximized: true, workspace: null }))
    store.flush()
    expect(clock.count()).toBe(0)
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(
      state({ maximized: true, workspace: null }),
    )
    writeFileSync(path, 'changed by hand')
    store.dispose()
    expect(readFileSync(path, 'utf8')).toBe('changed by hand')
  })

  it('an unreadable or unwritable file never stops the app', () => {
    folder = mkdtempSync(join(tmpdir(), 'agent-teams-window-'))
    const path = join(folder, 'window-state.json')
    writeFileSync(path, '{ torn')
    const store = createWindowStateStore(join(path, 'below-a-file.json'), manualTimers().timers)
    expect(createWindowStateStore(path).load()).toBeNull()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    store.save(state())
    store.flush()
    expect(warn).toHaveBeenCalledTimes(1)
    warn.mockRestore()
  })
})

describe('the windows at start', () => {
  const exists = (path: string) => path !== '/gone'

  it('with no saved state, one window on its first-run screen', () => {
    expect(windowsAtStart(undefined, null, exists)).toEqual([{ place: null, workspace: undefined }])
  })

  it('reopens every saved window with its folder, a deleted folder as a first-run screen', () => {
    const saved = state({}, place({ workspace: '/gone' }), place({ workspace: null }))
    expect(windowsAtStart(undefined, saved, exists)).toEqual([
      { place: saved.windows[0], workspace: '/home/dana/stats' },
      { place: saved.windows[1], workspace: undefined },
      { place: saved.windows[2], workspace: undefined },
    ])
  })

  it('opens a folder listed twice once: one window per workspace', () => {
    const saved = state({}, place())
    expect(windowsAtStart(undefined, saved, exists).map((start) => start.workspace)).toEqual([
      '/home/dana/stats',
      undefined,
    ])
  })

  it('a launch naming a folder opens that one alone, where the last window was', () => {
    const saved = state({}, place({ workspace: '/b' }))
    expect(windowsAtStart('/web', saved, exists)).toEqual([
      { place: saved.windows[0], workspace: '/web' },
    ])
  })

  it('a new window opens a step from the last one, inside the display', () => {
    const last = { x: 100, y: 100, width: 1000, height: 700 }
    expect(cascadeBounds(last, [primary], primary)).toEqual({
      x: 128,
      y: 128,
      width: 1000,
      height: 700,
    })
    const corner = { x: 920, y: 340, width: 1000, height: 700 }
    expect(cascadeBounds(corner, [primary], primary)).toEqual(
      expect.objectContaining({ x: 920, y: 340 }),
    )
    expect(cascadeBounds(null, [primary], primary)).toEqual(initialBounds(null, [primary], primary))
  })
})

describe('a second launch', () => {
  const windows = [
    { id: 7, workspace: '/a' },
    { id: 3, workspace: null },
  ]

  it('without a folder brings the most recently used window forward', () => {
    expect(decideSecondLaunch(undefined, windows)).toEqual({ kind: 'focus', window: 7 })
    expect(decideSecondLaunch(undefined, [])).toEqual({ kind: 'new-window', path: undefined })
  })

  it('with a folder open in a window, brings that window forward', () => {
    expect(decideSecondLaunch('/a', windows)).toEqual({ kind: 'focus', window: 7 })
    expect(decideSecondLaunch('/a', [...windows].reverse())).toEqual({ kind: 'focus', window: 7 })
  })

  it('with a new folder, opens it in the last window if that one has none, else a new one', () => {
    expect(decideSecondLaunch('/b', windows)).toEqual({ kind: 'new-window', path: '/b' })
    expect(decideSecondLaunch('/b', [...windows].reverse())).toEqual({
      kind: 'open-here',
      window: 3,
      path: '/b',
    })
    expect(decideSecondLaunch('/b', [])).toEqual({ kind: 'new-window', path: '/b' })
  })
})
