// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest'
import {
  NOTHING_STREAMED,
  PANE_CHARACTERS,
  PANE_LINES,
  PANES_PER_FRAME,
  PaneTextWriter,
  textEdit,
  type FrameScheduler,
} from '../../../src/renderer/components/pane-text'
import { createAppStore, type AppStore } from '../../../src/renderer/store/store'
import { agentView, fakeApi, snapshot } from './fake-api'

/** Frames that run only when the test says so. */
function steppedFrames(): FrameScheduler & { step(): void; readonly waiting: number } {
  const callbacks = new Map<number, () => void>()
  let next = 1
  return {
    request(callback) {
      callbacks.set(next, callback)
      return next++
    },
    cancel(handle) {
      callbacks.delete(handle)
    },
    step() {
      const due = [...callbacks.values()]
      callbacks.clear()
      for (const callback of due) callback()
    },
    get waiting() {
      return callbacks.size
    },
  }
}

/** A pane's text box that counts every read of its layout. */
const layoutReads = new WeakMap<HTMLElement, number>()
function box(): HTMLElement {
  const element = document.createElement('pre')
  layoutReads.set(element, 0)
  for (const property of ['scrollHeight', 'scrollTop', 'clientHeight', 'offsetHeight'])
    Object.defineProperty(element, property, {
      get: () => {
        layoutReads.set(element, (layoutReads.get(element) ?? 0) + 1)
        return 0
      },
      set: () => {},
    })
  return element
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

  it('writes every pane once a frame, however many deltas came in between', () => {
    const store = openedStore()
    const frames = steppedFrames()
    const writer = new PaneTextWriter(store, frames)
    const alice = box()
    const bob = box()
    writer.attach('alice', alice)
    writer.attach('bob', bob)
    stop = writer.start()
    frames.step()
    expect(alice.textContent).toBe(NOTHING_STREAMED)
    expect(alice.classList.contains('is-empty')).toBe(true)

    for (let index = 0; index < 20; index++) {
      delta(store, 'alice', `a${index} `)
      delta(store, 'bob', `b${index} `)
    }
    expect(frames.waiting).toBe(1)
    expect(alice.textContent).toBe(NOTHING_STREAMED)

    frames.step()
    expect(alice.textContent).toBe(Array.from({ length: 20 }, (_, i) => `a${i}`).join(' '))
    expect(bob.textContent).toContain('b19')
    expect(alice.classList.contains('is-streaming')).toBe(true)
    expect(alice.classList.contains('is-empty')).toBe(false)
    expect((layoutReads.get(alice) ?? 0) + (layoutReads.get(bob) ?? 0)).toBe(0)
  })

  it('writes a few panes a frame, the longest-waiting first, until every one is current', () => {
    const names = Array.from({ length: PANES_PER_FRAME + 2 }, (_, index) => `agent${index}`)
    const store = openedStore(names)
    const frames = steppedFrames()
    const writer = new PaneTextWriter(store, frames)
    const boxes = names.map((name) => {
      const element = box()
      writer.attach(name, element)
      return element
    })
    stop = writer.start()
    frames.step()
    const current = (text: string) => boxes.filter((element) => element.textContent === text)

    for (const name of names) delta(store, name, 'one')
    frames.step()
    expect(current('one')).toHaveLength(PANES_PER_FRAME)
    expect(frames.waiting).toBe(1)

    // The two left behind go first in the next frame, even though the others changed again.
    for (const name of names) delta(store, name, ' two')
    frames.step()
    expect(boxes.slice(PANES_PER_FRAME).map((element) => element.textContent)).toEqual([
      'one two',
      'one two',
    ])
    frames.step()
    frames.step()
    expect(current('one two')).toHaveLength(names.length)
    expect(frames.waiting).toBe(0)
  })

  it('shows only the last lines of a long stream', () => {
    const store = openedStore()
    const frames = steppedFrames()
    const writer = new PaneTextWriter(store, frames)
    const alice = box()
    writer.attach('alice', alice)
    stop = writer.start()
    delta(store, 'alice', Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n'))
    frames.step()
    const lines = (alice.textContent ?? '').split('\n')
    expect(lines).toHaveLength(PANE_LINES)
    expect(lines[lines.length - 1]).toBe('line 99')
  })

  it('shows only the last characters of a long line', () => {
    const store = openedStore()
    const frames = steppedFrames()
    const writer = new PaneTextWriter(store, frames)
    const alice = box()
    writer.attach('alice', alice)
    stop = writer.start()
    const long = Array.from({ length: 1000 }, (_, i) => `w${i}`).join(' ')
    delta(store, 'alice', long)
    frames.step()
    expect(alice.textContent).toBe(long.slice(long.length - PANE_CHARACTERS))
    delta(store, 'alice', ' more')
    frames.step()
    expect(alice.textContent).toBe(`${long} more`.slice(-PANE_CHARACTERS))
  })

  it('asks for no frame when the live text did not change, and none after it stops', () => {
    const store = openedStore()
    const frames = steppedFrames()
    const writer = new PaneTextWriter(store, frames)
    writer.attach('alice', box())
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

  it('stops writing to a pane once it is detached', () => {
    const store = openedStore()
    const frames = steppedFrames()
    const writer = new PaneTextWriter(store, frames)
    const alice = box()
    const detach = writer.attach('alice', alice)
    stop = writer.start()
    detach()
    delta(store, 'alice', 'after')
    frames.step()
    expect(alice.textContent).toBe(NOTHING_STREAMED)
  })
})

describe('a pane text edit', () => {
  const apply = (current: string, next: string) => {
    const edit = textEdit(current, next)
    return edit === null ? null : current.slice(edit.drop) + edit.append
  }

  it('appends what streamed and drops what scrolled out at the start', () => {
    expect(textEdit('abc', 'abcdef')).toEqual({ drop: 0, append: 'def' })
    const kept = 'the second line, long enough to be found again where it starts'
    expect(textEdit(`line 1\n${kept}`, `${kept} and more`)).toEqual({
      drop: 7,
      append: ' and more',
    })
    expect(textEdit('same', 'same')).toEqual({ drop: 0, append: '' })
  })

  it('gives up when the new text is not the old one moved on', () => {
    expect(textEdit('', 'abc')).toBeNull()
    expect(textEdit('abc', 'xyz')).toBeNull()
    expect(textEdit('abcdef', 'abc')).toBeNull()
  })

  it('always yields the new text when it finds an edit', () => {
    const cases: [string, string][] = [
      ['ab ab ab ab', 'ab ab ab c'],
      ['x'.repeat(500), 'x'.repeat(400) + 'y'],
      ['one two one two', 'one two three'],
      ['abcabcabc', 'cabcabcd'],
    ]
    for (const [current, next] of cases) {
      const result = apply(current, next)
      if (result !== null) expect(result).toBe(next)
    }
    expect(apply('x'.repeat(500), 'x'.repeat(400) + 'y')).toBe('x'.repeat(400) + 'y')
  })
})
