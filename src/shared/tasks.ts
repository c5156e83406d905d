import { z } from 'zod'

/**
 * The task board (the tutorial's s11): one record per task in `.team/tasks/<id>.json`. These
 * schemas are the file format and what crosses the contract, declared once.
 */
export const TASKS_FORMAT_VERSION = 1

export const TASK_STATUSES = ['pending', 'in_progress', 'review', 'done', 'cancelled'] as const
export type TaskStatus = (typeof TASK_STATUSES)[number]

/** Task ids are small whole numbers, written as text: `agent-teams tasks claim 3`. */
export const TASK_ID_PATTERN = /^[1-9][0-9]{0,8}$/
export const taskIdSchema = z
  .string()
  .regex(TASK_ID_PATTERN, 'a task id is a whole number from 1, such as "3"')

export const MAX_SUBJECT_LENGTH = 500
export const MAX_DESCRIPTION_LENGTH = 100_000
export const MAX_RESULT_LENGTH = 100_000

/** What a task is about, elsewhere in the team: a message, or an agent's transcript turn. */
export const taskLinkSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('message'),
    id: z.string().min(1).max(200),
    /** "alice → lead: …", when the runtime knew the message as it linked it. */
    summary: z.string().max(500).optional(),
  }),
  z.object({
    kind: z.literal('turn'),
    agent: z.string().min(1).max(64),
    seq: z.number().int().min(1),
  }),
])
export type TaskLink = z.infer<typeof taskLinkSchema>

/** A line of the task's history: who did what ("released: alice stopped"). */
export const taskNoteSchema = z.object({
  at: z.number(),
  by: z.string().max(64),
  text: z.string().max(10_000),
  /**
   * The task's status and owner once this change was made (the timeline's replay of the board);
   * notes written before these fields have neither.
   */
  status: z.enum(TASK_STATUSES).optional(),
  owner: z.string().min(1).max(64).nullable().optional(),
})
export type TaskNote = z.infer<typeof taskNoteSchema>

export const taskSchema = z.object({
  v: z.literal(TASKS_FORMAT_VERSION),
  id: taskIdSchema,
  subject: z.string().min(1).max(MAX_SUBJECT_LENGTH),
  description: z.string().max(MAX_DESCRIPTION_LENGTH),
  status: z.enum(TASK_STATUSES),
  /** Who works on it (in_progress, review, done) or whom it is assigned to (pending); null: nobody. */
  owner: z.string().min(1).max(64).nullable(),
  /** Tasks that must be done before this one can be claimed. */
  blocked_by: z.array(taskIdSchema).max(1000),
  created_by: z.string().min(1).max(64),
  /** Seconds since the epoch, as every timestamp under `.team/`. */
  created_at: z.number(),
  updated_at: z.number(),
  links: z.array(taskLinkSchema).max(1000),
  /** The owner's summary of what it did, given when it completes the task. */
  result: z.string().max(MAX_RESULT_LENGTH).nullable(),
  notes: z.array(taskNoteSchema).max(1000),
})
export type Task = z.infer<typeof taskSchema>

/** A task file that could not be read: shown beside the board, never overwritten. */
export const taskProblemSchema = z.object({ file: z.string(), message: z.string() })
export type TaskProblem = z.infer<typeof taskProblemSchema>

export const taskBoardSchema = z.object({
  tasks: z.array(taskSchema),
  problems: z.array(taskProblemSchema),
})
export type TaskBoardView = z.infer<typeof taskBoardSchema>

/** Each task's status by id. */
export type TaskStatuses = ReadonlyMap<string, TaskStatus>

export function taskStatuses(tasks: readonly Task[]): TaskStatuses {
  return new Map(tasks.map((task) => [task.id, task.status]))
}

/**
 * The ids among `task.blocked_by` whose tasks are not done yet (missing ones count as open).
 * Asked for every task of a board, pass the board's `taskStatuses` once: given the tasks, each
 * call looks through all of them, and a board of n tasks then costs n² steps.
 */
export function openBlockers(task: Task, board: readonly Task[] | TaskStatuses): string[] {
  const status = isTaskList(board) ? taskStatuses(board) : board
  return task.blocked_by.filter((id) => status.get(id) !== 'done')
}

function isTaskList(board: readonly Task[] | TaskStatuses): board is readonly Task[] {
  return Array.isArray(board)
}

/** Orders ids as numbers: "2" before "10". */
export function compareTaskIds(a: string, b: string): number {
  return Number(a) - Number(b)
}
