import { parseArgs, type ParseArgsConfig } from 'node:util'
import { TeamError } from '../shared/errors'
import { commands, type CommandContext } from './commands'
import { UsageError, writeLine, type Output } from './output'

export const HELP = `agent-teams — script a team of agents from a shell

Usage: agent-teams <command> [arguments] [--workspace DIR] [--json]

Commands:
  send <to> <content> [--from NAME] [--type TYPE]
                         append a message to <to>'s inbox (from defaults to "user")
  broadcast <content> [--from NAME]
                         send to every member but the sender (and to the lead)
  inbox <name> [--all] [--limit N]
                         list pending messages (every message, with its state, with --all)
                         without consuming them
  drain <name>           consume the pending messages as an agent would; prints one JSON
                         object a line, each with its id
  archive <name>         move delivered messages aside (.team/mailbox/<name>/archive/)
  roster [--reset [--yes]]
                         the team; --reset sets an unreadable config.json aside (kept beside
                         it) and starts an empty roster, after asking (--yes: without asking);
                         a valid config.json is never reset
  chat <text>            send the person's message to the lead and show the team's activity
                         until the team is idle (needs ANTHROPIC_API_KEY or saved settings)
  demo                   run the offline demo (no key needed): a coder and a tester build
                         and test a small module; in a fresh folder unless --workspace is given
  transcript <name>      print an agent's transcript
  serve [--port N]       browser mode: run the team headless and serve the app at
                         http://127.0.0.1:PORT (a free port when --port is 0 or not given);
                         open the printed address, which carries the launch's secret token

A running team (the app, serve or chat, in another terminal):
  spawn <name> <prompt> --role ROLE [--model ID] [--thinking N] [--plan-first]
        [--profile P] [--approval auto|ask|plan-first]
                         spawn a teammate (or re-spawn an idle one) with its first prompt;
                         --model: its own model (default: the team's), --thinking: extended
                         thinking with a budget of N tokens (at least 1024; off by default);
                         --profile: its tools (reviewer, tester, implementer (default), or a
                         custom one); --approval: what waits for you (default: the profile's)
  profiles               the permission profiles (built-in, and .team/profiles.json's)
  profile <name> [--profile P|default] [--approval MODE|default]
                         show or change an agent's profile and approval mode
  queue [--all]          what needs you: tool approvals, questions, plans, pauses, errors,
                         stalls, newest first by agent (--all: answered ones too)
  approve <id> [--always]
                         approve a queue entry (a tool call: once, or --always for this
                         agent and this command pattern; a plan; a resume)
  deny <id> --reason TEXT
                         deny it; the reason goes back to the agent
  answer <id> --text TEXT
                         answer an agent's question (ask_user)
  model <name>           show an agent's model and thinking (the lead's too)
  model <name> [--model ID|default] [--thinking N|off]
                         change them; the agent uses them from its next turn
  stop <name>            stop an agent mid-stream or mid-tool (its bash process group too)
  resume <name>          go on after a stop, a pause, an error or a stall
  shutdown <name>        ask a teammate to shut down (the s10 shutdown protocol)
  plan approve <id>      approve a plan-first teammate's plan
  plan reject <id> --feedback TEXT
                         reject it, asking for a new plan
  requests               shutdown and plan requests with their state
  budget [<name>]        show an agent's (or, without a name, the team's) budget
  budget [<name>] [--tokens N|none] [--rounds N|none] [--usd DOLLARS|none]
                         set it (a limit not given stays as it is; --usd 0.50 is fifty
                         cents); agents paused by a budget go on
  budget [<name>] --clear
                         lift every limit

Exit status: 0 done, 1 refused (the message says what to do), 2 a usage mistake, 70 a bug.

Options:
  --workspace DIR        the folder whose .team/ holds the team (default: the current folder)
  --json                 machine-readable output
  -h, --help             this help

Model settings: ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, MODEL_ID, else
$XDG_CONFIG_HOME/agent-teams/settings.json ({"apiKey", "baseURL", "model"}).

Message types: message, broadcast, shutdown_request, shutdown_response, plan_approval_response.
`

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
  profile: { type: 'string' },
  approval: { type: 'string' },
  always: { type: 'boolean', default: false },
  reason: { type: 'string' },
  text: { type: 'string' },
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
  /** spawn and profile: a profile name, or "default". */
  profile?: string
  /** spawn and profile: an approval mode, or "default". */
  approval?: string
  /** approve --always. */
  always?: boolean
  /** deny --reason. */
  reason?: string
  /** answer --text. */
  text?: string
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
