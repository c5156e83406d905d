import { SandboxManager, type SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime'
import { getApplySeccompBinaryPath } from '@anthropic-ai/sandbox-runtime/dist/sandbox/generate-seccomp-filter.js'
import { randomBytes } from 'node:crypto'
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join, sep } from 'node:path'
import type { BlockedAction, SandboxStatus } from '../../shared/sandbox'
import { settingsPath } from '../model/config'
import type { BashLaunch } from './bash-launch'

/**
 * bash's OS sandbox, through Anthropic's sandbox runtime (bubblewrap on Linux, Seatbelt on
 * macOS): a command may write only in its workspace and a private temporary folder, never in
 * `.team/`; it cannot read the app's settings folder (the key lives there); and it reaches the
 * network only through the runtime's proxy, which lets through the team's allowed hosts.
 */

/** What one command may do. */
export interface SandboxPolicy {
  /** Folders it may write in: the agent's workspace (or worktree). */
  readonly writable: readonly string[]
  /** Folders it may not write in even inside `writable`: the team's `.team/`. */
  readonly readOnly: readonly string[]
  /** Folders it may not read: the app's settings, with the key. */
  readonly unreadable: readonly string[]
  /** Hosts it may connect to (`allowedHostSchema`). */
  readonly allowedHosts: readonly string[]
}

/** A command ready to run in the sandbox, and what to do after it ends. */
export interface SandboxedCommand {
  readonly launch: BashLaunch
  /** What the sandbox stopped it from doing, read from its output and the proxy's record. */
  blocked(output: string): BlockedAction[]
  /** Replaces its allow-list while it runs (a long-lived MCP server follows the team's list). */
  allowHosts(hosts: readonly string[]): void
  /** Unregisters its allow-list and removes its temporary folder; idempotent. */
  dispose(): void
}

/** Where the sandbox's programs are looked for; tests pass a PATH without them. */
export interface SandboxProbe {
  readonly platform: NodeJS.Platform
  readonly path: string
}

/** The app's settings folder: never readable from inside (settings.json, the saved key). */
export function appSecretFolders(env: NodeJS.ProcessEnv = process.env): string[] {
  return [dirname(settingsPath(env))]
}

const LINUX_PROGRAMS = [
  { name: 'bwrap', package: 'bubblewrap' },
  { name: 'socat', package: 'socat' },
  { name: 'rg', package: 'ripgrep' },
]

function onPath(program: string, path: string): boolean {
  return path.split(delimiter).some((folder) => {
    if (folder === '') return false
    try {
      accessSync(join(folder, program), constants.X_OK)
      return true
    } catch {
      return false
    }
  })
}

/** Whether the sandbox can run here, without starting it; the reason is for the person. */
export function probeSandbox(
  probe: SandboxProbe = { platform: process.platform, path: process.env.PATH ?? '' },
): SandboxStatus {
  if (probe.platform === 'darwin') return { available: true, mechanism: 'seatbelt' }
  if (probe.platform !== 'linux')
    return {
      available: false,
      reason:
        'bash cannot be sandboxed on this system (the OS sandbox needs Linux or macOS), so ' +
        'every command an agent runs waits for your approval.',
    }
  const missing = LINUX_PROGRAMS.filter((program) => !onPath(program.name, probe.path))
  if (missing.length > 0)
    return {
      available: false,
      reason:
        `bash cannot be sandboxed: ${missing.map((program) => program.name).join(', ')} ` +
        `${missing.length === 1 ? 'is' : 'are'} not installed, so every command an agent runs ` +
        `waits for your approval. Install ${missing.map((program) => program.package).join(' and ')} ` +
        '(Debian and Ubuntu: apt-get install ' +
        `${missing.map((program) => program.package).join(' ')}) and restart Agent Teams.`,
    }
  return { available: true, mechanism: 'bubblewrap' }
}

/**
 * The sandbox runtime keeps one configuration and one pair of proxies per process, so every
 * team of this process shares them: the base configuration denies everything, and each
 * command brings its own folders (in its wrap) and its own allow-list (registered under an
 * unguessable id that only its proxy settings carry).
 */
export class BashSandbox {
  private started: Promise<SandboxStatus> | null = null
  private stopping: Promise<void> = Promise.resolve()
  private users = 0
  private idleTimer: NodeJS.Timeout | null = null
  private closeWanted = false

  constructor(
    private readonly probe?: SandboxProbe,
    /** How long the proxies outlive the last command. */
    private readonly idleMs = IDLE_MS,
  ) {}

  /**
   * Runs `use` with the sandbox started (or with why it cannot be). The runtime's proxies and
   * socat bridges would keep the process alive, so they run only while commands do, and stop
   * `idleMs` after the last one (its timer does not hold the process either).
   */
  async use<T>(use: (status: SandboxStatus) => Promise<T>): Promise<T> {
    this.users += 1
    this.closeWanted = false
    if (this.idleTimer !== null) clearTimeout(this.idleTimer)
    this.idleTimer = null
    try {
      return await use(await this.status())
    } finally {
      this.users -= 1
      if (this.users === 0) {
        // Asked to close while a command ran: close now that it is done, not after the idle wait.
        if (this.closeWanted) void this.close()
        else {
          this.idleTimer = setTimeout(() => void this.close(), this.idleMs)
          this.idleTimer.unref()
        }
      }
    }
  }

  /**
   * Whether commands can be sandboxed here, for Settings and the roster: the started runtime's
   * answer when it runs, else the check of what it needs. It never starts the proxies: a page
   * asking would leave them (and their socat children) running, holding the process open.
   */
  async report(): Promise<SandboxStatus> {
    if (this.started !== null) return this.started
    const found = probeSandbox(this.probe)
    if (!found.available) return found
    const dependencies = SandboxManager.checkDependencies()
    return dependencies.errors.length > 0
      ? {
          available: false,
          reason: `bash cannot be sandboxed: ${dependencies.errors.join('; ')}. Every command an agent runs waits for your approval.`,
        }
      : found
  }

  /** Whether commands are sandboxed here; starts the runtime's proxies if need be. */
  status(): Promise<SandboxStatus> {
    this.started ??= this.stopping.then(() => this.start())
    return this.started
  }

  private async start(): Promise<SandboxStatus> {
    const found = probeSandbox(this.probe)
    if (!found.available) return found
    try {
      const dependencies = SandboxManager.checkDependencies()
      if (dependencies.errors.length > 0)
        return {
          available: false,
          reason: `bash cannot be sandboxed: ${dependencies.errors.join('; ')}. Every command an agent runs waits for your approval.`,
        }
      await SandboxManager.initialize(baseConfig())
      return found
    } catch (error) {
      return {
        available: false,
        reason: `bash cannot be sandboxed: the OS sandbox did not start (${error instanceof Error ? error.message : String(error)}). Every command an agent runs waits for your approval.`,
      }
    }
  }

  /**
   * `command` wrapped to run with `shell` under `policy`; only inside `use`, once it said
   * available.
   */
  async wrap(
    command: string,
    policy: SandboxPolicy,
    shell = '/bin/bash',
  ): Promise<SandboxedCommand> {
    const commandId = randomBytes(16).toString('base64url')
    // Private: another agent's command cannot read or plant files in it.
    const temporary = mkdtempSync(join(tmpdir(), 'agent-teams-bash-'))
    let disposed = false
    const dispose = (): void => {
      if (disposed) return
      disposed = true
      SandboxManager.unregisterCommandNetworkLists(commandId)
      // Removes the mount points bubblewrap left for deny rules on paths that did not exist.
      SandboxManager.cleanupAfterCommand()
      rmSync(temporary, { recursive: true, force: true })
    }
    try {
      const script = `${temporaryEnvironment(temporary)}\n${command}`
      const wrapped = await SandboxManager.wrapWithSandbox(
        script,
        shell,
        {
          filesystem: {
            denyRead: [...policy.unreadable],
            allowWrite: [...policy.writable, temporary],
            denyWrite: [...policy.readOnly],
          },
        },
        undefined,
        { commandId, commandText: command },
      )
      SandboxManager.registerCommandNetworkLists(commandId, {
        allowedDomains: [...policy.allowedHosts],
      })
      return {
        launch: { file: '/bin/bash', args: ['-c', wrapped], isolation: 'sandbox' },
        blocked: (output) => [
          ...blockedWrites(output, command),
          ...blockedConnections(commandId, command),
        ],
        allowHosts: (hosts) => {
          if (!disposed)
            SandboxManager.registerCommandNetworkLists(commandId, { allowedDomains: [...hosts] })
        },
        dispose,
      }
    } catch (error) {
      dispose()
      throw error
    }
  }

  /** Stops the runtime's proxies now (the app closing, a test file ending). */
  async close(): Promise<void> {
    if (this.idleTimer !== null) clearTimeout(this.idleTimer)
    this.idleTimer = null
    const started = this.started
    if (started === null) return
    if (this.users > 0) {
      this.closeWanted = true
      return
    }
    this.closeWanted = false
    this.started = null
    this.stopping = started.then(async (status) => {
      if (status.available) await SandboxManager.reset()
    })
    await this.stopping
  }
}

const IDLE_MS = 5000

/** Nothing is allowed in the base; each command's wrap and allow-list add its own. */
function baseConfig(): SandboxRuntimeConfig {
  return {
    network: { allowedDomains: [], deniedDomains: [] },
    filesystem: { denyRead: appSecretFolders(), allowWrite: [], denyWrite: [] },
    ...unpackedHelpers(),
  }
}

/**
 * In the packaged app the runtime's own files sit inside app.asar, which only Electron can
 * read: bubblewrap and java, given a path there, find nothing. electron-builder unpacks the
 * package beside it (asarUnpack), so point the runtime at that copy.
 */
function unpackedHelpers(): Pick<SandboxRuntimeConfig, 'seccomp' | 'javaAgentJarPath'> {
  if (process.platform !== 'linux') return {}
  const seccomp = getApplySeccompBinaryPath()
  const archive = `${sep}app.asar${sep}`
  if (seccomp === null || !seccomp.includes(archive)) return {}
  const unpacked = seccomp.replace(archive, `${sep}app.asar.unpacked${sep}`)
  // vendor/seccomp/<arch>/apply-seccomp, three folders below the package's root.
  const root = dirname(dirname(dirname(dirname(unpacked))))
  return {
    seccomp: { applyPath: unpacked },
    javaAgentJarPath: join(root, 'vendor', 'java-proxy-agent', 'srt-proxy-agent.jar'),
  }
}

/**
 * The private temporary folder, and package managers' caches inside it: their usual homes
 * (~/.npm, ~/.cache) are not writable, and an install would fail on its cache, not its work.
 */
function temporaryEnvironment(folder: string): string {
  const under = (name: string): string => quote(join(folder, name))
  return (
    `export TMPDIR=${quote(folder)} TMP=${quote(folder)} TEMP=${quote(folder)} ` +
    `XDG_CACHE_HOME=${under('cache')} npm_config_cache=${under('npm')} ` +
    `GOCACHE=${under('go-build')} GOMODCACHE=${under('go-mod')}`
  )
}

function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`
}

const READ_ONLY = /Read-only file system/

/**
 * Writes the sandbox refused, from the command's error messages: the kernel answers EROFS and
 * tools name the path, quoted (`touch: cannot touch '/x'`) or before the error (`bash: /x:`).
 */
export function blockedWrites(output: string, command: string): BlockedAction[] {
  const paths = new Set<string>()
  for (const line of output.split('\n')) {
    if (!READ_ONLY.test(line)) continue
    const quoted = [...line.matchAll(/['‘"]([^'’"]+)['’"]/g)].map((match) => match[1] ?? '')
    const path = quoted.at(-1) ?? /([^\s:][^:]*): Read-only file system/.exec(line)?.[1]
    if (path !== undefined && path !== '') paths.add(path.trim())
  }
  return [...paths].map((path) => ({ kind: 'blocked-write', path, command }))
}

/** Connections the proxy refused for this command (`deny network-outbound host:port (…)`). */
function blockedConnections(commandId: string, command: string): BlockedAction[] {
  const seen = new Set<string>()
  const actions: BlockedAction[] = []
  for (const violation of SandboxManager.getSandboxViolationStore().getViolationsForCommand(
    commandId,
  )) {
    const match = /deny network-outbound (\[[^\]]+\]|[^\s:]+):(\d+)/.exec(violation.line)
    if (match === null || seen.has(`${match[1]}:${match[2]}`)) continue
    seen.add(`${match[1]}:${match[2]}`)
    actions.push({
      kind: 'blocked-network',
      host: match[1] ?? '',
      port: Number(match[2]),
      command,
    })
  }
  return actions
}

/** The process's sandbox, shared by every team it opens. */
export const defaultBashSandbox = new BashSandbox()
