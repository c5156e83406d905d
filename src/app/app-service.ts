import { statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { resolve } from 'node:path'
import {
  commands,
  type CommandName,
  type HostEvent,
  type Params,
  type Result,
  type TeamSnapshot,
} from '../shared/contract'
import type { Disposable } from '../shared/disposable'
import type { EngineAvailability } from '../shared/engine'
import { TeamError } from '../shared/errors'
import type { TeamEvent } from '../shared/events'
import { AppSettings } from './app-settings'
import type { Clock } from '../runtime/system/clock'
import type { Timers } from '../runtime/schedules/timers'
import { engineAvailability } from '../runtime/engines/availability'
import { TeamHost } from '../runtime/host/host'
import { WorkspaceTrustStore } from '../runtime/trust/trust-store'
import { isDemoWorkspace, makeDemoWorkspace } from './demo-workspace'
import { assertKnownAgent } from '../runtime/host/known-agent'
import { AppEndpoint } from './app-endpoint'
import { projectHandlers } from './project-handlers'
import { TemplateStore } from '../runtime/templates/template-store'
import { DEMO_REQUEST } from '../offline-model/scenarios/demo'
import { Roster } from '../runtime/roster/roster'
import type { SecretStore } from '../runtime/secrets/secrets'
import { TeamPaths } from '../runtime/team/paths'
import { teamSnapshot, type StatusReason } from '../runtime/team/snapshot'
import { absoluteFolder, listFolders } from './folder-listing'
import { exportHistory } from '../runtime/history/history-export'
import { hostHistorySource } from '../runtime/history/sources'
import { TeamHistory } from '../runtime/history/team-history'
import { reviewHandlers } from './review-handlers'
import { timelineHandlers } from './timeline-handlers'
import { undoHandlers } from './undo-handlers'
import { reactionHandlers } from './reaction-handlers'
import { scheduleHandlers } from './schedule-handlers'
import { taskHandlers } from './task-handlers'
import { agentHandlers } from './agent-handlers'
import { permissionHandlers } from './permission-handlers'

export interface AppServiceOptions {
  readonly mode: 'electron' | 'browser'
  readonly version: string
  /** The user's config folder for the app (settings.json, recent.json). */
  readonly configDirectory: string
  readonly secrets: SecretStore
  readonly env?: NodeJS.ProcessEnv
  /** A workspace to open at start. */
  readonly workspace?: string
  readonly clock?: Clock
  /** Where fresh demo folders go (default: the system's temp folder). */
  readonly demoParent?: string
  /** The OS folder picker, where there is one (Electron's dialog). */
  readonly pickFolder?: () => Promise<string | null>
  /** `serve --trust-workspace`: this run trusts what the workspace grants as it opens. */
  readonly trustWorkspace?: boolean
  /** Whether each engine can run here (default: looked up); the open team's spawns ask it too. */
  readonly engineAvailability?: () => readonly EngineAvailability[]
  /** The scheduled runs' timers (default: the process's); tests move them with a fake clock. */
  readonly timers?: Timers
}

type Handlers = { [N in CommandName]: (params: Params<N>) => Promise<Result<N>> }

/**
 * The app behind every UI: one workspace's team at a time, the settings, the offline model.
 * Transport-free: the Electron IPC adapter and the browser-mode server both call `execute`,
 * which parses each request with the contract's schemas (a request enters this process here).
 * Its replies are typed by the same schemas and parsed once, where they arrive: in the page.
 */
export class AppService {
  private host: TeamHost | null = null
  /** The open team's history index, built at its first search. */
  private history: TeamHistory | null = null
  private workspace: string | null = null
  private rosterProblem: TeamSnapshot['rosterProblem'] = null
  /** The model the team runs on: built as a folder opens, rebuilt when the settings change. */
  private readonly endpoint: AppEndpoint
  private readonly reasons = new Map<string, StatusReason>()
  private alert: { code: string; message: string } | null = null
  private readonly listeners = new Set<(event: HostEvent) => void>()
  /** Set by close(): an open still on its way then closes what it opened (its window is gone). */
  private closed = false
  private readonly settings: AppSettings
  private readonly handlers: Handlers
  /** What the person agreed each workspace may grant (the user's config folder). */
  private readonly trustStore: WorkspaceTrustStore
  /** The user's team templates (the config folder), beside the built-in ones. */
  private readonly templates: TemplateStore

  private constructor(private readonly options: AppServiceOptions) {
    this.settings = new AppSettings(
      options.configDirectory,
      options.secrets,
      options.env ?? process.env,
    )
    this.trustStore = new WorkspaceTrustStore(options.configDirectory)
    this.templates = TemplateStore.inConfigFolder(options.configDirectory)
    this.endpoint = new AppEndpoint(this.settings)
    this.handlers = this.createHandlers()
  }

  static async create(options: AppServiceOptions): Promise<AppService> {
    const service = new AppService(options)
    if (options.workspace) {
      try {
        await service.open(options.workspace)
      } catch (error) {
        await service.close()
        throw error
      }
    }
    return service
  }

  /** Runs one command: parses its parameters and runs it; the result is the handler's. */
  async execute(name: string, rawParams: unknown): Promise<unknown> {
    if (!Object.hasOwn(commands, name))
      throw new TeamError('invalid-argument', `Unknown command "${name}".`)
    const command = commands[name as CommandName]
    const parsed = command.params.safeParse(rawParams ?? {})
    if (!parsed.success) {
      throw new TeamError(
        'invalid-argument',
        `Invalid parameters for ${name}: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(params)'}: ${issue.message}`).join('; ')}`,
      )
    }
    const handler = this.handlers[name as CommandName] as (params: unknown) => Promise<unknown>
    return handler(parsed.data)
  }

  onEvent(listener: (event: HostEvent) => void): Disposable {
    this.listeners.add(listener)
    return { dispose: () => this.listeners.delete(listener) }
  }

  /** The open team's host, for tests and the CLI's serve command. */
  get currentHost(): TeamHost | null {
    return this.host
  }

  async close(): Promise<void> {
    this.closed = true
    await this.host?.close()
    this.host = null
    await this.endpoint.close()
    this.listeners.clear()
  }

  /**
   * Another window saved the settings (one file for every window): this team's endpoint
   * follows them as it does after a save of its own.
   */
  async settingsChanged(): Promise<void> {
    await this.followEndpoint()
  }

  private createHandlers(): Handlers {
    const team = {
      host: () => this.requireHost(),
      knownAgent: (name: string) => this.knownAgent(name),
      assertModelSet: () => this.endpoint.assertUsable(),
    }
    return {
      ...agentHandlers(team),
      ...permissionHandlers({ ...team, openHost: () => this.host }),
      ...reviewHandlers(team.host),
      ...taskHandlers(team.host),
      ...timelineHandlers({
        host: team.host,
        prices: () => this.settings.read().prices ?? {},
        configDirectory: this.options.configDirectory,
        nowSeconds: () => (this.options.clock?.now() ?? Date.now()) / 1000,
      }),
      ...undoHandlers(team.host),
      ...reactionHandlers(team.host),
      ...scheduleHandlers(team.host, () => this.nowSeconds()),
      ...projectHandlers({
        ...team,
        templates: this.templates,
        nowSeconds: () => this.nowSeconds(),
      }),
      getInfo: async () => ({
        version: this.options.version,
        workspace: this.workspace,
        mode: this.options.mode,
        offline: this.isOffline(),
      }),
      getSnapshot: async () => (this.workspace ? this.snapshot() : null),
      getEngines: async () => ({ engines: [...this.engines()] }),
      getSettings: async () => this.settings.view(),
      saveSettings: async (change) => {
        const view = await this.settings.save(change)
        this.host?.setPrices(view.prices)
        this.endpoint.setDemoSpeed(view.demoSpeed)
        await this.followEndpoint()
        this.emit({ type: 'settings-changed', settings: view })
        return view
      },
      openWorkspace: async ({ path }) => this.open(absoluteFolder(path)),
      getRecentWorkspaces: async () => ({ paths: this.settings.recentWorkspaces() }),
      startDemo: async () => {
        const folder = await makeDemoWorkspace(this.options.demoParent ?? tmpdir())
        // The app made it: trusted at once, as any `.team/` the app makes.
        this.trustStore.rememberMadeHere(folder)
        // Its folder makes the endpoint the offline model's as it opens.
        const snapshot = await this.open(folder)
        this.requireHost().chat(DEMO_REQUEST)
        return snapshot
      },
      searchHistory: async (query) => {
        if (query.agent !== undefined) this.knownAgent(query.agent)
        this.requireHost()
        return (this.history as TeamHistory).search(query)
      },
      exportHistory: async (request) => {
        const host = this.requireHost()
        if (request.agent !== undefined) this.knownAgent(request.agent)
        return exportHistory(hostHistorySource(host), request, host.team.roster.snapshot.team_name)
      },
      closeWorkspace: async () => {
        await this.host?.close()
        this.host = null
        this.history = null
        this.workspace = null
        this.rosterProblem = null
        this.alert = null
        this.reasons.clear()
        this.emit({ type: 'workspace-closed' })
        return {}
      },
      pickFolder: async () =>
        this.options.pickFolder
          ? { path: await this.options.pickFolder(), supported: true }
          : { path: null, supported: false },
      listFolders: async ({ path }) => listFolders(path),
      resetRoster: async () => {
        if (!this.workspace) throw new TeamError('no-workspace', 'Open a workspace first.')
        // A reset empties the team: it is for a roster that cannot be read, never a valid one.
        if (this.rosterProblem === null)
          throw new TeamError('roster-valid', 'The roster is valid: there is nothing to reset.')
        Roster.reset(new TeamPaths(this.workspace))
        return this.open(this.workspace)
      },
    }
  }

  private async open(path: string): Promise<TeamSnapshot> {
    const workspace = resolve(path)
    let stats
    try {
      stats = statSync(workspace)
    } catch {
      throw new TeamError('not-found', `There is no folder ${workspace}.`)
    }
    if (!stats.isDirectory())
      throw new TeamError('invalid-argument', `${workspace} is a file, not a folder.`)
    await this.host?.close()
    this.host = null
    this.history = null
    this.workspace = workspace
    this.rosterProblem = null
    this.alert = null
    this.reasons.clear()
    try {
      this.host = await TeamHost.open({
        workspace,
        endpoint: await this.endpoint.build(this.isDemo()),
        leadWakesOnMessages: this.settings.view().leadWakesOnMessages,
        prices: this.settings.view().prices,
        // The settings and key live here: no agent's command may read them.
        privateFolders: [this.options.configDirectory],
        mcp: { env: this.options.env ?? process.env },
        trust: { store: this.trustStore, forRun: this.options.trustWorkspace === true },
        engineAvailability: () => this.engines(),
        clock: this.options.clock,
        schedules: {
          template: (name) => this.templates.get(name).template,
          timers: this.options.timers,
        },
      })
      if (this.closed) {
        // Closed while the folder was opening: nothing may keep its lock or its agents.
        await this.host.close()
        this.host = null
        await this.endpoint.close()
        throw new TeamError('team-closed', `${workspace} was closed while it opened.`)
      }
    } catch (error) {
      if (!(error instanceof TeamError) || error.code !== 'roster-invalid') {
        // Nothing is open now (the old team was closed): say so rather than claim this folder.
        this.workspace = null
        throw error
      }
      const details = error.details as { file?: string; line?: number; column?: number }
      this.rosterProblem = {
        message: error.message,
        file: details.file ?? '',
        line: details.line ?? 1,
        column: details.column ?? 1,
      }
    }
    if (this.host !== null) this.history = new TeamHistory(hostHistorySource(this.host))
    this.host?.subscribe((event) => this.onTeamEvent(event))
    this.settings.rememberWorkspace(workspace)
    const snapshot = await this.snapshot()
    this.emit({ type: 'workspace-opened', snapshot })
    return snapshot
  }

  private onTeamEvent(event: TeamEvent): void {
    if (event.type === 'agent-status-changed')
      this.reasons.set(event.name, {
        reason: event.reason,
        cause: event.cause,
        errorCode: event.error_code,
      })
    this.history?.observe(event)
    if (event.type === 'roster-invalid')
      this.rosterProblem = {
        message: event.message,
        file: event.file,
        line: event.line,
        column: event.column,
      }
    if (event.type === 'roster-changed') this.rosterProblem = null
    if (event.type === 'team-alert') this.alert = { code: event.code, message: event.message }
    if (event.type === 'team-alert-cleared') this.alert = null
    this.emit(event)
  }

  private snapshot(): Promise<TeamSnapshot> {
    return teamSnapshot({
      workspace: this.workspace ?? '',
      host: this.host,
      rosterProblem: this.rosterProblem,
      reasons: this.reasons,
      alert: this.alert,
      offline: this.isOffline(),
    })
  }

  private nowSeconds(): number {
    return (this.options.clock?.now() ?? Date.now()) / 1000
  }

  /** Whether each engine can run here: what the spawn dialog shows and every spawn checks. */
  private engines(): readonly EngineAvailability[] {
    return (this.options.engineAvailability ?? engineAvailability)()
  }

  /** A folder the offline demo made: its team always runs on the offline model. */
  private isDemo(): boolean {
    return this.workspace !== null && isDemoWorkspace(this.workspace)
  }

  private isOffline(): boolean {
    return this.isDemo() || this.settings.view().useOfflineModel
  }

  /** The settings changed: the team runs on the endpoint they give from its next call. */
  private async followEndpoint(): Promise<void> {
    const endpoint = await this.endpoint.rebuild(this.isDemo())
    if (endpoint !== null) this.host?.setEndpoint(endpoint)
  }

  /** `name`, once it passed the name rule and names the lead or a member of the roster. */
  private knownAgent(name: string): string {
    const host = this.requireHost()
    assertKnownAgent(name, host.team.roster, this.workspace ?? undefined)
    return name
  }

  private requireHost(): TeamHost {
    if (this.host) return this.host
    if (this.rosterProblem) throw new TeamError('roster-invalid', `${this.rosterProblem.message}`)
    throw new TeamError('no-workspace', 'Open a workspace first.')
  }

  private emit(event: HostEvent): void {
    for (const listener of this.listeners) listener(event)
  }
}
