import { setTimeout as sleep } from 'node:timers/promises'
import { TeamError } from '../shared/errors'
import { USER } from '../shared/names'
import { taskIdSchema } from '../shared/tasks'
import {
  branchActionSchema,
  branchSchema,
  diffScopeSchema,
  revisionSchema,
  type MergeResult,
  type ReviewDiff,
} from '../shared/worktree'
import { Mailbox } from '../runtime/mailbox/mailbox'
import { Roster } from '../runtime/roster/roster'
import { TeamPaths } from '../runtime/team/paths'
import { appDataFolder, workspaceDataFolder } from '../runtime/fs/app-folders'
import { TeamWorktrees } from '../runtime/git/team-worktrees'
import type { CommandContext } from './commands'
import { knownAgent, sendControl } from './control-commands'
import { oneLine, UsageError, writeLine } from './output'

type Command = (context: CommandContext) => Promise<number>

/** How long `remove` waits for the running team to take the teammate off config.json. */
const REMOVE_WAIT_MS = 10_000

/**
 * The review loop over a workspace, from another process: git for the branches, config.json
 * read for the roster, and the mailbox for what the teammate is told (a running team's watcher
 * wakes it). Git commands need no running team.
 */
function openReview(context: CommandContext, name: string): TeamWorktrees {
  const paths = new TeamPaths(context.options.workspace)
  knownAgent(paths, name)
  const mailbox = new Mailbox(paths, {
    members: () => Roster.read(paths).members.map((member) => member.name),
  })
  return new TeamWorktrees({
    workspace: paths.workspace,
    dataFolder: workspaceDataFolder(appDataFolder(process.env), paths.workspace),
    roster: () => Roster.read(paths),
    sendToTeammate: (to, content, extra) => {
      mailbox.send({ from: USER, to, content, type: 'message', extra })
    },
  })
}

/** A zod-checked option: the rule's words when it fails (exit 2). */
function checked<T>(
  option: string,
  value: string,
  schema: {
    safeParse(
      value: unknown,
    ): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } }
  },
): T {
  const result = schema.safeParse(value)
  if (!result.success)
    throw new UsageError(
      `${option} ${JSON.stringify(value)} ${result.error.issues[0]?.message ?? 'is invalid'}`,
    )
  return result.data
}

function describeDiff(diff: ReviewDiff): string {
  const header = `${diff.branch} against ${diff.base} (${diff.scope}): ${diff.files.length} file${diff.files.length === 1 ? '' : 's'} changed`
  const files = diff.files.map((file) => {
    const overlap = Object.hasOwn(diff.overlaps, file.path) ? diff.overlaps[file.path] : undefined
    const warning = overlap ? `  (also changed by ${overlap.join(', ')})` : ''
    return `  ${file.status} ${oneLine(file.path)} +${file.additions} -${file.deletions}${warning}`
  })
  return [
    header,
    ...(diff.note === undefined ? [] : [diff.note]),
    ...files,
    '',
    ...diff.files.map((file) => file.patch),
  ]
    .join('\n')
    .trimEnd()
}

function describeMerge(name: string, result: MergeResult): string {
  switch (result.outcome) {
    case 'merged':
      return `Merged team/${name} into ${result.into}${result.squash ? ' (squashed)' : ''} at ${result.commit.slice(0, 12)}: ${result.files.map(oneLine).join(', ')}`
    case 'nothing':
      return `team/${name} has nothing that ${result.into} does not have.`
    case 'conflict':
      return `team/${name} conflicts with ${result.into} in: ${result.files.map(oneLine).join(', ')}. Nothing was merged; ${result.into} is as it was.`
    case 'refused':
      return `Not merged: ${oneLine(result.reason)}`
    case 'needs-confirmation':
      return (
        `Not merged yet: team/${name} changes files that change how git or the app behaves: ` +
        `${result.files.map(oneLine).join(', ')}. Read them (agent-teams review diff ${name}), then merge with --yes.`
      )
  }
}

const diff: Command = async (context) => {
  const [name = ''] = expect(context, 1, '<name>')
  const review = openReview(context, name)
  const { from, to } = context.options
  const task =
    context.options.task === undefined
      ? undefined
      : checked('--task', context.options.task, taskIdSchema)
  // One scope at a time: a flag that another one would override is refused, never dropped.
  const ranged = from !== undefined || to !== undefined
  if (ranged && task !== undefined)
    throw new UsageError('--task and --from/--to are two scopes; give one of them')
  const asked = context.options.scope
  if (
    asked !== undefined &&
    ((task !== undefined && asked !== 'task') || (ranged && asked !== 'range'))
  )
    throw new UsageError(
      `--scope ${asked} contradicts ${task !== undefined ? '--task' : '--from/--to'}`,
    )
  const scope =
    from !== undefined || to !== undefined
      ? 'range'
      : task !== undefined
        ? 'task'
        : checked('--scope', context.options.scope ?? 'branch', diffScopeSchema)
  if (scope === 'task' && task === undefined)
    throw new UsageError('the task scope needs the task: --task ID')
  let range: { from: string; to: string } | undefined
  if (scope === 'range') {
    if (from === undefined || to === undefined)
      throw new UsageError('a range needs both --from and --to')
    range = {
      from: checked('--from', from, revisionSchema),
      to: checked('--to', to, revisionSchema),
    }
  }
  const result = await review.diff(name, scope, range, task)
  await writeLine(
    context.output.stdout,
    context.options.json ? JSON.stringify(result) : describeDiff(result),
  )
  return 0
}

const merge: Command = async (context) => {
  const [name = ''] = expect(context, 1, '<name>')
  const review = openReview(context, name)
  const into =
    context.options.into === undefined
      ? undefined
      : checked('--into', context.options.into, branchSchema)
  const result = await review.merge(name, {
    into,
    squash: context.options.squash === true,
    confirm: context.options.yes === true,
  })
  const handBack = result.outcome === 'conflict' && context.options.handBack === true
  if (handBack) review.handBack(name, result.into, result.files)
  const text = describeMerge(name, result) + (handBack ? ` Handed back to ${name}.` : '')
  await writeLine(
    context.output.stdout,
    context.options.json ? JSON.stringify({ ...result, handedBack: handBack }) : text,
  )
  return result.outcome === 'merged' || result.outcome === 'nothing' ? 0 : 1
}

const reject: Command = async (context) => {
  const [name = ''] = expect(context, 1, '<name>')
  const reason = context.options.reason?.trim() ?? ''
  if (reason === '') throw new UsageError('say why with --reason')
  openReview(context, name).reject(name, reason)
  await writeLine(context.output.stdout, `Told ${name} its changes were not accepted.`)
  return 0
}

const comment: Command = async (context) => {
  const [name = ''] = expect(context, 1, '<name>')
  const { file, line, text } = context.options
  if (file === undefined || file.trim() === '') throw new UsageError('name the file with --file')
  if (line === undefined || !/^[1-9]\d{0,8}$/.test(line))
    throw new UsageError('--line takes a line number (1 or more)')
  if (text === undefined || text.trim() === '')
    throw new UsageError('write the comment with --text')
  openReview(context, name).comment(name, { file, line: Number(line), text })
  await writeLine(context.output.stdout, `Sent the comment on ${file}, line ${line}, to ${name}.`)
  return 0
}

const REVIEW_COMMANDS: Record<string, Command> = { diff, merge, reject, comment }

/** `agent-teams review diff|merge|reject|comment <name> …` */
export const review: Command = async (context) => {
  const [verb = '', ...rest] = context.positionals
  const command = Object.hasOwn(REVIEW_COMMANDS, verb) ? REVIEW_COMMANDS[verb] : undefined
  if (!command)
    throw new UsageError(
      `expected one of ${Object.keys(REVIEW_COMMANDS).join(', ')} after "review"`,
    )
  return command({ ...context, positionals: rest })
}

/**
 * `agent-teams remove <name> [--branch keep|merge|delete]`: the running team takes the teammate
 * off. Unmerged work without --branch is refused here, before anything is asked.
 */
export const remove: Command = async (context) => {
  const [name = ''] = expect(context, 1, '<name>')
  const branch =
    context.options.branch === undefined
      ? undefined
      : checked('--branch', context.options.branch, branchActionSchema)
  const paths = new TeamPaths(context.options.workspace)
  const review = openReview(context, name)
  const base = review.record(name)?.base
  if (branch === undefined && base !== undefined && (await review.git.hasUnmergedWork(name, base)))
    throw new TeamError(
      'unmerged-work',
      `${name}'s branch team/${name} has work that ${base} does not have; ` +
        'choose --branch keep, --branch merge or --branch delete.',
    )
  sendControl(paths, { command: 'remove', name, ...(branch === undefined ? {} : { branch }) })
  const deadline = Date.now() + REMOVE_WAIT_MS
  while (Roster.read(paths).members.some((member) => member.name === name)) {
    if (Date.now() > deadline)
      throw new TeamError(
        'timed-out',
        `The running team has not removed ${name} after ${REMOVE_WAIT_MS / 1000} s; its window says why.`,
      )
    await sleep(50)
  }
  await writeLine(context.output.stdout, `Removed ${name} from the team.`)
  return 0
}

function expect(context: CommandContext, count: number, what: string): string[] {
  if (context.positionals.length !== count) throw new UsageError(`expected ${what}`)
  return [...context.positionals]
}
