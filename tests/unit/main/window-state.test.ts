import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  createWindowStateStore,
  decideSecondLaunch,
  initialBounds,
  parseWindowState,
  placeOnDisplays,
  type Timers,
  type WindowState,
} from '../../../src/main/window-state'

const primary = { x: 0, y: 0, width: 1920, height: 1040 }
const right = { x: 1920, y: 0, width: 2560, height: 1400 }

const state = (change: Partial<WindowState> = {}): WindowState => ({
  version: 1,
  bounds: { x: 2100, y: 100, width: 1400, height: 900 },
  maximized: false,
  fullScreen: false,
  workspace: '/home/dana/stats',
  ...change,
})

describe('placing a saved window on today’s displays', () => {
  it('keeps a window where it was when its display is still there', () => {
    expect(placeOnDisplays(state().bounds, [primary, right], primary)).toEqual(state().bounds)
  })

  it('brings a window whose monitor is gone back on the primary display, centred', () => {
    expect(placeOnDisplays(state().bounds, [primary], primary)).toEqual({
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
    expect(parseWindowState(JSON.stringify(state()))).toEqual(state())
    expect(parseWindowState('{"version":2}')).toBeNull()
    expect(parseWindowState('{ torn')).toBeNull()
    expect(parseWindowState(JSON.stringify({ ...state(), bounds: { x: 0 } }))).toBeNull()
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
    expect(store.load()?.bounds.x).toBe(49)
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

describe('a second launch', () => {
  it('without a folder, or with the open one, brings the window forward', () => {
    expect(decideSecondLaunch(undefined, '/a')).toEqual({ kind: 'focus' })
    expect(decideSecondLaunch('/a', '/a')).toEqual({ kind: 'focus' })
  })

  it('with a folder and none open, opens it in the window', () => {
    expect(decideSecondLaunch('/a', null)).toEqual({ kind: 'open', path: '/a' })
  })

  it('with another folder open, asks before switching', () => {
    expect(decideSecondLaunch('/b', '/a')).toEqual({
      kind: 'ask-to-switch',
      path: '/b',
      current: '/a',
    })
  })
})
