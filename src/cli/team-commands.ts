import { undoWords } from '../shared/undo'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname } from 'node:path'
import { TeamError } from '../shared/errors'
import { isValidName } from '../shared/names'
import { readTranscript } from '../runtime/agents/transcript-store'
import { TeamHost } from '../runtime/host/host'
import { loadModelConfig, settingsPath } from '../runtime/model/config'
import type { ModelEndpoint } from '../runtime/model/client'
import { OfflineModelServer } from '../offline-model/offline-server'
import { demoScript, DEMO_REQUEST, DEMO_REQUEST_CLAUDE_CODE } from '../offline-model/scenarios/demo'
import { makeDemoWorkspace } from '../app/demo-workspace'
import {
  assertClaudeCodeRuns,
  assertTesterMayRunClaudeCode,
  claudeCodeInstalled,
  DEMO_CLAUDE_CODE_MEMBER,
} from './demo-claude-code'
import { Git } from '../runtime/git/git'
import { installProcessGuard } from '../runtime/system/process-guard'
import { onStopSignals, SIGNAL_EXIT_CODES, type StopSignal } from '../runtime/system/stop-signals'
import { TeamPaths } from '../runtime/team/paths'
import { activityPrinter } from './activity'
import { knownAgent } from './control-commands'
import { trustOptionsForRun, trustStoreFor } from './workspace-trust'
import type { CommandContext } from './commands'
import { oneLine, UsageError, writeLine } from './output'

type Command = (context: CommandContext) => Promise<number>

/**
 * Runs a team until it is idle, printing its activity; exit 1 if it ended in error. `start`
 * gives it its work (the person's message, a template's members).
 */
export async function runTeam(
  context: CommandContext,
  workspace: string,
  endpoint: ModelEndpoint,
  start: string | ((host: TeamHost) => void | Promise<void>),
): Promise<number> {
  const trust = await trustOptionsForRun({
    workspace,
    configDirectory: dirname(settingsPath(process.env)),
    trustForRun: context.options.trustWorkspace,
    output: context.output,
  })
  const host = await TeamHost.open({ workspace, endpoint, trust })
  const subscription = host.subscribe(
    activityPrinter(context.output.stdout, { json: context.options.json }),
  )
  let errors: { agent: string; message: string }[]
  // Ctrl+C or SIGTERM stops every agent (their bash process groups too) and lets the team
  // settle, so that every transcript stays valid and the locks are released; a second signal
  // ends the process at once.
  let stoppedBy: StopSignal | null = null
  const signals = onStopSignals((signal) => {
    stoppedBy = signal
    host.stopAll()
  })
  // A bug that throws outside an agent's loop is reported and the run goes on to its end.
  const guard = installProcessGuard((fault) => {
    void writeLine(
      context.output.stderr,
      `agent-teams: internal error (${fault.origin}): ${fault.detail}`,
    )
  })
  try {
    if (typeof start === 'string') host.chat(start)
    else await start(host)
    await host.whenIdle()
    errors = host.errors()
  } finally {
    guard.dispose()
    subscription.dispose()
    await host.close()
    signals.dispose()
  }
  if (stoppedBy !== null) {
    await writeLine(
      context.output.stderr,
      `agent-teams: stopped by ${stoppedBy === 'SIGINT' ? 'Ctrl+C' : stoppedBy}; the transcripts are saved.`,
    )
    return SIGNAL_EXIT_CODES[stoppedBy]
  }
  for (const error of errors)
    await writeLine(
      context.output.stderr,
      `agent-teams: ${error.agent} ended in error: ${error.message}`,
    )
  return errors.length > 0 ? 1 : 0
}

/** The endpoint from the environment and the settings; refused without a key. */
export function configuredEndpoint(): ModelEndpoint {
  const config = loadModelConfig()
  if (!config.apiKey) {
    throw new TeamError(
      'no-api-key',
      'No API key: set ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL for another endpoint), or save one in the settings; "agent-teams demo" runs a team on the built-in offline model.',
    )
  }
  return {
    apiKey: config.apiKey,
    model: config.model,
    ...(config.baseURL ? { baseURL: config.baseURL } : {}),
    ...(config.contextWindow ? { contextWindow: config.contextWindow } : {}),
  }
}

export const chat: Command = async (context) => {
  if (context.positionals.length !== 1)
    throw new UsageError('expected one argument, the message to the lead (quote it)')
  return runTeam(
    context,
    context.options.workspace,
    configuredEndpoint(),
    context.positionals[0] ?? '',
  )
}

export const demo: Command = async (context) => {
  if (context.positionals.length !== 0) throw new UsageError('demo takes no arguments')
  const claudeCode = context.options.claudeCode === true
  // Refused before anything is made, with the reason.
  if (claudeCode) {
    assertClaudeCodeRuns()
    if (context.options.workspaceGiven) assertTesterMayRunClaudeCode(context.options.workspace)
  }
  const workspace = context.options.workspaceGiven
    ? context.options.workspace
    : await madeDemoWorkspace()
  const server = await OfflineModelServer.start({
    script: demoScript(),
    apiKey: 'offline',
    // Past the ids of an earlier run in this folder, whose conversations go on.
    firstId: Date.now(),
  })
  try {
    if (!context.options.json)
      await writeLine(
        context.output.stdout,
        `Offline demo in ${workspace} (model server ${server.url})` +
          (claudeCode
            ? `; ${DEMO_CLAUDE_CODE_MEMBER.name}, the ${DEMO_CLAUDE_CODE_MEMBER.role}, is a Claude Code session`
            : ''),
      )
    const code = await runTeam(
      context,
      workspace,
      { apiKey: 'offline', baseURL: server.url, model: 'offline-demo', maxRetries: 0 },
      claudeCode ? DEMO_REQUEST_CLAUDE_CODE : DEMO_REQUEST,
    )
    if (!context.options.json)
      await writeLine(
        context.output.stdout,
        `The team's work is in ${workspace}; its .team/ holds the roster, the inboxes and every transcript.\n` +
          `To see it in the app: open that folder with File > Open Folder, or run\n` +
          `  agent-teams serve --workspace ${shellQuote(workspace)}\n` +
          `and open the address it prints.${await branchesNote(workspace)}`,
      )
    if (!context.options.json && !claudeCode && claudeCodeInstalled())
      await writeLine(
        context.output.stdout,
        `Claude Code is installed here: "agent-teams demo --claude-code" runs ${DEMO_CLAUDE_CODE_MEMBER.name}, the ${DEMO_CLAUDE_CODE_MEMBER.role}, as a Claude Code session.`,
      )
    return code
  } finally {
    await server.close()
  }
}

/** A fresh demo folder: made by the app, so trusted at once. */
async function madeDemoWorkspace(): Promise<string> {
  const workspace = await makeDemoWorkspace(tmpdir())
  trustStoreFor().rememberMadeHere(workspace)
  return workspace
}

export const transcript: Command = async (context) => {
  if (context.positionals.length !== 1) throw new UsageError('expected <name>')
  const name = context.positionals[0] ?? ''
  if (!isValidName(name)) throw new TeamError('invalid-name', `"${name}" is not an agent name.`)
  const paths = new TeamPaths(context.options.workspace)
  // A member removed from the roster keeps its transcript, and it is shown; a name that is
  // neither is a mistake (a typo), not an empty transcript.
  if (!existsSync(paths.transcript(name))) knownAgent(paths, name)
  const { records, problems } = readTranscript(paths.transcript(name))
  for (const problem of problems)
    await writeLine(
      context.output.stderr,
      `agent-teams transcript: ${paths.transcript(name)} ${problem} (skipped)`,
    )
  if (records.length === 0 && !context.options.json) {
    await writeLine(context.output.stdout, `No transcript for ${name} in ${paths.workspace}.`)
    return 0
  }
  for (const record of records) {
    if (context.options.json) {
      await writeLine(context.output.stdout, JSON.stringify(record))
      continue
    }
    switch (record.kind) {
      case 'user':
        await writeLine(
          context.output.stdout,
          `#${record.seq} ${oneLine(record.from)}: ${record.text}`,
        )
        break
      case 'inbox':
        for (const message of record.messages)
          await writeLine(
            context.output.stdout,
            `#${record.seq} inbox ← ${oneLine(message.from)} (${message.type}): ${message.content}`,
          )
        break
      case 'assistant':
        for (const block of record.content) {
          if (block.type === 'text')
            await writeLine(context.output.stdout, `#${record.seq} ${name}: ${String(block.text)}`)
          else if (block.type === 'thinking')
            await writeLine(
              context.output.stdout,
              `#${record.seq} ${name} (thinking): ${String(block['thinking'])}`,
            )
          else if (block.type === 'redacted_thinking')
            await writeLine(context.output.stdout, `#${record.seq} ${name} (thinking, redacted)`)
          else if (block.type === 'tool_use')
            await writeLine(
              context.output.stdout,
              `#${record.seq} ${name} → ${oneLine(String(block.name))} ${JSON.stringify(block.input)}`,
            )
        }
        break
      case 'tool-result':
        await writeLine(
          context.output.stdout,
          `#${record.seq} ${record.is_error ? '✗' : '←'} ${oneLine(record.name)}: ${record.content}`,
        )
        break
      case 'status':
        await writeLine(
          context.output.stdout,
          `#${record.seq} [${oneLine(record.status)}] ${record.reason}`,
        )
        break
      case 'compaction':
        await writeLine(
          context.output.stdout,
          `#${record.seq} [compacted through #${record.through_seq}: ${record.tokens_before} → ${record.tokens_after} tokens] ${record.summary}`,
        )
        break
      case 'undo':
        await writeLine(
          context.output.stdout,
          `#${record.seq} [undo] ${oneLine(undoWords(record))}`,
        )
        break
    }
  }
  return 0
}

/** A path as a shell reads it back: quoted only when it has to be. */
/** Where the teammates' work waits when they had worktrees: their branches, and how to land them. */
async function branchesNote(workspace: string): Promise<string> {
  let branches: string[] = []
  try {
    const listed = await new Git({ agentWritable: [workspace] }).run(workspace, [
      'branch',
      '--list',
      '--format=%(refname:short)',
      'team/*',
    ])
    if (listed.status === 0) branches = listed.stdout.split('\n').filter(Boolean)
  } catch (error) {
    // No git on this machine: the team shared the folder, there are no branches to name.
    if (!(error instanceof TeamError)) throw error
  }
  if (branches.length === 0) return ''
  return (
    `\nEach teammate's work is on its own branch (${branches.join(', ')}): review it in the app's Changes view, ` +
    `or with "agent-teams review diff <name>" and "agent-teams review merge <name>".`
  )
}

function shellQuote(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`
}
