import { parseArgs, type ParseArgsConfig } from 'node:util'
import { TeamError } from '../shared/errors'
import { commands, type CommandContext } from './commands'
import { HELP } from './help'
import { UsageError, writeLine, type Output } from './output'

export { HELP }

const options = {
  workspace: { type: 'string' },
  json: { type: 'boolean', default: false },
  from: { type: 'string' },
  type: { type: 'string' },
  all: { type: 'boolean', default: false },
  limit: { type: 'string' },
  port: { type: 'string' },
  feedback: { type: 'string' },
  tokens: { type: 'string' },
  rounds: { type: 'string' },
  usd: { type: 'string' },
  reset: { type: 'boolean', default: false },
  yes: { type: 'boolean', default: false },
  clear: { type: 'boolean', default: false },
  role: { type: 'string' },
  model: { type: 'string' },
  thinking: { type: 'string' },
  'plan-first': { type: 'boolean', default: false },
  file: { type: 'string' },
  description: { type: 'string' },
  replace: { type: 'boolean', default: false },
  agent: { type: 'string' },
  tool: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  format: { type: 'string' },
  out: { type: 'string' },
  worktree: { type: 'boolean' },
  'no-worktree': { type: 'boolean' },
  scope: { type: 'string' },
  task: { type: 'string' },
  to: { type: 'string' },
  squash: { type: 'boolean', default: false },
  into: { type: 'string' },
  'hand-back': { type: 'boolean', default: false },
  reason: { type: 'string' },
  line: { type: 'string' },
  text: { type: 'string' },
  branch: { type: 'string' },
  'auto-claim': { type: 'boolean', default: false },
  'blocked-by': { type: 'string' },
  as: { type: 'string' },
  result: { type: 'string' },
  mcp: { type: 'string' },
  'trust-workspace': { type: 'boolean', default: false },
  'claude-code': { type: 'boolean', default: false },
  url: { type: 'string' },
  env: { type: 'string', multiple: true },
  header: { type: 'string', multiple: true },
  profile: { type: 'string' },
  approval: { type: 'string' },
  engine: { type: 'string' },
  always: { type: 'boolean', default: false },
  kind: { type: 'string' },
  summary: { type: 'boolean', default: false },
  command: { type: 'string' },
  timeout: { type: 'string' },
  after: { type: 'string' },
  off: { type: 'boolean', default: false },
  turns: { type: 'string' },
  'dry-run': { type: 'boolean', default: false },
  overwrite: { type: 'string', multiple: true },
  redo: { type: 'string' },
  policy: { type: 'boolean', default: false },
  max: { type: 'string' },
  'max-age-days': { type: 'string' },
  at: { type: 'string' },
  in: { type: 'string' },
  every: { type: 'string' },
  cron: { type: 'string' },
  prompt: { type: 'string' },
  template: { type: 'string' },
  missed: { type: 'string' },
  overlap: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} satisfies ParseArgsConfig['options']

export type ParsedOptions = {
  workspace: string
  /** Whether --workspace was given (the demo makes a fresh folder when it was not). */
  workspaceGiven: boolean
  json: boolean
  from?: string
  type?: string
  all: boolean
  limit?: string
  port?: string
  feedback?: string
  tokens?: string
  rounds?: string
  usd?: string
  reset: boolean
  /** roster --reset without asking. */
  yes: boolean
  /** budget --clear: lift every limit. */
  clear: boolean
  /** spawn --role. */
  role?: string
  /** spawn and model: a model id, or "default". */
  model?: string
  /** spawn and model: a thinking budget in tokens, or "off". */
  thinking?: string
  /** spawn --plan-first. */
  planFirst: boolean
  /** note edit, team export and import, review comment: a file. */
  file?: string
  /** team save and tasks add --description. */
  description?: string
  /** team save, export and import: replace what is there. */
  replace?: boolean
  /** search and export: one agent only. */
  agent?: string
  /** search: tool calls and results of this tool only. */
  tool?: string
  /** search: a date range (`2026-12-01`, `2026-12-01T18:00Z`); timeline --since: also `1h`. */
  since?: string
  until?: string
  /** export: md or jsonl. */
  format?: string
  /** export: the file to write (default: standard output). */
  out?: string
  /** spawn --worktree (true) / --no-worktree (false); undefined: the team's default. */
  worktree?: boolean
  /** review diff --scope, --task, --from, --to. */
  scope?: string
  task?: string
  to?: string
  /** review merge --squash, --into BRANCH, --hand-back. */
  squash?: boolean
  into?: string
  handBack?: boolean
  /** review reject --reason; review comment --file --line --text. */
  reason?: string
  line?: string
  text?: string
  /** remove --branch keep|merge|delete. */
  branch?: string
  /** spawn --auto-claim: the teammate claims pending tasks by itself when idle. */
  autoClaim?: boolean
  /** tasks add --blocked-by: task ids, comma-separated. */
  blockedBy?: string
  /** tasks claim/done/add --as: who acts on the board. */
  as?: string
  /** tasks done --result. */
  result?: string
  /** spawn --mcp: server names separated by commas, "all" or "none". */
  mcp?: string
  /** chat, demo, serve: start the workspace's MCP servers this run without asking. */
  trustWorkspace: boolean
  /** demo --claude-code: the tester runs on the claude-code engine. */
  claudeCode?: boolean
  /** mcp add: a Streamable HTTP server's address, its headers (K: V) and a stdio one's env (K=V). */
  url?: string
  env?: string[]
  header?: string[]
  /** spawn and profile: a profile name, or "default". */
  profile?: string
  /** spawn and profile: an approval mode, or "default". */
  approval?: string
  /** spawn --engine: builtin or claude-code. */
  engine?: string
  /** approve --always. */
  always?: boolean
  /** timeline --kind: entry kinds, comma-separated. */
  kind?: string
  /** timeline --summary: the away digest. */
  summary?: boolean
  /** reactions set check --command CMD --timeout DURATION, stall --after DURATION, --off. */
  command?: string
  timeout?: string
  after?: string
  off?: boolean
  /** undo --turns N (--task ID and --to SEQ are shared with review diff). */
  turns?: string
  /** undo --dry-run: the plan only. */
  dryRun?: boolean
  /** undo --overwrite PATH (repeatable): files someone else changed that it may overwrite. */
  overwrite?: string[]
  /** undo --redo UNDO_ID. */
  redo?: string
  /** checkpoints --policy [--max N] [--max-age-days D]. */
  policy?: boolean
  max?: string
  maxAgeDays?: string
  /** schedule add: when (one of --at, --in, --every, --cron), what, and its policies. */
  at?: string
  in?: string
  every?: string
  cron?: string
  prompt?: string
  template?: string
  missed?: string
  overlap?: string
}

/** --worktree and --no-worktree: one of them, or neither (the team's default). */
function worktreeFlag(on: boolean | undefined, off: boolean | undefined): boolean | undefined {
  if (on === true && off === true) return undefined
  return on === true ? true : off === true ? false : undefined
}

/** Runs one command line; returns the exit code. Never throws for a user's mistake. */
export async function main(argv: readonly string[], output: Output = process): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true })
  } catch (error) {
    await writeLine(
      output.stderr,
      `agent-teams: ${(error as Error).message}\nRun "agent-teams --help" for usage.`,
    )
    return 2
  }
  const [name, ...positionals] = parsed.positionals
  if (parsed.values.help || name === undefined || name === 'help') {
    await writeLine(
      name === undefined && !parsed.values.help ? output.stderr : output.stdout,
      HELP.trimEnd(),
    )
    return name === undefined && !parsed.values.help ? 2 : 0
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined
  if (!command) {
    await writeLine(
      output.stderr,
      `agent-teams: unknown command "${name}". Commands: ${Object.keys(commands).join(', ')}.\nRun "agent-teams --help" for usage.`,
    )
    return 2
  }
  const context: CommandContext = {
    output,
    positionals,
    options: {
      ...parsed.values,
      planFirst: parsed.values['plan-first'],
      handBack: parsed.values['hand-back'],
      worktree: worktreeFlag(parsed.values.worktree, parsed.values['no-worktree']),
      autoClaim: parsed.values['auto-claim'],
      blockedBy: parsed.values['blocked-by'],
      trustWorkspace: parsed.values['trust-workspace'],
      claudeCode: parsed.values['claude-code'],
      dryRun: parsed.values['dry-run'],
      maxAgeDays: parsed.values['max-age-days'],
      workspace: parsed.values.workspace ?? process.cwd(),
      workspaceGiven: parsed.values.workspace !== undefined,
    },
  }
  try {
    return await command(context)
  } catch (error) {
    if (error instanceof UsageError) {
      await writeLine(
        output.stderr,
        `agent-teams ${name}: ${error.message}\nRun "agent-teams --help" for usage.`,
      )
      return 2
    }
    if (error instanceof TeamError) {
      if (context.options.json)
        await writeLine(
          output.stderr,
          JSON.stringify({ error: { code: error.code, message: error.message } }),
        )
      else await writeLine(output.stderr, `agent-teams ${name}: ${error.message}`)
      return 1
    }
    await writeLine(
      output.stderr,
      `agent-teams ${name}: unexpected failure: ${(error as Error).stack ?? String(error)}`,
    )
    return 70
  }
}
