import type * as ClaudeAgentSdk from '@anthropic-ai/claude-agent-sdk'
import type { HookCallback, Query, SDKUserMessage } from '@anthropic-ai/claude-agent-sdk'
import type { Usage } from '../../../shared/transcript'
import { addUsage, NO_USAGE } from '../../../shared/usage'
import { AgentCore } from '../../agents/agent-core'
import type { ActivationEnd, AgentOptions } from '../../agents/agent-types'
import { SessionHandover } from './handover'
import { claudeCodePermissions } from './permissions'
import { InputQueue } from './input-queue'
import type { LaunchedProcess, SandboxedLauncher } from './process'
import type { ClaudeSessions } from './sessions'
import { teamServer } from './team-server'
import { KEPT_TOOLS, REFUSED_TOOLS } from './tool-names'
import { ClaudeCodeTranscript, type TurnResult } from './transcript'

type Sdk = typeof ClaudeAgentSdk

/** The code of an activation whose session Claude Code could not find to resume. */
const SESSION_LOST = 'session-lost'

/** One activation's way to the model (`key-relay.ts`). */
export interface ModelAccess {
  readonly baseURL: string
  readonly apiKey: string
  /** What the answers to its calls reported so far, per model (metered by the relay). */
  usage(): ReadonlyMap<string, Usage>
  release(): void
}

/** What a Claude Code teammate needs beyond the six ports every agent has. */
export interface ClaudeCodePorts {
  /** The SDK, loaded on first use (an optional dependency: a TeamError when it is missing). */
  readonly sdk: () => Promise<Sdk>
  /** The app's record of each teammate's session (id, what it holds). */
  readonly sessions: ClaudeSessions
  /** CLAUDE_CONFIG_DIR: this teammate's own Claude Code folder in the app's data. */
  readonly configFolder: string
  /** Its HOME: a folder of its own beside it, never the person's. */
  readonly home: string
  /** Its way into the OS sandbox, for a session working in `root`; `started` hears the pid. */
  readonly launcher: (
    root: string,
    started: (process: LaunchedProcess) => void,
  ) => Promise<SandboxedLauncher>
  /** Claude Code's binary (outside the app's archive in a packaged app). */
  readonly executable: () => string | undefined
  /**
   * Its way to the model for one activation: the app's relay and a token of its own (the team's
   * key never enters the process); `release` ends the token.
   */
  readonly access: () => Promise<ModelAccess>
  /** Extra environment (tests: `IS_SANDBOX` when run as root). */
  readonly environment?: Readonly<Record<string, string>>
}

/**
 * A teammate whose turns a Claude Code session runs. Everything around the session is the
 * team's: mail enters its transcript exactly once (the same intake as the built-in loop) and
 * reaches the session as a user message or, while it works, after its next tool call; its team
 * tools come from an in-process MCP server; every permission goes through its profile and the
 * Needs-you queue; the whole process runs in the OS sandbox; its tokens are priced by this app.
 *
 * An activation is one Claude Code process, resumed by session id: it ends when a turn ends with
 * no mail waiting, so an idle teammate holds no process.
 */
export class ClaudeCodeAgent extends AgentCore {
  readonly engine = 'claude-code' as const
  private readonly handover: SessionHandover
  /** Its session could not be resumed: the next hand-over says so. */
  private sessionLost = false
  /** Model calls in the activation running now. */
  private rounds = 0

  constructor(
    private readonly options: AgentOptions,
    private readonly ports: ClaudeCodePorts,
  ) {
    super(options)
    this.handover = new SessionHandover(
      options.identity.name,
      ports.sessions,
      ports.configFolder,
      (after) => this.store.since(after),
    )
    // A teammate that ran on another engine before: its history was that engine's, handled;
    // its new session starts from what comes next (its transcript keeps the rest).
    this.handover.adopt(this.store.all)
  }

  override stop(): void {
    this.wakeRequested = false
    if (this.controller === null) return
    this.controller.abort()
    // At once: the SDK's own close gives the process seconds to finish (stdin closed, a grace).
    this.handover.kill()
  }

  protected async runUntilQuiet(): Promise<void> {
    do {
      this.wakeRequested = false
      try {
        await this.intake.inject()
        await this.handover.endLeftBehind()
        // A hand-over the session took but never answered (a crash): it goes on from there,
        // unless its last activation ended on a status (a stop, an error): that needs a resume.
        const unanswered = this.handover.recover(this.store.length) && !this.endedOnStatus()
        const resumed = this.resumeRequested && this.lastEnd.kind !== 'idle'
        if (this.handover.pending().length === 0 && !unanswered && !resumed) continue
        this.resumeRequested = false
        const pause = this.options.guard.pauseReason()
        this.lastEnd = pause !== null ? { kind: 'paused', ...pause } : await this.activate()
        if (this.lastEnd.kind === 'error' && this.lastEnd.code === SESSION_LOST) {
          // Its session is gone (Claude Code's folder was cleared): a new one, told so, with
          // what was pending handed over again.
          this.handover.lost()
          this.sessionLost = true
          this.lastEnd = await this.activate()
        }
        this.settle(this.lastEnd)
      } catch (error) {
        this.failed(error)
        return
      }
    } while (this.wakeRequested)
  }

  /** Whether the transcript ends on a status record (a stop, an error, a pause). */
  private endedOnStatus(): boolean {
    return this.store.recent.at(-1)?.kind === 'status' && !this.resumeRequested
  }

  /**
   * One activation, metered: a turn that ends without its result (a stop, a crash, a process
   * that ended itself) still counts what the relay saw its calls spend.
   */
  private async activate(): Promise<ActivationEnd> {
    const access = await this.ports.access()
    const recorded = new Map<string, Usage>()
    try {
      const end = await this.runSession(access, (usage, model) => {
        recorded.set(model, addUsage(recorded.get(model) ?? NO_USAGE, usage))
        this.countUsage(usage, model)
      })
      if (end.kind === 'stopped' || end.kind === 'error') this.countUnreported(access, recorded)
      return end
    } finally {
      access.release()
    }
  }

  /** What the relay saw spent that no result reported: a record of its own, per model. */
  private countUnreported(access: ModelAccess, recorded: ReadonlyMap<string, Usage>): void {
    for (const [model, metered] of access.usage()) {
      const missing = unreported(metered, recorded.get(model) ?? NO_USAGE)
      if (missing === null) continue
      this.record({
        kind: 'assistant',
        message_id: `unreported-${model}`,
        model,
        content: [],
        stop_reason: 'interrupted',
        usage: missing,
        usage_estimated: true,
      })
      this.countUsage(missing, model)
    }
  }

  private async runSession(
    access: ModelAccess,
    countUsage: (usage: Usage, model: string) => void,
  ): Promise<ActivationEnd> {
    const controller = new AbortController()
    this.controller = controller
    this.rounds = 0
    this.options.events.setStatus('working', 'activated')
    // Claude Code calls its model inside its own process: the checkpoint is taken before each
    // prompt the session is given (the activation's first, then each hand-over), not per call.
    await this.options.tools.checkpoint?.({
      kind: 'turn',
      turnSeq: this.store.length + 1,
      opensTurn: true,
    })
    const sdk = await this.ports.sdk()
    const root = await this.options.tools.root()
    const input = new InputQueue<SDKUserMessage>()
    const transcript = new ClaudeCodeTranscript(this.name, {
      record: (record) => this.record(record),
      emit: this.options.events.emit,
      countUsage,
    })
    const first = this.handover.handOver()
    const lost = this.sessionLost
      ? 'Your earlier session could not be resumed (its files are gone): your transcript in the team remains, but you do not remember it. '
      : ''
    this.sessionLost = false
    input.push(userMessage(`${lost}${first ?? 'Go on with your task where you left off.'}`))
    let query: Query | null = null
    let launcher: SandboxedLauncher | null = null
    try {
      launcher = await this.ports.launcher(root, (process) => this.handover.started(process))
      query = sdk.query({
        prompt: input,
        options: this.sessionOptions(sdk, root, launcher, controller, access),
      })
      let lastMessage: string | null = null
      for await (const message of query) {
        const result = transcript.take(message)
        if (transcript.session !== null) this.handover.named(transcript.session)
        if (message.type === 'assistant' && message.parent_tool_use_id === null) {
          this.handover.confirm()
          // Each API message is a model call: the round cap counts them within an activation.
          if (message.message.id !== lastMessage) this.rounds++
          lastMessage = message.message.id
        }
        if (result === null) continue
        const end = this.afterTurn(result)
        if (end !== null) return end
        const next = this.handover.handOver()
        if (next === null) return { kind: 'idle' }
        await this.options.tools.checkpoint?.({ kind: 'turn', turnSeq: this.store.length + 1 })
        input.push(userMessage(next))
      }
      return controller.signal.aborted
        ? { kind: 'stopped' }
        : { kind: 'error', code: 'engine-exited', message: 'Claude Code ended without a result.' }
    } catch (error) {
      transcript.flush()
      if (controller.signal.aborted) return { kind: 'stopped' }
      const message = error instanceof Error ? error.message : String(error)
      if (/No conversation found/i.test(message))
        return { kind: 'error', code: SESSION_LOST, message }
      return { kind: 'error', code: 'engine-failed', message: `Claude Code failed: ${message}` }
    } finally {
      transcript.flush()
      input.close()
      this.controller = null
      await query?.return(undefined).catch(() => undefined)
      // Its process has exited (or is ended) before the hold on the sandbox and its record go.
      await launcher?.release()
      this.handover.ended(this.store.length)
    }
  }

  /** What a finished turn means: go on (null), or how the activation ends. */
  private afterTurn(result: TurnResult): ActivationEnd | null {
    if (result.failed) {
      if (/No conversation found/i.test(result.message))
        return { kind: 'error', code: SESSION_LOST, message: result.message }
      if (result.subtype === 'error_max_turns' || this.rounds >= this.options.guard.roundCap)
        return { kind: 'round-cap', rounds: this.rounds }
      // Not the team's key alert: a sandboxed process can write what its result says, so a
      // refused key is left to the app's own calls to find; this teammate ends in error.
      return { kind: 'error', code: 'engine-failed', message: result.message }
    }
    this.handover.confirm()
    if (this.shutdownReason !== null) return { kind: 'shutdown', reason: this.shutdownReason }
    const pause = this.options.guard.pauseReason()
    if (pause !== null) return { kind: 'paused', ...pause }
    return this.rounds >= this.options.guard.roundCap
      ? { kind: 'round-cap', rounds: this.rounds }
      : null
  }

  /** Why it must stop before its next tool call: a budget, a shutdown, the round cap; or null. */
  private stopReason(): string | null {
    if (this.shutdownReason !== null) return this.shutdownReason
    const pause = this.options.guard.pauseReason()
    if (pause !== null) return pause.reason
    return this.rounds >= this.options.guard.roundCap
      ? `round cap (${this.options.guard.roundCap} model calls) reached`
      : null
  }

  private sessionOptions(
    sdk: Sdk,
    root: string,
    launcher: SandboxedLauncher,
    controller: AbortController,
    access: { baseURL: string; apiKey: string },
  ): Parameters<Sdk['query']>[0]['options'] {
    const { identity, guard, tools } = this.options
    const session = this.handover.session
    const context = async () => ({ workspace: root, agent: this.name, signal: controller.signal })
    // Mail that came while it works, handed over after its next tool call.
    const mailHook: HookCallback = async () => {
      await this.intake.inject()
      const text = this.handover.handOver()
      return text === null
        ? {}
        : { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: text } }
    }
    const { canUseTool, gate } = claudeCodePermissions({
      name: this.name,
      guard,
      root,
      stopReason: () => this.stopReason(),
    })
    return {
      abortController: controller,
      cwd: root,
      // Its own model choice (the roster's), else the team's.
      model: this.options.model.modelId(),
      ...(session.session_id === null ? {} : { resume: session.session_id }),
      systemPrompt: { type: 'preset', preset: 'claude_code', append: identity.systemPrompt() },
      // Nothing a repository ships configures it: no settings, CLAUDE.md, hooks or .mcp.json.
      settingSources: [],
      strictMcpConfig: true,
      tools: KEPT_TOOLS,
      disallowedTools: REFUSED_TOOLS,
      permissionMode: 'default',
      canUseTool,
      hooks: {
        PreToolUse: [{ hooks: [gate] }],
        PostToolUse: [{ hooks: [mailHook] }],
      },
      mcpServers: {
        team: teamServer(sdk, tools.builtIn, guard, context, () => this.readInbox()),
      },
      maxTurns: guard.roundCap,
      includePartialMessages: true,
      verbatimPrompts: true,
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: this.ports.home,
        CLAUDE_CONFIG_DIR: this.ports.configFolder,
        ANTHROPIC_API_KEY: access.apiKey,
        ANTHROPIC_BASE_URL: access.baseURL,
        ANTHROPIC_CUSTOM_HEADERS: `x-agent-name: ${this.name}`,
        CLAUDE_AGENT_SDK_CLIENT_APP: 'agent-teams',
        DISABLE_AUTOUPDATER: '1',
        // The app's own IS_SANDBOX reaches it (Claude Code checks it as root, in some modes).
        ...(process.env['IS_SANDBOX'] === undefined
          ? {}
          : { IS_SANDBOX: process.env['IS_SANDBOX'] }),
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        ...this.ports.environment,
      },
      spawnClaudeCodeProcess: launcher.spawn,
      ...(this.ports.executable() === undefined
        ? {}
        : { pathToClaudeCodeExecutable: this.ports.executable() }),
    }
  }

  /** read_inbox: new mail now, and what was handed over is in its result. */
  private async readInbox(): Promise<string> {
    await this.intake.inject()
    return this.handover.handOver() ?? 'Your inbox is empty.'
  }
}

/** What `metered` holds beyond `recorded`, or null when nothing. */
function unreported(metered: Usage, recorded: Usage): Usage | null {
  const missing: Usage = {
    input_tokens: Math.max(0, metered.input_tokens - recorded.input_tokens),
    output_tokens: Math.max(0, metered.output_tokens - recorded.output_tokens),
    cache_creation_input_tokens: Math.max(
      0,
      (metered.cache_creation_input_tokens ?? 0) - (recorded.cache_creation_input_tokens ?? 0),
    ),
    cache_read_input_tokens: Math.max(
      0,
      (metered.cache_read_input_tokens ?? 0) - (recorded.cache_read_input_tokens ?? 0),
    ),
  }
  return Object.values(missing).some((value) => value > 0) ? missing : null
}

function userMessage(text: string): SDKUserMessage {
  return {
    type: 'user',
    message: { role: 'user', content: text },
    parent_tool_use_id: null,
  }
}
