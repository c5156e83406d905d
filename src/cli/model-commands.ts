import { setTimeout as sleep } from 'node:timers/promises'
import { isValidServerName, MCP_SERVER_NAME_RULE } from '../shared/mcp'
import { readMcpConfiguration } from '../runtime/mcp/config'
import { TeamError } from '../shared/errors'
import { MAX_CONTROL_LINE_BYTES } from '../shared/control'
import {
  assertModelChoice,
  modelChoiceOf,
  type ModelChoice,
  type ModelChoiceChange,
} from '../shared/model-choice'
import { DEFAULT_ENGINE, ENGINE_LABELS } from '../shared/engine'
import { LEAD, assertSpawnableName } from '../shared/names'
import { assertProfileChoice } from '../shared/profiles'
import type { RosterFile } from '../shared/roster'
import { Roster } from '../runtime/roster/roster'
import { TeamPaths } from '../runtime/team/paths'
import type { CommandContext } from './commands'
import { knownAgent, sendControl } from './control-commands'
import { engineOption } from './engine-commands'
import { oneLine, UsageError, writeLine } from './output'

type Command = (context: CommandContext) => Promise<number>

/** How long a command waits for the running team to write what it asked into config.json. */
const WRITE_WAIT_MS = 10_000

/** `--model ID`, or `default` for the team's model; undefined when not given. */
function modelOption(value: string | undefined): string | null | undefined {
  if (value === undefined) return undefined
  return value === 'default' ? null : value
}

/** `--thinking N`, or `off`; undefined when not given. */
function thinkingOption(value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined
  if (value === 'off') return null
  if (!/^\d+$/.test(value))
    throw new UsageError('--thinking takes a budget in tokens (at least 1024), or "off"')
  return Number(value)
}

/** The change the options ask for, checked by the runtime's own rules (exit 1 with the rule). */
function changeFrom(context: CommandContext): ModelChoiceChange {
  const change: ModelChoiceChange = {
    ...optional('model', modelOption(context.options.model)),
    ...optional('thinking', thinkingOption(context.options.thinking)),
  }
  assertModelChoice(change)
  return change
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>)
}

function choiceOnDisk(file: RosterFile, name: string): ModelChoice {
  return modelChoiceOf(
    name === LEAD ? file.lead : file.members.find((member) => member.name === name),
  )
}

/** "claude-opus-4-1, thinking 2,048 tokens", "the team's model, thinking off" */
export function describeChoice(choice: ModelChoice): string {
  const model = choice.model === null ? "the team's model" : oneLine(choice.model)
  const thinking =
    choice.thinking === null ? 'off' : `${choice.thinking.toLocaleString('en-US')} tokens`
  return `${model}, thinking ${thinking}`
}

/** Waits until config.json shows what was asked: only then does the command say it is done. */
export async function awaitRoster(
  paths: TeamPaths,
  what: string,
  done: (file: RosterFile) => boolean,
): Promise<RosterFile> {
  const deadline = Date.now() + WRITE_WAIT_MS
  for (;;) {
    const file = Roster.read(paths)
    if (done(file)) return file
    if (Date.now() > deadline)
      throw new TeamError(
        'timed-out',
        `The running team has not written ${what} after ${WRITE_WAIT_MS / 1000} s; its window says why.`,
      )
    await sleep(50)
  }
}

function matches(choice: ModelChoice, change: ModelChoiceChange): boolean {
  return (
    (change.model === undefined || choice.model === change.model) &&
    (change.thinking === undefined || choice.thinking === change.thinking)
  )
}

/** `--mcp a,b`: only those servers; `--mcp none`: no server; `--mcp all`: every server. */
function serverChoice(option: string | undefined): { mcp_servers?: string[] | null } {
  if (option === undefined) return {}
  const value = option.trim()
  if (value === 'all') return { mcp_servers: null }
  if (value === 'none') return { mcp_servers: [] }
  const names = value.split(',').map((name) => name.trim())
  const wrong = names.find((name) => !isValidServerName(name))
  if (wrong !== undefined)
    throw new UsageError(
      `--mcp takes server names separated by commas, "all" or "none"; "${wrong}" is not a server name (${MCP_SERVER_NAME_RULE})`,
    )
  return { mcp_servers: names }
}

/**
 * `agent-teams spawn <name> <prompt> --role ROLE [--model ID] [--thinking N] [--plan-first]
 * [--engine E]`: the person spawns a teammate in the running team, through control.jsonl.
 */
export const spawn: Command = async (context) => {
  if (context.positionals.length !== 2)
    throw new UsageError('expected <name> <prompt> (quote the prompt)')
  const [name = '', prompt = ''] = context.positionals
  const role = context.options.role?.trim() ?? ''
  if (role.length === 0) throw new UsageError('give the teammate a role with --role')
  if (prompt.trim().length === 0) throw new UsageError('the prompt is empty; say what to do first')
  assertSpawnableName(name)
  const change = changeFrom(context)
  const engine = engineOption(context.options.engine)
  const paths = new TeamPaths(context.options.workspace)
  const before = Roster.read(paths).members.find((member) => member.name === name)
  if (before?.status === 'working')
    throw new TeamError(
      'member-working',
      `"${name}" is working right now; wait until it is idle, or stop it first.`,
    )
  const servers = serverChoice(context.options.mcp)
  // The running team refuses a server it does not have; said here at once instead.
  const known = readMcpConfiguration(paths, process.env).servers.map((server) => server.name)
  const unknown = (servers.mcp_servers ?? []).filter((server) => !known.includes(server))
  if (unknown.length > 0)
    throw new TeamError(
      'not-found',
      `No MCP server ${unknown.map((server) => `"${server}"`).join(', ')} in this workspace; ${known.length === 0 ? 'it has none' : `it has ${known.join(', ')}`}.`,
    )
  const command = {
    command: 'spawn',
    name,
    role,
    prompt,
    ...change,
    ...(context.options.planFirst ? { plan_first: true } : {}),
    ...(context.options.worktree === undefined ? {} : { worktree: context.options.worktree }),
    ...(context.options.autoClaim === true ? { auto_claim: true } : {}),
    ...servers,
    ...permissionOptions(context),
    ...(engine === undefined ? {} : { engine }),
  }
  if (Buffer.byteLength(JSON.stringify(command)) > MAX_CONTROL_LINE_BYTES - 200)
    throw new UsageError(
      `the prompt is too long for the control channel (${MAX_CONTROL_LINE_BYTES / 1024} KiB a line); send the rest as a message`,
    )
  // The spawn stamps the member (created_at, or updated_at for a re-spawn) with the team's time.
  const sentAt = Date.now() / 1000
  sendControl(paths, command)
  const file = await awaitRoster(paths, `${name}'s spawn`, (roster) => {
    const member = roster.members.find((candidate) => candidate.name === name)
    const stamp = member?.['updated_at'] ?? member?.['created_at']
    return member?.role === role && typeof stamp === 'number' && stamp >= sentAt
  })
  const choice = choiceOnDisk(file, name)
  const spawned = file.members.find((member) => member.name === name)
  const worktree = spawned?.worktree ?? null
  const runs = spawned?.engine ?? DEFAULT_ENGINE
  const place = worktree
    ? `, in its worktree on team/${name}`
    : context.options.worktree === false
      ? ', in the shared workspace'
      : ''
  const by = runs === DEFAULT_ENGINE ? '' : `, run by ${ENGINE_LABELS[runs]}`
  await writeLine(
    context.output.stdout,
    context.options.json
      ? JSON.stringify({ name, role, ...choice, worktree, engine: runs })
      : `Spawned ${name} (${role}) on ${describeChoice(choice)}${place}${by}.`,
  )
  return 0
}

/** spawn's `--profile` and `--approval`, checked by the runtime's rules. */
function permissionOptions(context: CommandContext): { profile?: string; approval?: string } {
  const { profile, approval } = context.options
  assertProfileChoice({ profile, approval })
  return {
    ...(profile === undefined ? {} : { profile }),
    ...(approval === undefined ? {} : { approval }),
  }
}

/**
 * `agent-teams model <name> [--model ID|default] [--thinking N|off]`: shows an agent's model and
 * thinking, or changes them from its next turn (through control.jsonl, reported once written).
 */
export const model: Command = async (context) => {
  if (context.positionals.length !== 1) throw new UsageError('expected <name>')
  const name = context.positionals[0] ?? ''
  const paths = new TeamPaths(context.options.workspace)
  knownAgent(paths, name)
  const change = changeFrom(context)
  if (change.model === undefined && change.thinking === undefined) {
    const choice = choiceOnDisk(Roster.read(paths), name)
    await writeLine(
      context.output.stdout,
      context.options.json
        ? JSON.stringify({ name, ...choice })
        : `${name}: ${describeChoice(choice)}.`,
    )
    return 0
  }
  sendControl(paths, { command: 'model', name, ...change })
  const file = await awaitRoster(paths, `${name}'s model`, (roster) =>
    matches(choiceOnDisk(roster, name), change),
  )
  const choice = choiceOnDisk(file, name)
  await writeLine(
    context.output.stdout,
    context.options.json
      ? JSON.stringify({ name, ...choice })
      : `${name} runs on ${describeChoice(choice)} from its next turn.`,
  )
  return 0
}
