import type { LiveState } from '../store/state'
import type { AppStore } from '../store/store'
import { own } from '../../shared/own'
import { FULL_CAPACITY, paneText, type PaneCapacity } from './pane-tail'

/**
 * Panes written in one frame, the longest-waiting first. A busy team streams into every pane
 * every frame; laying out all of them in one frame is what made frames (main-thread tasks) long.
 * With a bound, each frame costs the same however many agents stream, and each pane still
 * follows its stream several times a second.
 */
export const PANES_PER_FRAME = 4

/**
 * The shortest time between two frames that write panes. Every frame that changes the page
 * lays out, paints and composites it again, a cost that does not depend on how little changed:
 * ten such frames a second, each writing a few panes, cost far less than sixty writing one.
 */
export const WRITE_INTERVAL_MS = 100

/**
 * The shortest time between two writes of one pane. Each write parses the pane's Markdown and
 * lays it out again; a stream brings tens of deltas a second, and a person follows a pane as
 * well at a few updates a second. With 50 agents streaming, this (and skipping panes out of
 * view) is what keeps the page's frames short.
 */
export const PANE_INTERVAL_MS = 250

export const NOTHING_STREAMED = 'Nothing streamed yet.'

/** The frame clock and a timer, injected so that tests can step them. */
export interface FrameScheduler {
  request(callback: () => void): number
  cancel(handle: number): void
  /** Runs `callback` in `ms` milliseconds. */
  later(callback: () => void, ms: number): number
  cancelLater(handle: number): void
  /** Milliseconds on a monotonic clock. */
  now(): number
}

const animationFrames: FrameScheduler = {
  request: (callback) => requestAnimationFrame(callback),
  cancel: (handle) => cancelAnimationFrame(handle),
  later: (callback, ms) => window.setTimeout(callback, ms),
  cancelLater: (handle) => window.clearTimeout(handle),
  now: () => performance.now(),
}

/** What a pane shows: the tail of the agent's text, and whether it is streaming now. */
export interface PaneShown {
  readonly text: string
  readonly streaming: boolean
}

/** Where a pane's text goes (the pane's React state setter). */
export type PaneSink = (shown: PaneShown) => void

interface Pane {
  readonly sink: PaneSink
  /** The live state it shows; null until the first write. */
  shown: LiveState | undefined | null
  /** What it was last given: an unchanged tail is not sent again. */
  text: string
  streaming: boolean
  /** When it was last given new text: the longest-waiting panes go first. */
  writtenAt: number
  /** Whether it is in view (or near it); a pane out of view waits until it comes back. */
  visible: boolean
  /** How much of the tail its box shows. */
  capacity: PaneCapacity
}

/**
 * The streaming text of every activity pane, from one transient store subscription rather than
 * a store selector per pane. Fifty agents streaming change the store many times a frame: the
 * writes wait for an animation frame, at most PANES_PER_FRAME panes a frame and one write a
 * pane every PANE_INTERVAL_MS, and only for panes in view, so that no frame renders (parses
 * the Markdown of, lays out) more than a few panes and the page has time left between frames.
 */
export class PaneTextWriter {
  private readonly panes = new Map<string, Pane>()
  private frame: number | null = null
  /** Set while waiting for the time a frame may write again. */
  private timer: number | null = null
  /** When a frame last wrote a pane. */
  private wroteAt = Number.NEGATIVE_INFINITY
  private unsubscribe: (() => void) | null = null

  constructor(
    private readonly store: AppStore,
    private readonly frames: FrameScheduler = animationFrames,
  ) {}

  /** Follows the store until the returned function is called. */
  start(): () => void {
    this.unsubscribe?.()
    this.unsubscribe = this.store.subscribe((state, previous) => {
      if (state.live !== previous.live) this.schedule()
    })
    // The store may have changed between the panes' first writes and now.
    this.schedule()
    return () => this.stop()
  }

  /** Sends `name`'s text to `sink` now and on the frames it changes; returns the detach. */
  attach(name: string, sink: PaneSink): () => void {
    const pane: Pane = {
      sink,
      shown: null,
      text: '',
      streaming: false,
      writtenAt: Number.NEGATIVE_INFINITY,
      visible: true,
      capacity: FULL_CAPACITY,
    }
    this.panes.set(name, pane)
    if (writePane(pane, own(this.store.getState().live, name), true))
      pane.writtenAt = this.frames.now()
    return () => {
      if (this.panes.get(name) === pane) this.panes.delete(name)
    }
  }

  /** Whether `name`'s pane is in view: one out of view is not written until it is back. */
  setVisible(name: string, visible: boolean): void {
    const pane = this.panes.get(name)
    if (pane === undefined || pane.visible === visible) return
    pane.visible = visible
    if (visible) this.schedule()
  }

  /** How much text `name`'s pane can show (its box was measured): its tail is cut to that. */
  setCapacity(name: string, capacity: PaneCapacity): void {
    const pane = this.panes.get(name)
    if (
      pane === undefined ||
      (pane.capacity.lines === capacity.lines && pane.capacity.characters === capacity.characters)
    )
      return
    pane.capacity = capacity
    // Its tail is cut again on its next turn.
    pane.shown = null
    this.schedule()
  }

  private stop(): void {
    this.unsubscribe?.()
    this.unsubscribe = null
    if (this.frame !== null) this.frames.cancel(this.frame)
    if (this.timer !== null) this.frames.cancelLater(this.timer)
    this.frame = null
    this.timer = null
  }

  /**
   * Asks for a frame, or, before a frame may write again, for a timer that asks for it then: a
   * frame asked for every time the store changes would run the page's frame work sixty times
   * a second for nothing.
   */
  private schedule(earliest = this.wroteAt + WRITE_INTERVAL_MS): void {
    if (this.frame !== null || this.timer !== null) return
    const wait = earliest - this.frames.now()
    if (wait <= 0) {
      this.frame = this.frames.request(() => this.flush())
      return
    }
    this.timer = this.frames.later(() => {
      this.timer = null
      this.schedule()
    }, wait)
  }

  private flush(): void {
    this.frame = null
    const now = this.frames.now()
    const { live } = this.store.getState()
    const behind = [...this.panes].filter(
      ([name, pane]) => pane.visible && own(live, name) !== pane.shown,
    )
    const due =
      now - this.wroteAt < WRITE_INTERVAL_MS
        ? []
        : behind
            .filter(([, pane]) => now - pane.writtenAt >= PANE_INTERVAL_MS)
            .sort(([, a], [, b]) => a.writtenAt - b.writtenAt)
    let written = 0
    for (const [name, pane] of due) {
      if (written === PANES_PER_FRAME) break
      if (!writePane(pane, own(live, name), false)) continue
      pane.writtenAt = now
      written++
    }
    if (written > 0) this.wroteAt = now
    // Panes still behind (not due yet, or over this frame's share) wait for the first of them
    // to be due.
    const waiting = behind.filter(([name, pane]) => own(live, name) !== pane.shown)
    if (waiting.length === 0) return
    const firstDue = Math.min(...waiting.map(([, pane]) => pane.writtenAt + PANE_INTERVAL_MS))
    this.schedule(Math.max(firstDue, this.wroteAt + WRITE_INTERVAL_MS))
  }
}

/**
 * Sends the pane its new tail, only when the agent's live state changed what it shows; says
 * whether it did.
 */
function writePane(pane: Pane, live: LiveState | undefined, first: boolean): boolean {
  if (live === pane.shown) return false
  pane.shown = live
  const text = paneText(live, pane.capacity)
  const streaming = (live?.text.length ?? 0) > 0
  if (!first && text === pane.text && streaming === pane.streaming) return false
  pane.text = text
  pane.streaming = streaming
  pane.sink({ text, streaming })
  return true
}
