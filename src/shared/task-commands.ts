import { z } from 'zod'
import {
  MAX_DESCRIPTION_LENGTH,
  MAX_RESULT_LENGTH,
  MAX_SUBJECT_LENGTH,
  TASK_STATUSES,
  taskBoardSchema,
  taskIdSchema,
  taskSchema,
} from './tasks'

const agentName = z.string().min(1).max(64)

/**
 * The task board's commands in the contract (`contract.ts` spreads them into `commands`): the
 * person lists, creates, edits and assigns tasks; the board's changes come as `tasks-changed`.
 */
export const taskCommands = {
  listTasks: { params: z.object({}).strict(), result: taskBoardSchema },
  createTask: {
    params: z
      .object({
        subject: z.string().min(1).max(MAX_SUBJECT_LENGTH),
        description: z.string().max(MAX_DESCRIPTION_LENGTH).optional(),
        blockedBy: z.array(taskIdSchema).max(1000).optional(),
        owner: agentName.nullable().optional(),
      })
      .strict(),
    result: taskSchema,
  },
  /** Any field; `owner` assigns (null: nobody); `blockedBy` replaces the list. */
  updateTask: {
    params: z
      .object({
        id: taskIdSchema,
        subject: z.string().min(1).max(MAX_SUBJECT_LENGTH).optional(),
        description: z.string().max(MAX_DESCRIPTION_LENGTH).optional(),
        status: z.enum(TASK_STATUSES).optional(),
        owner: agentName.nullable().optional(),
        blockedBy: z.array(taskIdSchema).max(1000).optional(),
        result: z.string().max(MAX_RESULT_LENGTH).nullable().optional(),
        note: z.string().max(10_000).optional(),
      })
      .strict(),
    result: taskSchema,
  },
}
