// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest'
import {
  PANE_INTERVAL_MS,
  PANES_PER_FRAME,
  PaneTextWriter,
  WRITE_INTERVAL_MS,
  type FrameScheduler,
  type PaneShown,
  type PaneSink,
} from '../../../src/renderer/activity/pane-text'
import {
  PANE_CHARACTERS,
  PANE_LINES,
  capacityFor,
  markdownTail,
} from '../../../src/renderer/activity/pane-tail'
import { createAppStore, type AppStore } from '../../../src/renderer/store/store'
import { agentView, fakeApi, snapshot } from './fake-api'

/**
 * Frames and timers that run only when the test says so, each step `ms` after the one before
 * (by default far enough apart that every pane may be written again): the timers due first,
 * then the frames asked for.
 */
function steppedFrames(): FrameScheduler & {
  step(ms?: number): void
  readonly waiting: number
  readonly requested: number
} {
  const callbacks = new Map<number, () => void>()
  const timers = new Map<number, { at: number; callback: () => void }>()
  let next = 1
  let time = 0
  let requested = 0
  return {
    request(callback) {
      requested++
      callbacks.set(next, callback)
      return next++
    },
    cancel(handle) {
      callbacks.delete(handle)
    },
    later(callback, ms) {
      timers.set(next, { at: time + ms, callback })
      return next++
    },
    cancelLater(handle) {
      timers.delete(handle)
    },
    now: () => time,
    step(ms = PANE_INTERVAL_MS) {
      time += ms
      for (const [handle, timer] of [...timers]) {
        if (timer.at > time) continue
        timers.delete(handle)
        timer.callback()
      }
      const due = [...callbacks.values()]
      callbacks.clear()
      for (const callback of due) callback()
    },
    /** Frames and timers not run yet. */
    get waiting() {
      return callbacks.size + timers.size
    },
    /** Frames asked for so far. */
    get requested() {
      return requested
    },
  }
}

/** A pane's sink that keeps what it was last given and how many times it was written. */
interface Recorder {
  readonly sink: PaneSink
  readonly text: string
  readonly streaming: boolean
  readonly writes: number
}
function recorder(): Recorder {
  let shown: PaneShown = { text: '', streaming: false }
  let writes = 0
  return {
    sink: (next) => {
      shown = next
      writes++
    },
    get text() {
      return shown.text
    },
    get streaming() {
      return shown.streaming
    },
    get writes() {
      return writes
    },
  }
}

function openedStore(members = ['alice', 'bob']): AppStore {
  const store = createAppStore(fakeApi())
  store.getState().applyEvents([
    {
      type: 'workspace-opened',
      snapshot: snapshot({ members: members.map((name) => agentView(name)) }),
    },
  ])
  return store
}

const delta = (store: AppStore, agent: string, text: string) =>
  store.getState().applyEvents([{ type: 'text-delta', agent, text }])

describe('the activity panes’ streaming text', () => {
  let stop = () => {}
  afterEach(() => stop())

  /** A team's store, stepped frames and a started writer, a recording pane attached per name. */
  function writing(...names: string[]) {
    const store = openedStore()
    const frames = steppedFrames()
    const writer = new PaneTextWriter(store, frames)
    const [alice = recorder(), bob = recorder()] = names.map((name) => {
      const pane = recorder()
      writer.attach(name, pane.sink)
      return pane
    })
    stop = writer.start()
    return { store, frames, writer, alice, bob }
  }

  it('writes every pane once a frame, however many deltas came in between', () => {
    const { store, frames, alice, bob } = writing('alice', 'bob')
    frames.step()
    expect(alice.text).toBe('')
    expect(alice.writes).toBe(1)

    for (let index = 0; index < 20; index++) {
      delta(store, 'alice', `a${index} `)
      delta(store, 'bob', `b${index} `)
    }
    expect(frames.waiting).toBe(1)
    expect(alice.text).toBe('')

    frames.step()
    expect(alice.text).toBe(Array.from({ length: 20 }, (_, i) => `a${i}`).join(' '))
    expect(bob.text).toContain('b19')
    expect(alice.streaming).toBe(true)
    expect(alice.writes).toBe(2)
  })

  it('writes a few panes a frame, the longest-waiting first, until every one is current', () => {
    const names = Array.from({ length: PANES_PER_FRAME + 2 }, (_, index) => `agent${index}`)
    const store = openedStore(names)
    const frames = steppedFrames()
    const writer = new PaneTextWriter(store, frames)
    const boxes = names.map((name) => {
      const pane = recorder()
      writer.attach(name, pane.sink)
      return pane
    })
    stop = writer.start()
    frames.step()
    const current = (text: string) => boxes.filter((pane) => pane.text === text)

    for (const name of names) delta(store, name, 'one')
    frames.step()
    expect(current('one')).toHaveLength(PANES_PER_FRAME)
    expect(frames.waiting).toBe(1)

    // The two left behind go first in the next frame, even though the others changed again.
    for (const name of names) delta(store, name, ' two')
    frames.step()
    expect(boxes.slice(PANES_PER_FRAME).map((pane) => pane.text)).toEqual(['one two', 'one two'])
    frames.step()
    frames.step()
    expect(current('one two')).toHaveLength(names.length)
    expect(frames.waiting).toBe(0)
  })

  it('shows only the last lines of a long stream', () => {
    const { store, frames, alice } = writing('alice')
    delta(store, 'alice', Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n'))
    frames.step()
    const lines = alice.text.split('\n')
    expect(lines).toHaveLength(PANE_LINES)
    expect(lines[lines.length - 1]).toBe('line 99')
  })

  it('shows only the last characters of a long line', () => {
    const { store, frames, alice } = writing('alice')
    const long = Array.from({ length: 1000 }, (_, i) => `w${i}`).join(' ')
    delta(store, 'alice', long)
    frames.step()
    expect(alice.text).toBe(long.slice(long.length - PANE_CHARACTERS))
    delta(store, 'alice', ' more')
    frames.step()
    expect(alice.text).toBe(`${long} more`.slice(-PANE_CHARACTERS))
  })

  it('asks for no frame when the live text did not change, and none after it stops', () => {
    const store = openedStore()
    const frames = steppedFrames()
    const writer = new PaneTextWriter(store, frames)
    writer.attach('alice', recorder().sink)
    stop = writer.start()
    frames.step()
    store.getState().showView('activity')
    expect(frames.waiting).toBe(0)

    delta(store, 'alice', 'x')
    expect(frames.waiting).toBe(1)
    stop()
    expect(frames.waiting).toBe(0)
    delta(store, 'alice', 'y')
    expect(frames.waiting).toBe(0)
  })

  it('writes a streaming pane a few times a second however many deltas come, then its last text', () => {
    const { store, frames, alice } = writing('alice')
    const frameMs = 16
    const deltas = 200
    // One delta a frame for 3.2 s: each write is a Markdown parse and a layout of the pane.
    for (let index = 0; index < deltas; index++) {
      delta(store, 'alice', `w${index} `)
      frames.step(frameMs)
    }
    const streamedMs = deltas * frameMs
    expect(alice.writes).toBeGreaterThan(1)
    expect(alice.writes).toBeLessThanOrEqual(2 + Math.ceil(streamedMs / PANE_INTERVAL_MS))
    // The last deltas are not lost: once the interval is over the pane shows all of them.
    while (frames.waiting > 0) frames.step(frameMs)
    expect(alice.text.endsWith(`w${deltas - 1}`)).toBe(true)
  })

  it('changes the page in at most a few frames a second while many panes stream', () => {
    const names = Array.from({ length: 12 }, (_, index) => `agent${index}`)
    const store = openedStore(names)
    const frames = steppedFrames()
    const writer = new PaneTextWriter(store, frames)
    let writes = 0
    for (const name of names)
      writer.attach(name, () => {
        writes++
      })
    stop = writer.start()
    frames.step()
    const frameMs = 16
    const seconds = 2
    let framesWriting = 0
    for (let frame = 0; frame < (seconds * 1000) / frameMs; frame++) {
      for (const name of names) delta(store, name, `${frame} `)
      const before = writes
      frames.step(frameMs)
      if (writes > before) framesWriting++
      expect(writes - before).toBeLessThanOrEqual(PANES_PER_FRAME)
    }
    expect(framesWriting).toBeGreaterThan(seconds)
    expect(framesWriting).toBeLessThanOrEqual(1 + (seconds * 1000) / WRITE_INTERVAL_MS)
  })

  it('asks for no frame while none may write, however often the store changes', () => {
    const { store, frames, alice } = writing('alice')
    frames.step()
    const frameMs = 16
    const steps = 125
    for (let index = 0; index < steps; index++) {
      delta(store, 'alice', `w${index} `)
      frames.step(frameMs)
    }
    // A frame to write, and at most one more that finds the pane not due yet; not one a delta.
    expect(frames.requested).toBeLessThanOrEqual(2 * alice.writes + 2)
    expect(frames.requested).toBeLessThan(steps / 4)
  })

  it('cuts a pane’s tail to what its box shows, once measured', () => {
    const { store, frames, writer, alice } = writing('alice')
    delta(store, 'alice', Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n'))
    frames.step()
    expect(alice.text.split('\n')).toHaveLength(PANE_LINES)

    // A small tile: three lines of about 40 characters.
    const small = capacityFor(200, 54)
    writer.setCapacity('alice', small)
    frames.step()
    const lines = alice.text.split('\n')
    expect(lines.length).toBeLessThan(PANE_LINES)
    expect(lines.length).toBeGreaterThanOrEqual(3)
    expect(lines[lines.length - 1]).toBe('line 99')
  })

  it('does not write a pane out of view, and writes it at once when it comes back', () => {
    const { store, frames, writer, alice, bob } = writing('alice', 'bob')
    frames.step()
    writer.setVisible('bob', false)

    for (let index = 0; index < 10; index++) {
      delta(store, 'bob', `b${index} `)
      frames.step()
    }
    expect(bob.writes).toBe(1)
    // Nothing in view is behind: no frame is asked for on bob's account.
    expect(frames.waiting).toBe(0)

    writer.setVisible('bob', true)
    expect(frames.waiting).toBe(1)
    frames.step(1)
    expect(bob.writes).toBe(2)
    expect(bob.text).toContain('b9')
    expect(alice.writes).toBe(1)
  })

  it('stops writing to a pane once it is detached', () => {
    const store = openedStore()
    const frames = steppedFrames()
    const writer = new PaneTextWriter(store, frames)
    const alice = recorder()
    const detach = writer.attach('alice', alice.sink)
    stop = writer.start()
    detach()
    delta(store, 'alice', 'after')
    frames.step()
    expect(alice.text).toBe('')
    expect(alice.writes).toBe(1)
  })
})

describe('what a pane’s box can show', () => {
  it('gives a small tile a few lines, with room to spare, and a large one the full tail', () => {
    const small = capacityFor(214, 55)
    expect(small.lines).toBeGreaterThanOrEqual(4)
    expect(small.lines).toBeLessThan(PANE_LINES)
    // Four lines of at most ~43 characters (5 px the narrowest), twice over.
    expect(small.characters).toBeGreaterThanOrEqual(4 * 43)
    expect(small.characters).toBeLessThan(PANE_CHARACTERS)
    expect(capacityFor(600, 400)).toEqual({ lines: PANE_LINES, characters: PANE_CHARACTERS })
    // Not laid out yet (a hidden tab): the full tail.
    expect(capacityFor(0, 0)).toEqual({ lines: PANE_LINES, characters: PANE_CHARACTERS })
  })
})

describe('a pane’s Markdown tail', () => {
  const lines = (count: number, prefix = 'line') =>
    Array.from({ length: count }, (_, index) => `${prefix} ${index}`)

  it('keeps short text whole', () => {
    expect(markdownTail('a\n\n```ts\nx\n```', 14, 1200)).toBe('a\n\n```ts\nx\n```')
  })

  it('re-opens a fence the cut falls inside, so the code still reads as code', () => {
    const text = ['Intro', '```ts', ...lines(30, 'const a'), '```', 'after'].join('\n')
    const tail = markdownTail(text, 5, 1200).split('\n')
    expect(tail).toEqual(['```ts', 'const a 27', 'const a 28', 'const a 29', '```', 'after'])
  })

  it('does not re-open a fence that closed before the cut', () => {
    const text = ['```', 'code', '```', ...lines(20)].join('\n')
    expect(markdownTail(text, 3, 1200)).toBe('line 17\nline 18\nline 19')
  })

  it('keeps a table’s header and delimiter when the cut falls inside its rows', () => {
    const rows = Array.from({ length: 20 }, (_, index) => `| f${index} | ${index} |`)
    const text = ['Files:', '', '| file | n |', '| --- | --: |', ...rows].join('\n')
    expect(markdownTail(text, 2, 1200).split('\n')).toEqual([
      '| file | n |',
      '| --- | --: |',
      '| f18 | 18 |',
      '| f19 | 19 |',
    ])
  })

  it('keeps the header alone when the cut falls on the delimiter', () => {
    const text = ['x', '| a | b |', '| - | - |', '| 1 | 2 |'].join('\n')
    expect(markdownTail(text, 2, 1200)).toBe('| a | b |\n| - | - |\n| 1 | 2 |')
  })

  it('leaves pipes in plain prose alone', () => {
    const text = ['a | b', ...lines(5), 'c | d'].join('\n')
    expect(markdownTail(text, 2, 1200)).toBe('line 4\nc | d')
  })
})
