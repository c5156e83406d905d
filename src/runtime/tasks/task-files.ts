import { mkdirSync, readdirSync, statSync, unlinkSync } from 'node:fs'
import { join } from 'node:path'
import { TeamError } from '../../shared/errors'
import { jsonTextTooDeep } from '../../shared/json-limits'
import {
  TASK_ID_PATTERN,
  TASKS_FORMAT_VERSION,
  compareTaskIds,
  taskSchema,
  type Task,
  type TaskProblem,
} from '../../shared/tasks'
import { writeFileAtomicSync } from '../fs/durable'
import { isProcessAlive } from '../fs/processes'
import { FILE_CAPS, readRegularTextSync } from '../fs/safe-open'

/** The board's folder: `.team/tasks/`, one `<id>.json` per task and the board's lock. */
export function tasksDirectory(teamRoot: string): string {
  return join(teamRoot, 'tasks')
}

export function taskFile(directory: string, id: string): string {
  return join(directory, `${id}.json`)
}

export type TaskRead = { task: Task } | { problem: TaskProblem }

/**
 * Reads one task file as hostile input: a regular file under the record cap, JSON nested at most
 * 32 deep, the schema, and an id that matches its file name. A bad file is a problem with the
 * reason, never a throw.
 */
export function readTaskFile(directory: string, id: string): TaskRead | null {
  const file = taskFile(directory, id)
  let text: string | null
  try {
    text = readRegularTextSync(file, {
      what: `Task file ${id}.json`,
      maxBytes: FILE_CAPS.record,
      remedy: 'Move it out of .team/tasks/ to drop the task.',
    })
  } catch (error) {
    return { problem: { file, message: error instanceof Error ? error.message : String(error) } }
  }
  if (text === null) return null
  return parseTaskText(file, id, text)
}

function parseTaskText(file: string, id: string, text: string): TaskRead {
  const bad = (reason: string): TaskRead => ({
    problem: {
      file,
      message: `Task file ${id}.json is skipped: ${reason}. Fix it or move it out of .team/tasks/.`,
    },
  })
  if (jsonTextTooDeep(text, 32)) return bad('it is nested deeper than 32 levels')
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return bad(
      `it is not valid JSON (${(error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ')})`,
    )
  }
  const version = (value as { v?: unknown } | null)?.v
  if (typeof version === 'number' && version > TASKS_FORMAT_VERSION)
    return bad(`it was written by a newer version of Agent Teams (format ${version})`)
  const parsed = taskSchema.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const field = issue?.path.map(String).join('.') || '(record)'
    return bad(`${field}: ${(issue?.message ?? 'invalid').replace(/^Invalid input: /, '')}`)
  }
  if (parsed.data.id !== id) return bad(`it holds task ${parsed.data.id}, not ${id}`)
  return { task: parsed.data }
}

/** Every task on the board (ordered by id) and every file that could not be read. */
export function readAllTasks(directory: string): {
  tasks: Task[]
  problems: TaskProblem[]
  highestId: number
} {
  let entries: string[]
  try {
    entries = readdirSync(directory)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { tasks: [], problems: [], highestId: 0 }
    // A file (or anything else) in the folder's place: an empty board that says why.
    return {
      tasks: [],
      problems: [{ file: directory, message: folderProblem(directory, error) }],
      highestId: 0,
    }
  }
  const tasks: Task[] = []
  const problems: TaskProblem[] = []
  let highestId = 0
  for (const entry of entries) {
    // Temp files of atomic writes and the lock start with a dot or do not end in .json.
    if (!entry.endsWith('.json') || entry.startsWith('.')) continue
    const id = entry.slice(0, -'.json'.length)
    if (!TASK_ID_PATTERN.test(id)) {
      problems.push({
        file: join(directory, entry),
        message: `${entry} is not a task file (task files are named <number>.json); it is ignored.`,
      })
      continue
    }
    // A damaged file keeps its id: a new task never takes it, so nothing overwrites it.
    highestId = Math.max(highestId, Number(id))
    const read = readTaskFile(directory, id)
    if (read === null) continue
    if ('task' in read) tasks.push(read.task)
    else problems.push(read.problem)
  }
  tasks.sort((a, b) => compareTaskIds(a.id, b.id))
  return { tasks, problems, highestId }
}

function folderProblem(directory: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code
  const what =
    code === 'ENOTDIR' ? 'it is not a folder' : `it cannot be read (${code ?? String(error)})`
  return `The task board ${directory} is unusable: ${what}. Move it aside; a new board starts empty.`
}

/** Makes the board's folder, or refuses with what to do when something else is in its place. */
export function ensureTasksDirectory(directory: string): void {
  try {
    mkdirSync(directory, { recursive: true })
    if (statSync(directory).isDirectory()) return
    throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' })
  } catch (error) {
    throw new TeamError('io', folderProblem(directory, error))
  }
}

/** Replaces (or creates) a task's file atomically and durably. */
export function writeTaskFile(directory: string, task: Task): void {
  mkdirSync(directory, { recursive: true })
  writeFileAtomicSync(taskFile(directory, task.id), `${JSON.stringify(task, null, 2)}\n`)
}

/** A task the caller needs, read under the lock: missing or damaged is an error that says so. */
export function requireTask(directory: string, id: string): Task {
  const read = readTaskFile(directory, id)
  if (read === null) throw new TeamError('not-found', `There is no task ${id}.`)
  if ('problem' in read) throw new TeamError('file-invalid', read.problem.message)
  return read.task
}

/** How old a lock's leftover temp file must be before it is surely nobody's. */
const LEFTOVER_AGE_MS = 60_000

/**
 * Removes what killed writers left in the folder: temp files of atomic writes whose process is
 * gone (`.<id>.json.<pid>.<hex>.tmp`), and the lock's temp and stale files after a minute. The
 * tasks themselves are never touched.
 */
export function sweepLeftovers(directory: string, now: number = Date.now()): void {
  let entries: string[]
  try {
    entries = readdirSync(directory)
  } catch {
    return
  }
  for (const entry of entries) {
    const path = join(directory, entry)
    const write = /^\..+\.json\.(\d+)\.[0-9a-f]+\.tmp$/.exec(entry)
    const lockLeftover = /^board\.lock\.[0-9a-f]+\.(tmp|stale)$/.test(entry)
    try {
      if (write !== null && !isProcessAlive(Number(write[1]))) unlinkSync(path)
      else if (lockLeftover && now - statSync(path).mtimeMs > LEFTOVER_AGE_MS) unlinkSync(path)
    } catch {
      // Gone already, or not ours to remove: the next open looks again.
    }
  }
}
