import { setTimeout as sleep } from 'node:timers/promises'
import { TeamError } from '../shared/errors'
import { assertProfileChoice, type ApprovalMode } from '../shared/profiles'
import { permissionOf } from '../runtime/permissions/agent-permissions'
import { ProfileStore } from '../runtime/permissions/profile-store'
import { Roster } from '../runtime/roster/roster'
import { TeamPaths } from '../runtime/team/paths'
import type { CommandContext } from './commands'
import { knownAgent, sendControl } from './control-commands'
import { oneLine, UsageError, writeLine } from './output'

type Command = (context: CommandContext) => Promise<number>

const WRITE_WAIT_MS = 10_000

/** `--profile P`, `--approval MODE`, or `default` for each; undefined when not given. */
function option(value: string | undefined): string | null | undefined {
  if (value === undefined) return undefined
  return value === 'default' ? null : value
}

/** `agent-teams profiles [--json]`: the built-in and custom profiles. */
export const profiles: Command = async (context) => {
  if (context.positionals.length > 0) throw new UsageError('takes no arguments')
  const store = ProfileStore.of(new TeamPaths(context.options.workspace))
  const out = context.output.stdout
  for (const profile of store.list())
    await writeLine(
      out,
      context.options.json
        ? JSON.stringify(profile)
        : `${oneLine(profile.name)}${profile.builtIn ? '' : ' (custom)'}: ${profile.tools.map(oneLine).join(', ')}; approvals ${profile.approval}${profile.description ? ` — ${oneLine(profile.description)}` : ''}`,
    )
  const problem = store.problem()
  if (problem !== null) await writeLine(context.output.stderr, problem)
  return 0
}

/**
 * `agent-teams profile <name> [--profile P|default] [--approval auto|ask|plan-first|default]`:
 * shows an agent's permissions, or changes them in the running team (reported once written).
 */
export const profile: Command = async (context) => {
  if (context.positionals.length !== 1) throw new UsageError('expected <name>')
  const name = context.positionals[0] ?? ''
  const paths = new TeamPaths(context.options.workspace)
  knownAgent(paths, name)
  const store = ProfileStore.of(paths)
  const change = {
    ...optional('profile', option(context.options.profile)),
    ...optional('approval', option(context.options.approval) as ApprovalMode | null | undefined),
  }
  assertProfileChoice(change)
  if (typeof change.profile === 'string' && store.find(change.profile) === undefined)
    throw new TeamError(
      'not-found',
      `There is no profile "${change.profile}" (see "agent-teams profiles").`,
    )
  const show = async (): Promise<number> => {
    const permission = permissionOf(Roster.read(paths), store, name)
    await writeLine(
      context.output.stdout,
      context.options.json
        ? JSON.stringify({ name, profile: permission.profile.name, approval: permission.approval })
        : `${name}: profile ${oneLine(permission.profile.name)} (${permission.profile.tools.map(oneLine).join(', ')}), approvals ${permission.approval}.`,
    )
    return 0
  }
  if (change.profile === undefined && change.approval === undefined) return show()
  sendControl(paths, { command: 'profile', name, ...change })
  const deadline = Date.now() + WRITE_WAIT_MS
  for (;;) {
    const permission = permissionOf(Roster.read(paths), store, name)
    const profileDone =
      change.profile === undefined ||
      permission.profile.name === (change.profile ?? permission.profile.name)
    const approvalDone =
      change.approval === undefined ||
      change.approval === null ||
      permission.approval === change.approval
    if (profileDone && approvalDone) return show()
    if (Date.now() > deadline)
      throw new TeamError(
        'timed-out',
        `The running team has not written ${name}'s profile after ${WRITE_WAIT_MS / 1000} s; its window says why.`,
      )
    await sleep(50)
  }
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>)
}
