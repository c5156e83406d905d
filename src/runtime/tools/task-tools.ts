import { z } from 'zod'
import { TASK_STATUSES, type TaskStatus } from '../../shared/tasks'
import { defineTool, type Tool } from './types'

/** A change to a task as a tool asks it (snake_case as the model writes it). */
export interface TaskToolChange {
  readonly subject?: string
  readonly description?: string
  readonly status?: TaskStatus
  readonly owner?: string | null
  readonly blocked_by?: readonly string[]
  readonly note?: string
  readonly link_message?: string
}

/**
 * What the task tools ask of the host. `by` is always the calling agent; `turn` the transcript
 * turn that made the call, linked to the task. Refusals throw TeamErrors the model reads.
 */
export interface TaskOperations {
  list(): string
  create(
    by: string,
    input: { subject: string; description?: string; blocked_by?: string[]; owner?: string },
    turn: number | undefined,
  ): string
  update(by: string, id: string, change: TaskToolChange, turn: number | undefined): string
  claim(by: string, id: string, turn: number | undefined): string
  complete(by: string, id: string, result: string, turn: number | undefined): string
}

const id = z.string().regex(/^#?[1-9][0-9]{0,8}$/, 'a task id, such as "3"')
const ids = z.array(id).max(100)
const plainId = (value: string): string => value.replace(/^#/, '')

/** The board's tools: the lead plans and assigns, teammates claim, update and complete. */
export function taskTools(tasks: TaskOperations): { lead: Tool[]; teammate: Tool[] } {
  const listTasks = defineTool(
    {
      name: 'list_tasks',
      description:
        'List the task board: every task with its id, status, owner and the tasks blocking it.',
      input: z.object({}),
    },
    async () => tasks.list(),
  )
  const createTask = defineTool(
    {
      name: 'create_task',
      description:
        'Add a pending task to the board. blocked_by: ids of tasks that must be done first. owner: assign it to a teammate (it still claims it).',
      input: z.object({
        subject: z.string(),
        description: z.string().optional(),
        blocked_by: ids.optional(),
        owner: z.string().optional(),
      }),
    },
    async (input, context) =>
      tasks.create(
        context.agent,
        { ...input, blocked_by: input.blocked_by?.map(plainId) },
        context.turn,
      ),
  )
  const leadUpdate = defineTool(
    {
      name: 'update_task',
      description:
        'Change a task: subject, description, status, owner (null: unassigned), blocked_by (replaces the list), a note, or a message id to link.',
      input: z.object({
        id,
        subject: z.string().optional(),
        description: z.string().optional(),
        status: z.enum(TASK_STATUSES).optional(),
        owner: z.string().nullable().optional(),
        blocked_by: ids.optional(),
        note: z.string().optional(),
        link_message: z.string().max(200).optional(),
      }),
    },
    async ({ id: taskId, ...change }, context) =>
      tasks.update(
        context.agent,
        plainId(taskId),
        { ...change, blocked_by: change.blocked_by?.map(plainId) },
        context.turn,
      ),
  )
  const ownUpdate = defineTool(
    {
      name: 'update_task',
      description:
        'Change your own task: its description, status (review when it waits for a check, pending to hand it back), a note, or a message id to link.',
      input: z.object({
        id,
        description: z.string().optional(),
        status: z.enum(['pending', 'in_progress', 'review']).optional(),
        note: z.string().optional(),
        link_message: z.string().max(200).optional(),
      }),
    },
    async ({ id: taskId, ...change }, context) =>
      tasks.update(context.agent, plainId(taskId), change, context.turn),
  )
  const claimTask = defineTool(
    {
      name: 'claim_task',
      description:
        'Claim a pending, unblocked task: it becomes yours, in progress. Refused when another holds it, it is blocked, or you already hold one.',
      input: z.object({ id }),
    },
    async (input, context) => tasks.claim(context.agent, plainId(input.id), context.turn),
  )
  const completeTask = defineTool(
    {
      name: 'complete_task',
      description:
        'Mark your task done with a summary of what you did; tasks waiting on it are unblocked.',
      input: z.object({ id, result: z.string() }),
    },
    async (input, context) =>
      tasks.complete(context.agent, plainId(input.id), input.result, context.turn),
  )
  return {
    lead: [createTask, leadUpdate, listTasks],
    teammate: [listTasks, claimTask, completeTask, ownUpdate],
  }
}
