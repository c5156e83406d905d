import { USER } from '../../shared/names'
import type { NeedsYouEntry } from '../../shared/needs-you'
import type { Task, TaskStatus } from '../../shared/tasks'
import type { TimelineEntry } from '../../shared/timeline'
import { readNeedsYou } from '../needs-you/store'
import { readAllTasks } from '../tasks/task-files'
import { entry, entryId, isTimelineTime } from './entry-parts'

type Read = { entries: TimelineEntry[]; problems: string[] }

/**
 * The task board (`.team/tasks/`) as `task` entries: one when a task was made, one per note of
 * its history (claimed, moved, done, released), each carrying the task as it stood after it.
 * Notes from before the board stamped them with the status and owner take those of the next
 * stamped note, or the task's own now.
 */
export function taskEntries(tasksDirectory: string): Read {
  const { tasks, problems } = readAllTasks(tasksDirectory)
  const entries: TimelineEntry[] = []
  const out = problems.map((problem) => `${problem.file}: ${problem.message} (skipped)`)
  for (const task of tasks) entries.push(...entriesOf(task, out))
  return { entries, problems: out }
}

function entriesOf(task: Task, problems: string[]): TimelineEntry[] {
  const states = statesAfterNotes(task)
  const first = states[0] ?? { status: task.status, owner: task.owner }
  const entries: TimelineEntry[] = []
  const source = { type: 'task' as const, id: task.id }
  const state = (status: TaskStatus, owner: string | null) => ({
    id: task.id,
    subject: task.subject,
    status,
    owner,
  })
  if (isTimelineTime(task.created_at))
    entries.push(
      entry(
        {
          id: entryId('task', task.id, 'made'),
          at: task.created_at,
          kind: 'task',
          agent: task.created_by,
          summary: `task #${task.id} made: ${task.subject}`,
          source,
        },
        // Before its first note it was pending (a pending task may be assigned already).
        { task: state('pending', task.notes.length === 0 ? task.owner : null) },
      ),
    )
  else problems.push(`task ${task.id}: its time ${String(task.created_at)} is out of range`)
  const seen = new Map<number, number>()
  task.notes.forEach((note, index) => {
    if (!isTimelineTime(note.at)) {
      problems.push(`task ${task.id}: a note's time ${String(note.at)} is out of range (skipped)`)
      return
    }
    // Notes of the same moment are told apart by their order within it (older notes dropped
    // from the file's history never change the ids of the ones kept).
    const repeat = seen.get(note.at) ?? 0
    seen.set(note.at, repeat + 1)
    const after = states[index] ?? first
    entries.push(
      entry(
        {
          id: entryId('task', task.id, note.at, repeat),
          at: note.at,
          kind: 'task',
          agent: note.by,
          summary: `task #${task.id} ${note.text}: ${task.subject}`,
          source,
        },
        { task: state(after.status, after.owner) },
      ),
    )
  })
  return entries
}

/** The task's status and owner after each note: stamped, or the next stamped one's. */
function statesAfterNotes(task: Task): { status: TaskStatus; owner: string | null }[] {
  const states: { status: TaskStatus; owner: string | null }[] = []
  let next = { status: task.status, owner: task.owner }
  for (let index = task.notes.length - 1; index >= 0; index--) {
    const note = task.notes[index]
    if (note?.status !== undefined) next = { status: note.status, owner: note.owner ?? null }
    states[index] = next
  }
  return states
}

/**
 * The Needs-you queue (`.team/needs-you.json`) as `approval` entries: each thing asked of the
 * person when it was asked, and its answer (approved, denied, answered) in the person's lane, or
 * its end (cancelled, resolved) in the app's. A queue file that cannot be read is a problem.
 */
export function needsYouEntries(path: string): Read & { pending: NeedsYouEntry[] } {
  let queue: NeedsYouEntry[]
  try {
    queue = readNeedsYou(path).entries
  } catch (error) {
    return { entries: [], problems: [(error as Error).message], pending: [] }
  }
  const entries: TimelineEntry[] = []
  const problems: string[] = []
  for (const item of queue) {
    const source = { type: 'needs-you' as const, id: item.id }
    if (!isTimelineTime(item.created_at)) {
      problems.push(`Needs-you ${item.id}: its time ${String(item.created_at)} is out of range`)
      continue
    }
    entries.push(
      entry(
        {
          id: entryId('asked', item.id),
          at: item.created_at,
          kind: 'approval',
          agent: item.agent,
          summary: `${item.agent} asks you (${item.kind}): ${item.summary}`,
          source,
        },
        { status: 'pending', ...(item.tool === null ? {} : { tool: item.tool }) },
      ),
    )
    if (item.status === 'pending' || item.settled_at === null) continue
    if (!isTimelineTime(item.settled_at)) {
      problems.push(`Needs-you ${item.id}: its time ${String(item.settled_at)} is out of range`)
      continue
    }
    const byPerson = ['approved', 'denied', 'answered'].includes(item.status)
    entries.push(
      entry(
        {
          id: entryId('settled', item.id),
          at: item.settled_at,
          kind: 'approval',
          agent: byPerson ? USER : 'app',
          summary: `${item.agent}'s ${item.kind} ${item.status}: ${item.summary}${item.answer ? ` (${item.answer})` : ''}`,
          source,
        },
        { status: item.status },
      ),
    )
  }
  return { entries, problems, pending: queue.filter((item) => item.status === 'pending') }
}
