import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { TeamError } from '../shared/errors'
import { LEAD, USER } from '../shared/names'
import { taskIdSchema } from '../shared/tasks'
import {
  checkpointPolicySchema,
  type CheckpointPolicy,
  type UndoPlan,
  type UndoResult,
  type UndoTarget,
} from '../shared/undo'
import { readTranscript, TranscriptStore } from '../runtime/agents/transcript-store'
import { appDataFolder, workspaceDataFolder } from '../runtime/fs/app-folders'
import { TeamWorktrees } from '../runtime/git/team-worktrees'
import { Mailbox } from '../runtime/mailbox/mailbox'
import { Roster } from '../runtime/roster/roster'
import { systemClock } from '../runtime/system/clock'
import { readAllTasks, tasksDirectory } from '../runtime/tasks/task-files'
import { isTeamRunning } from '../runtime/team/team'
import { TeamPaths } from '../runtime/team/paths'
import { TeamCheckpoints } from '../runtime/undo/team-checkpoints'
import { TeamUndo } from '../runtime/undo/team-undo'
import type { CommandContext } from './commands'
import { knownAgent, sendControl } from './control-commands'
import { oneLine, UsageError, writeLine } from './output'
import { confirm } from './roster-reset'

type Command = (context: CommandContext) => Promise<number>

/** How long the CLI waits for a running team to finish an undo it asked for. */
const UNDO_WAIT_MS = 60_000

/**
 * Undo from a shell. The plan (and `--dry-run`, `checkpoints`) is made here, on git and the
 * app's records. The undo itself runs in the team when one runs (through control.jsonl: the
 * team holds the agent's transcript and refuses while it works), else here on the files; the
 * journal makes either safe against a crash.
 */
function openUndo(context: CommandContext, name: string): { undo: TeamUndo; paths: TeamPaths } {
  const paths = new TeamPaths(context.options.workspace)
  if (name !== LEAD) knownAgent(paths, name)
  const dataFolder = workspaceDataFolder(appDataFolder(process.env), paths.workspace)
  const roster = () => Roster.read(paths)
  const mailbox = new Mailbox(paths, { members: () => roster().members.map((m) => m.name) })
  const worktrees = new TeamWorktrees({
    workspace: paths.workspace,
    dataFolder,
    roster,
    sendToTeammate: () => undefined,
  })
  const checkpoints = new TeamCheckpoints({
    worktrees,
    dataFolder,
    taskOf: (owner) =>
      readAllTasks(tasksDirectory(paths.root)).tasks.find(
        (task) => task.owner === owner && task.status === 'in_progress',
      )?.id ?? null,
    now: () => Date.now() / 1000,
  })
  const transcript = () => readTranscript(paths.transcript(name)).records
  const undo = new TeamUndo({
    checkpoints,
    dataFolder,
    transcriptEnd: () => transcript().at(-1)?.seq ?? 0,
    hasUndoRecord: (_agent, undoId) =>
      transcript().some((record) => record.kind === 'undo' && record.undo_id === undoId),
    appendUndoRecord: (agent, record) => {
      const store = TranscriptStore.open(paths.transcript(agent), systemClock)
      try {
        store.append(record)
        store.flush()
      } finally {
        store.close()
      }
    },
    notify: (agent, content, undoId) =>
      mailbox.send({ from: USER, to: agent, content, extra: { undo: { id: undoId } } }),
    // No team runs (checked before): nothing of the agent runs either.
    busy: () => null,
    exclusive: (_agent, work) => work(),
    newId: newUndoId,
  })
  return { undo, paths }
}

function newUndoId(): string {
  return `undo-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`
}

function targetOf(context: CommandContext): UndoTarget {
  const { turns, task, to } = context.options
  const given = [turns, task, to].filter((value) => value !== undefined).length
  if (given > 1) throw new UsageError('give one of --turns, --task and --to')
  if (task !== undefined) {
    const parsed = taskIdSchema.safeParse(task)
    if (!parsed.success) throw new UsageError(`--task ${JSON.stringify(task)} is not a task id`)
    return { by: 'task', task: parsed.data }
  }
  if (to !== undefined) return { by: 'checkpoint', seq: wholeNumber('--to', to) }
  return { by: 'turns', turns: turns === undefined ? 1 : wholeNumber('--turns', turns) }
}

function wholeNumber(option: string, value: string): number {
  const number = Number(value)
  if (!Number.isInteger(number) || number < 1 || number > 1_000_000)
    throw new UsageError(`${option} takes a whole number of at least 1, not "${value}"`)
  return number
}

function describePlan(plan: UndoPlan): string {
  const lines = [
    `Undo of ${plan.name}: back to checkpoint ${plan.checkpoint.seq} (before transcript record #${plan.turns.from}; records #${plan.turns.from}–#${plan.turns.to} will be marked undone)`,
  ]
  if (plan.files.length === 0) lines.push('No file changes.')
  for (const file of plan.files)
    lines.push(
      `  ${file.change} ${oneLine(file.path)}${file.changedBy === null ? '' : `  (changed by ${file.changedBy} since: kept unless --overwrite)`}`,
    )
  if (plan.commits.action === 'reset')
    lines.push(
      `Its ${plan.commits.count} commit${plan.commits.count === 1 ? '' : 's'} since then leave its branch (reset to ${(plan.checkpoint.head ?? '').slice(0, 12)}).`,
    )
  if (plan.commits.action === 'refused') lines.push(`Refused: ${plan.commits.reason ?? ''}`)
  if (plan.notCovered.length > 0)
    lines.push(`Not covered (ignored by git, left as they are): ${plan.notCovered.join(', ')}`)
  lines.push('', ...plan.files.map((file) => file.patch))
  return lines.join('\n').trimEnd()
}

async function report(context: CommandContext, result: UndoResult): Promise<number> {
  await writeLine(
    context.output.stdout,
    context.options.json ? JSON.stringify(result) : result.summary,
  )
  return 0
}

/** `agent-teams undo <name> [--turns N | --task ID | --to SEQ] [--dry-run] [--yes] …`. */
export const undoCommand: Command = async (context) => {
  if (context.positionals.length !== 1) throw new UsageError('expected <name>')
  const name = context.positionals[0] ?? ''
  const { undo, paths } = openUndo(context, name)
  const redoOf = context.options.redo
  if (redoOf !== undefined && (context.options.dryRun || context.options.overwrite !== undefined))
    throw new UsageError('--redo takes no --dry-run or --overwrite')
  let target: UndoTarget
  if (redoOf === undefined) target = targetOf(context)
  else {
    const journal = undo.journals.read(name, redoOf)
    if (journal === null || journal.state !== 'done')
      throw new TeamError('not-found', `${name} has no finished undo ${redoOf}.`)
    target = { by: 'checkpoint', seq: journal.before }
  }
  const running = isTeamRunning(paths)
  if (!running) await undo.recover(name)
  const plan = await undo.plan(name, target)
  if (context.options.dryRun) {
    await writeLine(
      context.output.stdout,
      context.options.json ? JSON.stringify(plan) : describePlan(plan),
    )
    return plan.commits.action === 'refused' ? 1 : 0
  }
  if (!context.options.json) await writeLine(context.output.stdout, describePlan(plan))
  if (plan.commits.action === 'refused')
    throw new TeamError('undo-refused', `Not undone: ${plan.commits.reason ?? ''}`)
  if (!context.options.yes && !(await confirm(context, 'Undo this?'))) {
    await writeLine(context.output.stderr, 'Not undone (say yes, or give --yes).')
    return 1
  }
  const request = {
    name,
    target,
    planId: plan.planId,
    overwrite: context.options.overwrite,
    reason: context.options.reason,
    by: USER,
    undoId: newUndoId(),
    ...(redoOf === undefined ? {} : { redoOf }),
  }
  if (!running) return report(context, await undo.apply(request))
  sendControl(paths, {
    command: 'undo',
    name,
    undo_id: request.undoId,
    target,
    plan_id: plan.planId,
    ...(request.overwrite === undefined ? {} : { overwrite: request.overwrite }),
    ...(request.reason === undefined ? {} : { reason: request.reason }),
    ...(redoOf === undefined ? {} : { redo_of: redoOf }),
  })
  const deadline = Date.now() + UNDO_WAIT_MS
  for (;;) {
    const outcome = undo.journals.readOutcome(name, request.undoId)
    if (outcome?.ok === true) return report(context, outcome.result)
    if (outcome?.ok === false)
      throw new TeamError(
        outcome.code === 'member-working' || outcome.code === 'plan-outdated'
          ? outcome.code
          : 'undo-refused',
        outcome.message,
      )
    if (Date.now() > deadline)
      throw new TeamError(
        'timed-out',
        `The running team has not finished undo ${request.undoId} after ${UNDO_WAIT_MS / 1000} s; its window shows why.`,
      )
    await sleep(50)
  }
}

/** `agent-teams checkpoints <name>` and `agent-teams checkpoints --policy [--max N] [--max-age-days D]`. */
export const checkpointsCommand: Command = async (context) => {
  if (context.options.policy) {
    if (context.positionals.length > 0) throw new UsageError('--policy takes no <name>')
    const { undo } = openUndo(context, LEAD)
    const current = undo.list(LEAD).policy
    const { max, maxAgeDays } = context.options
    let policy: CheckpointPolicy = current
    if (max !== undefined || maxAgeDays !== undefined) {
      const parsed = checkpointPolicySchema.safeParse({
        maxPerAgent: max === undefined ? current.maxPerAgent : Number(max),
        maxAgeDays: maxAgeDays === undefined ? current.maxAgeDays : Number(maxAgeDays),
      })
      if (!parsed.success)
        throw new UsageError(
          `the policy ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? 'is invalid'}`,
        )
      policy = await undo.setPolicy(parsed.data)
    }
    await writeLine(
      context.output.stdout,
      context.options.json
        ? JSON.stringify(policy)
        : `Checkpoints kept: the newest ${policy.maxPerAgent} per agent, none older than ${policy.maxAgeDays} days.`,
    )
    return 0
  }
  if (context.positionals.length !== 1) throw new UsageError('expected <name> (or --policy)')
  const name = context.positionals[0] ?? ''
  const { undo } = openUndo(context, name)
  const { checkpoints, policy } = undo.list(name)
  const bytes = await undo.checkpoints.diskUsage(name)
  const shown = checkpoints.map(({ tree: _tree, ...checkpoint }) => checkpoint)
  if (context.options.json) {
    await writeLine(context.output.stdout, JSON.stringify({ checkpoints: shown, policy, bytes }))
    return 0
  }
  const lines = shown.map(
    (checkpoint) =>
      `  ${String(checkpoint.seq).padStart(4)}  before #${checkpoint.turnSeq}  ${new Date(checkpoint.at * 1000).toISOString()}  ${checkpoint.kind ?? 'turn'}${checkpoint.opensTurn === true ? ' (turn start)' : ''}${checkpoint.task === null ? '' : `  task #${checkpoint.task}`}  ${checkpoint.commit.slice(0, 12)}`,
  )
  await writeLine(
    context.output.stdout,
    [
      `${name}: ${shown.length} checkpoint${shown.length === 1 ? '' : 's'}, ${Math.round(bytes / 1024)} KiB of their own; kept: the newest ${policy.maxPerAgent}, none older than ${policy.maxAgeDays} days`,
      ...lines,
    ].join('\n'),
  )
  return 0
}
