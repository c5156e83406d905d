import { LEAD, USER, isValidName, nameProblem } from '../shared/names'
import { TASK_ID_PATTERN, taskStatuses, type Task } from '../shared/tasks'
import { TaskBoard } from '../runtime/tasks/task-board'
import { boardText, taskDetail, taskLine } from '../runtime/tasks/task-text'
import { TeamPaths } from '../runtime/team/paths'
import type { CommandContext } from './commands'
import { oneLine, UsageError, writeLine } from './output'

type Command = (context: CommandContext) => Promise<number>

/**
 * `agent-teams tasks add|list|claim|done|show`: the task board from a shell. It works on the
 * files with the same lock as the runtime, so it needs no running team, and a running team sees
 * every change through its watcher.
 */
export const tasks: Command = async (context) => {
  const [sub, ...rest] = context.positionals
  const run = sub !== undefined && Object.hasOwn(subcommands, sub) ? subcommands[sub] : undefined
  if (run === undefined)
    throw new UsageError(
      `${sub === undefined ? 'needs a subcommand' : `has no subcommand "${sub}"`}: add, list, claim, done or show`,
    )
  return run({ ...context, positionals: rest })
}

/**
 * A task with the fields its lines print on one line made visible: an agent chose the subject
 * and the names, and a newline in them would start a line of their own on the board.
 */
function shown(task: Task): Task {
  return {
    ...task,
    subject: oneLine(task.subject),
    owner: task.owner === null ? null : oneLine(task.owner),
    created_by: oneLine(task.created_by),
    links: task.links.map((link) =>
      link.kind === 'turn' ? { ...link, agent: oneLine(link.agent) } : link,
    ),
    notes: task.notes.map((note) => ({ ...note, by: oneLine(note.by) })),
  }
}

function boardOf(context: CommandContext): TaskBoard {
  return new TaskBoard(new TeamPaths(context.options.workspace).root)
}

function taskId(value: string | undefined): string {
  if (value === undefined) throw new UsageError('expected a task id, such as 3')
  const id = value.replace(/^#/, '')
  if (!TASK_ID_PATTERN.test(id))
    throw new UsageError(`"${value}" is not a task id; ids are whole numbers, such as 3`)
  return id
}

function exactly(context: CommandContext, count: number, what: string): string[] {
  if (context.positionals.length !== count)
    throw new UsageError(
      `expected ${what}, got ${context.positionals.length} argument${context.positionals.length === 1 ? '' : 's'}${context.positionals.length > count ? ' (quote text with spaces)' : ''}`,
    )
  return [...context.positionals]
}

/** `--as NAME`: who claims or completes (a teammate's name, `lead` or `user`). */
function actor(context: CommandContext, required: boolean): string {
  const name = context.options.as
  if (name === undefined) {
    if (required) throw new UsageError('needs --as <name>: who claims or completes the task')
    return USER
  }
  if (!isValidName(name) && name !== LEAD && name !== USER)
    throw new UsageError(`--as "${name}": ${nameProblem(name) ?? 'not a valid name'}`)
  return name
}

const add: Command = async (context) => {
  const [subject] = exactly(context, 1, '"<subject>"') as [string]
  if (subject.trim() === '') throw new UsageError('the subject is empty')
  const blockedBy = (context.options.blockedBy ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '')
    .map(taskId)
  const task = boardOf(context).create({
    subject,
    description: context.options.description ?? '',
    blockedBy,
    by: actor(context, false),
  })
  await writeLine(context.output.stdout, context.options.json ? JSON.stringify(task) : task.id)
  return 0
}

const list: Command = async (context) => {
  exactly(context, 0, 'no arguments')
  const board = boardOf(context).list()
  if (context.options.json) await writeLine(context.output.stdout, JSON.stringify(board))
  else
    await writeLine(context.output.stdout, boardText({ ...board, tasks: board.tasks.map(shown) }))
  return 0
}

const show: Command = async (context) => {
  const [value] = exactly(context, 1, '<id>')
  const board = boardOf(context)
  const task = board.get(taskId(value))
  const all = board.list().tasks
  await writeLine(
    context.output.stdout,
    context.options.json ? JSON.stringify(task) : taskDetail(shown(task), all),
  )
  return 0
}

/** Exit 0 when won; 1 when taken, blocked or otherwise refused, with the reason. */
const claim: Command = async (context) => {
  const [value] = exactly(context, 1, '<id>')
  const id = taskId(value)
  const outcome = boardOf(context).claim(id, actor(context, true))
  if (context.options.json) {
    await writeLine(
      context.output.stdout,
      JSON.stringify(
        outcome.ok
          ? { claimed: true, task: outcome.task }
          : {
              claimed: false,
              reason: outcome.reason,
              message: outcome.message,
              ...(outcome.owner === undefined ? {} : { owner: outcome.owner }),
              ...(outcome.blockers === undefined ? {} : { blockers: outcome.blockers }),
            },
      ),
    )
  } else if (outcome.ok) await writeLine(context.output.stdout, `${oneLine(outcome.message)}.`)
  else
    await writeLine(context.output.stderr, `agent-teams tasks claim: ${oneLine(outcome.message)}`)
  return outcome.ok ? 0 : 1
}

const done: Command = async (context) => {
  const [value] = exactly(context, 1, '<id>')
  const board = boardOf(context)
  const { task, unblocked } = board.complete(
    taskId(value),
    actor(context, true),
    context.options.result ?? null,
  )
  if (context.options.json)
    await writeLine(
      context.output.stdout,
      JSON.stringify({ task, unblocked: unblocked.map((each) => each.id) }),
    )
  else {
    const all = taskStatuses(board.list().tasks)
    const lines = [`Done: ${taskLine(shown(task), all)}`]
    if (unblocked.length > 0)
      lines.push(`Unblocked: ${unblocked.map((each) => taskLine(shown(each), all)).join('; ')}`)
    await writeLine(context.output.stdout, lines.join('\n'))
  }
  return 0
}

const subcommands: Record<string, Command> = { add, list, show, claim, done }
