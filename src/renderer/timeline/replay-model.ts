import type { TimelineEntry } from '../../shared/timeline'
import type { TaskStatus } from '../../shared/tasks'
import { upperBound } from './timeline-model'

/**
 * Replay: the team as it was at a moment, derived from the timeline's entries alone (a `status`
 * entry carries the agent's status from then on, a `task` entry the task as it stood, `turn`,
 * `tool` and `message` entries the activity). Pure of React and the clock.
 *
 * A cursor keeps the state at the last moment asked and applies only the entries between it and
 * the next moment when time moves forward, so a frame of playback costs the entries it passes.
 * Moving back restores the nearest checkpoint before the moment (one is kept every
 * `checkpointEvery` entries) and applies forward from there.
 */

export interface ReplayTask {
  readonly id: string
  readonly subject: string
  readonly status: TaskStatus
  readonly owner: string | null
}

export interface ActivityLine {
  readonly id: string
  readonly kind: TimelineEntry['kind']
  readonly at: number
  readonly end: number | null
  readonly summary: string
  readonly failed: boolean
}

export interface ReplayFrame {
  /** The moment shown. */
  readonly at: number
  /** How many entries happened at or before it. */
  readonly applied: number
  /** Each agent's status as of the moment (absent: none recorded yet). */
  readonly statuses: Readonly<Record<string, string>>
  /** The board as of the moment, by task id. */
  readonly tasks: readonly ReplayTask[]
  /** Each agent's latest activity, oldest first (at most `activityDepth` lines). */
  readonly activity: Readonly<Record<string, readonly ActivityLine[]>>
  /** What each agent was in the middle of at the moment (a turn or tool call not yet ended). */
  readonly busy: Readonly<Record<string, ActivityLine>>
}

interface Working {
  applied: number
  statuses: Map<string, string>
  tasks: Map<string, ReplayTask>
  activity: Map<string, ActivityLine[]>
}

const ACTIVITY_KINDS = new Set<TimelineEntry['kind']>(['turn', 'tool', 'message'])

export interface ReplayOptions {
  readonly checkpointEvery?: number
  readonly activityDepth?: number
}

export class ReplayCursor {
  private readonly times: Float64Array
  private readonly checkpointEvery: number
  private readonly activityDepth: number
  /** checkpoints[k]: the state after the first k × checkpointEvery entries. */
  private readonly checkpoints: Working[] = []
  private state: Working = emptyWorking()
  private frame: ReplayFrame | null = null
  /** How many entries were applied in all (a test reads it: forward moves are incremental). */
  appliedCount = 0

  constructor(
    private readonly entries: readonly TimelineEntry[],
    options: ReplayOptions = {},
  ) {
    this.times = Float64Array.from(entries, (entry) => entry.at)
    this.checkpointEvery = Math.max(1, options.checkpointEvery ?? 4096)
    this.activityDepth = Math.max(1, options.activityDepth ?? 5)
    this.checkpoints.push(copyWorking(this.state))
  }

  /** The team as it was at `at`. */
  seek(at: number): ReplayFrame {
    const target = upperBound(this.times, at)
    if (target < this.state.applied) this.restoreBefore(target)
    const changed = target !== this.state.applied || this.frame === null
    while (this.state.applied < target) this.apply(this.state.applied)
    if (!changed && this.frame !== null && this.frame.at === at) return this.frame
    this.frame = frameOf(this.state, at, changed ? null : this.frame)
    return this.frame
  }

  private restoreBefore(target: number): void {
    const slot = Math.min(Math.floor(target / this.checkpointEvery), this.checkpoints.length - 1)
    const checkpoint = this.checkpoints[slot] ?? this.checkpoints[0]
    if (checkpoint !== undefined) this.state = copyWorking(checkpoint)
    this.frame = null
  }

  private apply(position: number): void {
    const entry = this.entries[position]
    const state = this.state
    state.applied = position + 1
    this.appliedCount++
    if (entry !== undefined) {
      if (entry.kind === 'status' && entry.status !== undefined)
        state.statuses.set(entry.agent, entry.status)
      if (entry.kind === 'task' && entry.task !== undefined)
        state.tasks.set(entry.task.id, entry.task)
      if (ACTIVITY_KINDS.has(entry.kind)) this.addActivity(entry)
    }
    if (
      state.applied % this.checkpointEvery === 0 &&
      this.checkpoints.length === state.applied / this.checkpointEvery
    )
      this.checkpoints.push(copyWorking(state))
  }

  private addActivity(entry: TimelineEntry): void {
    const lines = this.state.activity.get(entry.agent) ?? []
    const line: ActivityLine = {
      id: entry.id,
      kind: entry.kind,
      at: entry.at,
      end: entry.end,
      summary: entry.summary,
      failed: entry.failed,
    }
    // Copied, not pushed: a frame already handed out keeps the lines it showed.
    const next = [...lines, line]
    this.state.activity.set(entry.agent, next.slice(-this.activityDepth))
  }
}

function emptyWorking(): Working {
  return { applied: 0, statuses: new Map(), tasks: new Map(), activity: new Map() }
}

function copyWorking(state: Working): Working {
  return {
    applied: state.applied,
    statuses: new Map(state.statuses),
    tasks: new Map(state.tasks),
    activity: new Map(state.activity),
  }
}

/** The state as a frame; the same entries applied reuse the previous frame's parts. */
function frameOf(state: Working, at: number, previous: ReplayFrame | null): ReplayFrame {
  const activity = previous?.activity ?? Object.fromEntries(state.activity)
  const busy: Record<string, ActivityLine> = {}
  for (const [agent, lines] of Object.entries(activity)) {
    for (let index = lines.length - 1; index >= 0; index--) {
      const line = lines[index]
      if (line !== undefined && line.end !== null && line.at <= at && line.end > at) {
        busy[agent] = line
        break
      }
    }
  }
  return {
    at,
    applied: state.applied,
    statuses: previous?.statuses ?? Object.fromEntries(state.statuses),
    tasks: previous?.tasks ?? [...state.tasks.values()].sort(byTaskId),
    activity,
    busy,
  }
}

function byTaskId(a: ReplayTask, b: ReplayTask): number {
  return Number(a.id) - Number(b.id) || a.id.localeCompare(b.id)
}
