import { flushSync } from 'react-dom'

/** The speeds a replay plays at. */
export const REPLAY_SPEEDS = [1, 2, 5, 10, 25, 50, 100] as const
export type ReplaySpeed = (typeof REPLAY_SPEEDS)[number]

/** A frame whose work (moving the replay and rendering what it shows) took longer is dropped. */
export const FRAME_BUDGET_MS = 16

export interface ReplayClockState {
  /** The moment shown, seconds since the epoch. */
  readonly at: number
  readonly playing: boolean
  readonly speed: ReplaySpeed
}

/** Frames played and how many went over budget: the bench reads them (dev and bench pages). */
export interface FrameStats {
  frames: number
  dropped: number
  worstMs: number
  /** The work of every frame added up: over `frames`, the mean work a frame. */
  totalMs: number
}

declare global {
  interface Window {
    __agentTeamsReplay?: FrameStats
    /** Set by the benchmarks' probes (bench/page/probes.js). */
    __bench?: unknown
  }
}

/**
 * The replay's clock: the moment shown, and playback driven by requestAnimationFrame. An
 * external store (React reads it with useSyncExternalStore), so that only what shows the moment
 * renders at each frame, not the whole Timeline view. Each frame's listeners render
 * synchronously, so the frame's work can be measured where it is done.
 */
export class ReplayClock {
  private state: ReplayClockState
  private readonly listeners = new Set<() => void>()
  private frame: number | null = null
  private last: number | null = null
  readonly stats: FrameStats = { frames: 0, dropped: 0, worstMs: 0, totalMs: 0 }

  constructor(
    private span: { start: number; end: number },
    private readonly window: Pick<
      Window,
      'requestAnimationFrame' | 'cancelAnimationFrame' | 'performance'
    > &
      Partial<Pick<Window, '__agentTeamsReplay' | '__bench'>> = globalThis.window,
  ) {
    this.state = { at: span.start, playing: false, speed: 10 }
    if (import.meta.env.DEV || this.window.__bench !== undefined)
      this.window.__agentTeamsReplay = this.stats
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  readonly get = (): ReplayClockState => this.state

  /** The run grew (new records came in while replaying). */
  setSpan(span: { start: number; end: number }): void {
    this.span = span
  }

  seek(at: number): void {
    this.set({ at: Math.min(this.span.end, Math.max(this.span.start, at)) })
  }

  setSpeed(speed: ReplaySpeed): void {
    this.set({ speed })
  }

  play(): void {
    if (this.state.playing) return
    // Played to the end: play again from the start.
    const at = this.state.at >= this.span.end ? this.span.start : this.state.at
    this.set({ playing: true, at })
    this.last = null
    this.frame = this.window.requestAnimationFrame(this.tick)
  }

  pause(): void {
    if (this.frame !== null) this.window.cancelAnimationFrame(this.frame)
    this.frame = null
    if (this.state.playing) this.set({ playing: false })
  }

  dispose(): void {
    this.pause()
    this.listeners.clear()
  }

  private readonly tick = (now: number): void => {
    this.frame = null
    const started = this.window.performance.now()
    const elapsed = this.last === null ? 0 : (now - this.last) / 1000
    this.last = now
    const at = Math.min(this.span.end, this.state.at + elapsed * this.state.speed)
    const ended = at >= this.span.end
    flushSync(() => this.set({ at, playing: !ended }))
    const work = this.window.performance.now() - started
    this.stats.frames++
    this.stats.totalMs += work
    if (work > FRAME_BUDGET_MS) this.stats.dropped++
    this.stats.worstMs = Math.max(this.stats.worstMs, work)
    if (!ended) this.frame = this.window.requestAnimationFrame(this.tick)
  }

  private set(change: Partial<ReplayClockState>): void {
    this.state = { ...this.state, ...change }
    for (const listener of this.listeners) listener()
  }
}
