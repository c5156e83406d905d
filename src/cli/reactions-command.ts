import { TeamError } from '../shared/errors'
import { DURATION_RULE, formatDuration, parseDuration } from '../shared/duration'
import { type CheckResult, type ReactionsChange, type ReactionsConfig } from '../shared/reactions'
import { REACTION_KINDS } from '../shared/unattended-log'
import { readReactionsConfig, writeReactionsConfig } from '../runtime/reactions/config-file'
import { checkResultOf, ReactionLog } from '../runtime/reactions/reaction-log'
import { TeamPaths } from '../runtime/team/paths'
import { inspectTrust } from '../runtime/trust/workspace-trust'
import type { CommandContext } from './commands'
import { oneLine, UsageError, writeLine } from './output'
import { trustStoreFor } from './workspace-trust'

const USAGE =
  'expected "reactions", "reactions set check --command CMD [--timeout 10m]", ' +
  '"reactions set check --off", "reactions set stall|idle-task --after 10m", ' +
  '"reactions set stall|idle-task --off", "reactions set escalate --after 10m" or ' +
  '"reactions set conflicts on|off"'

/**
 * `agent-teams reactions [set …]`: the team's reactions (check command, nudges, escalation,
 * conflicts) and how many of each it had. Works whether a team runs or not: the file is
 * written atomically, and a running team reads it at its next use.
 */
export async function reactions(context: CommandContext): Promise<number> {
  const [action, ...rest] = context.positionals
  const paths = new TeamPaths(context.options.workspace)
  if (action === undefined) return show(context, paths)
  if (action !== 'set') throw new UsageError(USAGE)
  const change = changeOf(rest, context)
  // The person's change keeps a trusted workspace trusted (the check command is a grant).
  const trust = inspectTrust(paths, { store: trustStoreFor(), forRun: false }, process.env)
  const config = trust.keep(() => writeReactionsConfig(paths, change))
  if (context.options.json) await writeLine(context.output.stdout, JSON.stringify(config))
  else await writeLine(context.output.stdout, `Saved. ${describeConfig(config).join(' ')}`)
  return 0
}

function changeOf(rest: readonly string[], context: CommandContext): ReactionsChange {
  const [what, ...values] = rest
  const { command, timeout, after, off } = context.options
  switch (what) {
    case 'check': {
      if (values.length > 0) throw new UsageError(USAGE)
      if (off === true) {
        if (command !== undefined) throw new UsageError('give --command or --off, not both')
        return { check: null }
      }
      if (command === undefined) throw new UsageError('"reactions set check" needs --command CMD')
      const seconds = timeout === undefined ? 600 : duration(timeout, '--timeout')
      return { check: { command, timeout_seconds: seconds } }
    }
    case 'stall':
    case 'idle-task': {
      if (values.length > 0) throw new UsageError(USAGE)
      const key = what === 'stall' ? 'stall' : 'idle_task'
      if (off === true) {
        if (after !== undefined) throw new UsageError('give --after or --off, not both')
        return { [key]: { on: false } }
      }
      if (after === undefined)
        throw new UsageError(`"reactions set ${what}" needs --after or --off`)
      return { [key]: { on: true, after_seconds: duration(after, '--after') } }
    }
    case 'escalate': {
      if (values.length > 0 || after === undefined)
        throw new UsageError('expected "reactions set escalate --after 10m"')
      return { escalate_after_seconds: duration(after, '--after') }
    }
    case 'conflicts': {
      const [state] = values
      if (values.length !== 1 || (state !== 'on' && state !== 'off'))
        throw new UsageError('expected "reactions set conflicts on" or "… off"')
      return { conflicts: state === 'on' }
    }
    default:
      throw new UsageError(USAGE)
  }
}

function duration(text: string, option: string): number {
  const seconds = parseDuration(text)
  if (seconds === null) throw new UsageError(`${option} takes ${DURATION_RULE} (got "${text}")`)
  return seconds
}

async function show(context: CommandContext, paths: TeamPaths): Promise<number> {
  const reading = readReactionsConfig(paths)
  const totals = new ReactionLog(paths).totals()
  const checks = [...totals.lastChecks.values()].map(checkResultOf)
  const trusted = inspectTrust(paths, { store: trustStoreFor(), forRun: false }, process.env).view()
    .trusted
  if (context.options.json) {
    await writeLine(
      context.output.stdout,
      JSON.stringify({
        config: reading.config,
        problem: reading.problem ?? totals.problem,
        trusted,
        counts: totals.counts,
        unreadable_lines: totals.unreadable,
        checks,
      }),
    )
    return reading.problem === null ? 0 : 1
  }
  const lines = [
    ...(reading.problem === null ? [] : [`Not used: ${oneLine(reading.problem)}`]),
    ...describeConfig(reading.config),
    trusted
      ? 'They run: the workspace is trusted.'
      : 'They do not run until you trust this workspace ("agent-teams trust").',
    `Counts: ${REACTION_KINDS.map((kind) => `${kind} ${totals.counts[kind]}`).join(', ')}` +
      (totals.unreadable > 0 ? ` (${totals.unreadable} unreadable lines)` : ''),
    ...checks.map(describeCheck),
  ]
  for (const line of lines) await writeLine(context.output.stdout, line)
  if (reading.problem !== null) throw new TeamError('file-invalid', reading.problem)
  return 0
}

function describeConfig(config: ReactionsConfig): string[] {
  const nudge = (setting: { on: boolean; after_seconds: number }): string =>
    setting.on ? `after ${formatDuration(setting.after_seconds)}` : 'off'
  return [
    config.check === null
      ? 'Check: off.'
      : `Check: ${oneLine(config.check.command)} (killed after ${formatDuration(config.check.timeout_seconds)}).`,
    `Stall nudge: ${nudge(config.stall)}.`,
    `Idle-with-a-task nudge: ${nudge(config.idle_task)}.`,
    `Escalation to Needs-you: ${formatDuration(config.escalate_after_seconds)} after a nudge.`,
    `Merge conflicts to the branch's owner: ${config.conflicts ? 'on' : 'off'}.`,
  ]
}

function describeCheck(check: CheckResult): string {
  return `Last check of ${oneLine(check.agent)}: ${check.state} on ${check.commit?.slice(0, 9) ?? '?'} (${oneLine(check.summary)})`
}
