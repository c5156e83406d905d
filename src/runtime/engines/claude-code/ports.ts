import type * as ClaudeAgentSdk from '@anthropic-ai/claude-agent-sdk'
import { existsSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { TeamError } from '../../../shared/errors'
import type { ModelEndpoint } from '../../model/client'
import { agentSandboxPolicy, type AgentPolicyInput } from '../../sandbox/agent-policy'
import { appSecretFolders, defaultBashSandbox, type BashSandbox } from '../../tools/bash-sandbox'
import type { ClaudeCodePorts } from './agent'
import { CLAUDE_CODE_SDK, locateClaudeCode } from './availability'
import { KeyRelay } from './key-relay'
import { sandboxedLauncher } from './process'
import { ClaudeSessions } from './sessions'

/** What the team gives its Claude Code teammates. */
export interface ClaudeCodeTeamInput {
  readonly workspace: string
  readonly teamFolder: string
  /** The team's folder in the app's data: its sessions' record and Claude Code's own folder. */
  readonly dataFolder: string
  readonly endpoint: () => ModelEndpoint
  /** The app's record of a teammate's worktree (null: it works in the workspace). */
  readonly worktree: (name: string) => AgentPolicyInput['worktree']
  /** The hosts the team allows, as bash gets them. */
  readonly allowedHosts: () => readonly string[]
  readonly unreadable?: readonly string[]
  readonly sandbox?: BashSandbox
  readonly environment?: Readonly<Record<string, string>>
}

/**
 * The entries of Claude Code's folder that configure it: its settings, instructions, agents,
 * commands, skills, hooks and plugins. The process writes its state and session logs there,
 * but never these: a session that could write them could grant itself rules (an allow-all, a
 * bypass mode, a hook) that a later session or a live reload would take. Made by the app
 * before the first start (empty), then bound read-only inside the sandbox.
 */
export function configuringEntries(configFolder: string): string[] {
  const files = ['settings.json', 'settings.local.json', 'CLAUDE.md', 'keybindings.json']
  const folders = ['agents', 'commands', 'skills', 'hooks', 'output-styles', 'rules', 'plugins']
  for (const file of files) {
    const path = join(configFolder, file)
    // 'wx' never writes through a link the process may have left in its place.
    if (!existsSync(path) && !isLink(path))
      writeFileSync(path, file.endsWith('.json') ? '{}\n' : '', { mode: 0o600, flag: 'wx' })
  }
  for (const folder of folders)
    mkdirSync(join(configFolder, folder), { recursive: true, mode: 0o700 })
  return [...files, ...folders].map((entry) => join(configFolder, entry))
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink()
  } catch {
    return false
  }
}

/** Where `baseURL` is, as the sandbox's allow-list names hosts (`127.0.0.1:4000`). */
export function endpointHost(baseURL: string | undefined): string {
  const url = new URL(baseURL ?? 'https://api.anthropic.com')
  return url.host.toLowerCase()
}

async function loadSdk(): Promise<typeof ClaudeAgentSdk> {
  const found = locateClaudeCode()
  if ('problem' in found) throw new TeamError('engine-unavailable', found.problem)
  try {
    return await import('@anthropic-ai/claude-agent-sdk')
  } catch (error) {
    throw new TeamError(
      'engine-unavailable',
      `${CLAUDE_CODE_SDK} could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
}

/**
 * Each Claude Code teammate's ports: one sessions record and one Claude Code folder for the
 * team, both in the app's data (never the person's ~/.claude), and a sandbox policy made from
 * the app's own records, the same as the teammate's bash gets, plus that folder and the
 * endpoint's host.
 */
export function claudeCodePorts(input: ClaudeCodeTeamInput): (name: string) => ClaudeCodePorts {
  const folder = join(input.dataFolder, 'claude-code')
  const teammates = join(folder, 'teammates')
  let sessions: ClaudeSessions | null = null
  const relay = new KeyRelay(input.endpoint)
  return (name) => {
    sessions ??= new ClaudeSessions(folder)
    // Its own folders: no teammate can write (or read) another's settings, shell files or logs.
    const own = join(teammates, name)
    const configFolder = join(own, 'config')
    const home = join(own, 'home')
    for (const path of [configFolder, home]) mkdirSync(path, { recursive: true, mode: 0o700 })
    return {
      sdk: loadSdk,
      executable: () => {
        const found = locateClaudeCode()
        return 'problem' in found ? undefined : found.binary
      },
      sessions,
      configFolder,
      home,
      access: async () => {
        const token = relay.issue(name)
        return {
          baseURL: await relay.url(),
          apiKey: token,
          usage: () => relay.usage(token),
          release: () => relay.revoke(token),
        }
      },
      environment: input.environment,
      launcher: async (root, started) => {
        const relayHost = endpointHost(await relay.url())
        const others = readdirSync(teammates)
          .filter((entry) => entry !== name)
          .map((entry) => join(teammates, entry))
        const policy = agentSandboxPolicy({
          workspace: input.workspace,
          teamFolder: input.teamFolder,
          root,
          worktree: input.worktree(name),
          agent: name,
          // The relay (which holds the key), not the endpoint: the key never enters the sandbox.
          allowedHosts: [...input.allowedHosts(), relayHost],
          // The sessions record too: it holds the hand-overs' nonces.
          unreadable: [
            ...appSecretFolders(),
            ...(input.unreadable ?? []),
            ...others,
            join(folder, 'sessions.json'),
          ],
        })
        return sandboxedLauncher(
          input.sandbox ?? defaultBashSandbox,
          {
            ...policy,
            writable: [...policy.writable, configFolder, home],
            readOnly: [...policy.readOnly, ...configuringEntries(configFolder)],
          },
          started,
        )
      },
    }
  }
}
