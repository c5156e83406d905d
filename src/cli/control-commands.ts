import { setTimeout as sleep } from 'node:timers/promises'
import { appendFileSync } from 'node:fs'
import { join } from 'node:path'
import { TeamError, type ErrorCode } from '../shared/errors'
import { LEAD } from '../shared/names'
import type { MemberStatus } from '../shared/roster'
import { randomIds } from '../runtime/system/clock'
import { readProtocols, type ProtocolRequest } from '../runtime/protocols/store'
import { Roster } from '../runtime/roster/roster'
import { isTeamRunning } from '../runtime/team/team'
import { assertKnownAgent } from '../runtime/host/known-agent'
import { TeamPaths } from '../runtime/team/paths'
import type { CommandContext } from './commands'
import { oneLine, UsageError, writeLine } from './output'

type Command = (context: CommandContext) => Promise<number>

/**
 * Commands for a team that runs in another process (the app, `agent-teams serve`, a chat):
 * they go through the files the runtime watches, never around it — protocol messages through
 * the inboxes, stop/resume/budget through `.team/control.jsonl`.
 */
export function knownAgent(paths: TeamPaths, name: string): void {
  const file = Roster.read(paths)
  assertKnownAgent(
    name,
    { find: (wanted) => file.members.find((member) => member.name === wanted) },
    paths.workspace,
  )
}

function assertRunning(paths: TeamPaths): void {
  if (!isTeamRunning(paths))
    throw new TeamError(
      'not-running',
      `No team is running in ${paths.workspace} (start it with the app, "agent-teams serve" or "agent-teams chat").`,
    )
}

export function sendControl(paths: TeamPaths, command: Record<string, unknown>): void {
  assertRunning(paths)
  appendFileSync(paths.control, `${JSON.stringify({ v: 1, ...command, at: Date.now() / 1000 })}\n`)
}

/** How long a command waits for the running team to record what it asked for. */
const RECORD_WAIT_MS = 10_000

/**
 * Waits until the runtime's protocol record shows what was asked (the runtime reads
 * control.jsonl when its watcher reports the append). Says so when it does not, rather than
 * claim something that did not happen.
 */
async function awaitRecord(
  paths: TeamPaths,
  id: string,
  done: (request: ProtocolRequest | undefined) => boolean,
): Promise<ProtocolRequest | undefined> {
  const deadline = Date.now() + RECORD_WAIT_MS
  for (;;) {
    const request = readProtocols(join(paths.root, 'protocols.json')).find(
      (candidate) => candidate.id === id,
    )
    if (done(request)) return request
    if (Date.now() > deadline)
      throw new TeamError(
        'timed-out',
        `The running team has not recorded request ${id} after ${RECORD_WAIT_MS / 1000} s; its window shows why (or see "agent-teams requests").`,
      )
    await sleep(50)
  }
}

/** A member's status in config.json (the lead is not on the roster: null). */
function memberStatus(paths: TeamPaths, name: string): MemberStatus | null {
  return Roster.read(paths).members.find((member) => member.name === name)?.status ?? null
}

function oneName(context: CommandContext): string {
  if (context.positionals.length !== 1) throw new UsageError('expected <name>')
  return context.positionals[0] ?? ''
}

/**
 * What stop and resume cannot do to an agent in a status, said as it is, with the code of what
 * holds it; absent: ask the team.
 */
const NOTHING_TO_STOP: Partial<Record<MemberStatus, readonly [ErrorCode, string]>> = {
  idle: ['not-running', 'is idle: there is nothing to stop'],
  error: [
    'not-running',
    'ended in error and is not running: there is nothing to stop ("agent-teams resume" retries)',
  ],
  shutdown: ['member-shut-down', 'is shut down: there is nothing to stop'],
}
const NOTHING_TO_RESUME: Partial<Record<MemberStatus, readonly [ErrorCode, string]>> = {
  working: ['member-working', 'is working: there is nothing to resume'],
  'waiting-for-you': [
    'awaiting-answer',
    'waits for your answer: answer it ("agent-teams queue" lists it)',
  ],
  shutdown: ['member-shut-down', 'is shut down: spawn it again to give it work'],
}

/** Refuses what `refusals` holds for the agent's status in config.json. */
function refuseByStatus(
  paths: TeamPaths,
  name: string,
  refusals: Partial<Record<MemberStatus, readonly [ErrorCode, string]>>,
): void {
  const status = memberStatus(paths, name)
  const refusal = status === null ? undefined : refusals[status]
  if (refusal !== undefined) throw new TeamError(refusal[0], `${name} ${refusal[1]}.`)
}

export const stop: Command = async (context) => {
  const name = oneName(context)
  const paths = new TeamPaths(context.options.workspace)
  knownAgent(paths, name)
  assertRunning(paths)
  refuseByStatus(paths, name, NOTHING_TO_STOP)
  sendControl(paths, { command: 'stop', name })
  await writeLine(context.output.stdout, `Asked the running team to stop ${name}.`)
  return 0
}

export const resume: Command = async (context) => {
  const name = oneName(context)
  const paths = new TeamPaths(context.options.workspace)
  knownAgent(paths, name)
  assertRunning(paths)
  refuseByStatus(paths, name, NOTHING_TO_RESUME)
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
      'not-permitted',
      'The lead is not shut down by the protocol; stop it instead.',
    )
  if (memberStatus(paths, name) === 'shutdown')
    throw new TeamError('member-shut-down', `${name} is already shut down.`)
  // The runtime records the request and sends its notice: a line appended to the inbox by us
  // would only claim a request, and the runtime refuses such claims.
  const id = randomIds().next('shutdown')
  sendControl(paths, { command: 'shutdown', name, request_id: id })
  await awaitRecord(paths, id, (request) => request !== undefined)
  await writeLine(
    context.output.stdout,
    context.options.json
      ? JSON.stringify({ request_id: id })
      : `Asked ${name} to shut down (request_id ${id}); "agent-teams requests" shows its answer.`,
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
      'not-found',
      `There is no plan request ${requestId} (see "agent-teams requests").`,
    )
  if (request.status !== 'pending')
    throw new TeamError('already-settled', `Plan ${requestId} was already ${request.status}.`)
  const approve = decision === 'approve'
  sendControl(paths, { command: 'plan', request_id: requestId, approve, feedback })
  const settled = await awaitRecord(
    paths,
    requestId,
    (candidate) => candidate !== undefined && candidate.status !== 'pending',
  )
  const wanted = approve ? 'approved' : 'rejected'
  if (settled?.status !== wanted)
    throw new TeamError(
      'already-settled',
      `Plan ${requestId} was ${settled?.status ?? 'settled'} meanwhile, not by this command.`,
    )
  await writeLine(
    context.output.stdout,
    `${approve ? 'Approved' : 'Rejected'} plan ${requestId} of ${oneLine(request.from)}.`,
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
        ? `plan of ${oneLine(request.from)}: ${oneLine((request.plan ?? '').split('\n')[0] ?? '')}`
        : `shutdown of ${oneLine(request.to)}, asked by ${oneLine(request.from)}`
    await writeLine(
      context.output.stdout,
      `${oneLine(request.id)} [${request.status}] ${what}${request.reason ? ` (${oneLine(request.reason)})` : ''}`,
    )
  }
  return 0
}
