import { appendFileSync } from 'node:fs'
import { join } from 'node:path'
import { TeamError } from '../shared/errors'
import { LEAD, isValidName } from '../shared/names'
import { randomIds } from '../main/runtime/clock'
import { Mailbox } from '../main/runtime/mailbox/mailbox'
import { readProtocols } from '../main/runtime/protocols/store'
import { Roster } from '../main/runtime/roster/roster'
import { isTeamRunning } from '../main/runtime/team'
import { TeamPaths } from '../main/runtime/team-paths'
import type { CommandContext } from './commands'
import { UsageError, writeLine } from './output'

type Command = (context: CommandContext) => Promise<number>

/**
 * Commands for a team that runs in another process (the app, `agent-teams serve`, a chat):
 * they go through the files the runtime watches, never around it — protocol messages through
 * the inboxes, stop/resume/budget through `.team/control.jsonl`.
 */
function knownAgent(paths: TeamPaths, name: string): void {
  if (!isValidName(name)) throw new TeamError('invalid-name', `"${name}" is not an agent name.`)
  if (name !== LEAD && !Roster.read(paths).members.some((member) => member.name === name)) {
    throw new TeamError(
      'unknown-recipient',
      `"${name}" is not on the roster of ${paths.workspace}.`,
    )
  }
}

function sendControl(paths: TeamPaths, command: Record<string, unknown>): void {
  if (!isTeamRunning(paths))
    throw new TeamError(
      'invalid-argument',
      `No team is running in ${paths.workspace} (start it with the app, "agent-teams serve" or "agent-teams chat").`,
    )
  appendFileSync(paths.control, `${JSON.stringify({ v: 1, ...command, at: Date.now() / 1000 })}\n`)
}

function oneName(context: CommandContext): string {
  if (context.positionals.length !== 1) throw new UsageError('expected <name>')
  return context.positionals[0] ?? ''
}

export const stop: Command = async (context) => {
  const name = oneName(context)
  const paths = new TeamPaths(context.options.workspace)
  knownAgent(paths, name)
  sendControl(paths, { command: 'stop', name })
  await writeLine(context.output.stdout, `Asked the running team to stop ${name}.`)
  return 0
}

export const resume: Command = async (context) => {
  const name = oneName(context)
  const paths = new TeamPaths(context.options.workspace)
  knownAgent(paths, name)
  sendControl(paths, { command: 'resume', name })
  await writeLine(context.output.stdout, `Asked the running team to resume ${name}.`)
  return 0
}

export const shutdown: Command = async (context) => {
  const name = oneName(context)
  const paths = new TeamPaths(context.options.workspace)
  knownAgent(paths, name)
  if (name === LEAD)
    throw new TeamError(
      'invalid-argument',
      'The lead is not shut down by the protocol; stop it instead.',
    )
  const id = randomIds().next('shutdown')
  const mailbox = new Mailbox(paths, {
    members: () => Roster.read(paths).members.map((member) => member.name),
  })
  mailbox.send({
    from: 'user',
    to: name,
    type: 'shutdown_request',
    content: `Please shut down (request ${id}). Answer with shutdown_response.`,
    extra: { request_id: id },
  })
  await writeLine(
    context.output.stdout,
    context.options.json
      ? JSON.stringify({ request_id: id })
      : `Asked ${name} to shut down (request_id ${id}).`,
  )
  return 0
}

export const plan: Command = async (context) => {
  const [decision, requestId, ...rest] = context.positionals
  if (
    (decision !== 'approve' && decision !== 'reject') ||
    requestId === undefined ||
    rest.length > 0
  ) {
    throw new UsageError(
      'expected "plan approve <request_id>" or "plan reject <request_id> --feedback TEXT"',
    )
  }
  const feedback = context.options.feedback ?? ''
  if (decision === 'reject' && feedback.trim() === '')
    throw new UsageError('a rejection needs --feedback saying what to change')
  const paths = new TeamPaths(context.options.workspace)
  const request = readProtocols(join(paths.root, 'protocols.json')).find(
    (candidate) => candidate.id === requestId && candidate.kind === 'plan',
  )
  if (!request)
    throw new TeamError(
      'invalid-argument',
      `There is no plan request ${requestId} (see "agent-teams requests").`,
    )
  if (request.status !== 'pending')
    throw new TeamError('invalid-argument', `Plan ${requestId} was already ${request.status}.`)
  const mailbox = new Mailbox(paths, {
    members: () => Roster.read(paths).members.map((member) => member.name),
  })
  const approve = decision === 'approve'
  mailbox.send({
    from: 'user',
    to: request.from,
    type: 'plan_approval_response',
    content: feedback || (approve ? 'Plan approved; go ahead.' : ''),
    extra: { request_id: requestId, approve, feedback },
  })
  await writeLine(
    context.output.stdout,
    `${approve ? 'Approved' : 'Rejected'} plan ${requestId} of ${request.from}.`,
  )
  return 0
}

export const requests: Command = async (context) => {
  if (context.positionals.length > 0) throw new UsageError('takes no arguments')
  const paths = new TeamPaths(context.options.workspace)
  const all = readProtocols(join(paths.root, 'protocols.json'))
  if (context.options.json) {
    for (const request of all) await writeLine(context.output.stdout, JSON.stringify(request))
    return 0
  }
  if (all.length === 0) await writeLine(context.output.stdout, 'No protocol requests.')
  for (const request of all) {
    const what =
      request.kind === 'plan'
        ? `plan of ${request.from}: ${(request.plan ?? '').split('\n')[0]}`
        : `shutdown of ${request.to}, asked by ${request.from}`
    await writeLine(
      context.output.stdout,
      `${request.id} [${request.status}] ${what}${request.reason ? ` (${request.reason})` : ''}`,
    )
  }
  return 0
}

export const budget: Command = async (context) => {
  if (context.positionals.length > 1)
    throw new UsageError("expected at most one <name> (none: the team's budget)")
  const name = context.positionals[0] ?? null
  const paths = new TeamPaths(context.options.workspace)
  if (name !== null) knownAgent(paths, name)
  const parse = (value: string | undefined, option: string): number | null => {
    if (value === undefined || value === 'none') return null
    const number = Number(value)
    if (!Number.isSafeInteger(number) || number < 1)
      throw new UsageError(`${option} takes a whole number of at least 1, or "none"`)
    return number
  }
  const tokens = parse(context.options.tokens, '--tokens')
  const rounds = parse(context.options.rounds, '--rounds')
  sendControl(paths, { command: 'budget', name, tokens, rounds })
  await writeLine(
    context.output.stdout,
    `Set the ${name === null ? "team's" : `${name}'s`} budget to ${tokens ?? 'no'} tokens and ${rounds ?? 'no'} model calls; paused agents go on.`,
  )
  return 0
}
