import type { LiveState } from '../store/state'
import type { AppStore } from '../store/store'
import { lastLines } from './format'
import { own } from '../../shared/own'

/** Lines of streaming text a pane shows: enough to follow, little enough for 8 panes on a laptop. */
export const PANE_LINES = 14
/** And characters: a paragraph without line breaks must not make every frame lay out all of it. */
export const PANE_CHARACTERS = 1200
/**
 * Panes written in one frame, the longest-waiting first. A busy team streams into every pane
 * every frame; laying out all of them in one frame is what made frames (main-thread tasks) long.
 * With a bound, each frame costs the same however many agents stream, and each pane still
 * follows its stream several times a second.
 */
export const PANES_PER_FRAME = 4

export const NOTHING_STREAMED = 'Nothing streamed yet.'

/** The frame clock, injected so that tests can step it. */
export interface FrameScheduler {
  request(callback: () => void): number
  cancel(handle: number): void
}

const animationFrames: FrameScheduler = {
  request: (callback) => requestAnimationFrame(callback),
  cancel: (handle) => cancelAnimationFrame(handle),
}

interface Pane {
  /** The pane's text box (React renders it empty; only this writer fills it). */
  readonly box: HTMLElement
  /** The text inside it, edited in place (see writePane). */
  readonly text: Text
  /** The live state it shows; null until the first write. */
  shown: LiveState | undefined | null
  /** The frame it was last written in: the longest-waiting panes go first. */
  writtenIn: number
}

/**
 * The streaming text of every activity pane, written to the DOM straight from one transient
 * store subscription, without re-rendering the panes. Sixteen agents streaming change the store
 * many times a frame: the writes wait for the next animation frame, at most PANES_PER_FRAME of
 * them a frame, and nothing is read back from the layout (the CSS keeps the latest line at the
 * bottom), so that no frame lays out more than a few panes.
 */
export class PaneTextWriter {
  private readonly panes = new Map<string, Pane>()
  private frame: number | null = null
  private frameCount = 0
  private unsubscribe: (() => void) | null = null

  constructor(
    private readonly store: AppStore,
    private readonly frames: FrameScheduler = animationFrames,
  ) {}

  /** Follows the store until the returned function is called. */
  start(): () => void {
    this.unsubscribe?.()
    this.unsubscribe = this.store.subscribe((state, previous) => {
      if (state.live !== previous.live) this.requestFrame()
    })
    // The store may have changed between the panes' first writes and now.
    this.requestFrame()
    return () => this.stop()
  }

  /** Shows `name`'s text in `box` now and on the frames it changes; returns the detach. */
  attach(name: string, box: HTMLElement): () => void {
    const document = box.ownerDocument
    const lines = document.createElement('span')
    lines.className = 'pane-text-lines'
    const text = document.createTextNode('')
    lines.append(text)
    box.replaceChildren(lines)
    const pane: Pane = { box, text, shown: null, writtenIn: 0 }
    this.panes.set(name, pane)
    writePane(pane, own(this.store.getState().live, name))
    return () => {
      if (this.panes.get(name) === pane) this.panes.delete(name)
    }
  }

  private stop(): void {
    this.unsubscribe?.()
    this.unsubscribe = null
    if (this.frame !== null) this.frames.cancel(this.frame)
    this.frame = null
  }

  private requestFrame(): void {
    if (this.frame === null) this.frame = this.frames.request(() => this.flush())
  }

  private flush(): void {
    this.frame = null
    this.frameCount++
    const { live } = this.store.getState()
    const behind = [...this.panes]
      .filter(([name, pane]) => own(live, name) !== pane.shown)
      .sort(([, a], [, b]) => a.writtenIn - b.writtenIn)
    for (const [name, pane] of behind.slice(0, PANES_PER_FRAME)) {
      writePane(pane, own(live, name))
      pane.writtenIn = this.frameCount
    }
    if (behind.length > PANES_PER_FRAME) this.requestFrame()
  }
}

/** Writes only (no layout reads), and only when the agent's live state changed. */
function writePane(pane: Pane, live: LiveState | undefined): void {
  if (live === pane.shown) return
  pane.shown = live
  const shown = paneText(live)
  editText(pane.text, shown.length > 0 ? shown : NOTHING_STREAMED)
  pane.box.classList.toggle('is-empty', shown.length === 0)
  pane.box.classList.toggle('is-streaming', (live?.text.length ?? 0) > 0)
}

/**
 * Streamed text mostly grows at the end and loses lines at the start: the text node is edited
 * (deleteData, appendData) rather than replaced, so that the browser shapes only what is new.
 */
function editText(node: Text, next: string): void {
  const edit = textEdit(node.data, next)
  if (edit === null) {
    node.data = next
    return
  }
  if (edit.drop > 0) node.deleteData(0, edit.drop)
  if (edit.append.length > 0) node.appendData(edit.append)
}

/** How `next` is `current` minus `drop` leading characters plus `append`; null if it is not. */
export function textEdit(current: string, next: string): { drop: number; append: string } | null {
  if (current.length === 0 || next.length === 0) return null
  if (next.startsWith(current)) return { drop: 0, append: next.slice(current.length) }
  // Lines scrolled out: look for next's start in current, where what is kept fits in next. A
  // few places only (repetitive text has many): past those, replacing costs less than looking.
  const probe = next.slice(0, 32)
  let drop = current.indexOf(probe, Math.max(1, current.length - next.length))
  for (let tries = 0; drop >= 0 && tries < 8; tries++) {
    const kept = current.length - drop
    if (kept <= next.length && next.startsWith(current.slice(drop)))
      return { drop, append: next.slice(kept) }
    drop = current.indexOf(probe, drop + 1)
  }
  return null
}

/** The tail of what the agent streams (or last said): the last lines, and not too many characters. */
export function paneText(live: LiveState | undefined): string {
  if (live === undefined) return ''
  const text = lastLines(live.text.length > 0 ? live.text : live.lastText, PANE_LINES)
  return text.length > PANE_CHARACTERS ? text.slice(text.length - PANE_CHARACTERS) : text
}
