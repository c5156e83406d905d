import type { AgentTeamsApi, Params, Result, TeamSnapshot } from '../../shared/contract'
import { LEAD } from '../../shared/names'
import { budgetChanged } from './budgets'
import { planAnswered, shutdownAsked } from './protocols'
import type { GetState, SetState } from './store'

/**
 * The commands the window sends. Each one rejects with the host's error ({code, message}) so
 * that the place that asked can show it inline; none of them swallows a failure.
 */
export interface Commands {
  chat(text: string): Promise<void>
  spawn(params: Params<'spawn'>): Promise<Result<'spawn'>>
  /** Every engine, whether it can run here (and why not), what it needs and costs. */
  getEngines(): Promise<Result<'getEngines'>>
  stopAgent(name: string): Promise<void>
  /** An agent's model (null: the team's) and thinking (null: off), from its next turn. */
  setAgentModel(params: Params<'setAgentModel'>): Promise<Result<'setAgentModel'>>
  /** Goes on after a pause, an error or a stall (a stalled stream is retried at once). */
  resumeAgent(name: string): Promise<void>
  /** The s10 shutdown handshake: pending until the teammate answers. */
  requestShutdown(name: string): Promise<Result<'requestShutdown'>>
  reviewPlan(params: Params<'reviewPlan'>): Promise<Result<'reviewPlan'>>
  /** The person's answer to a Needs-you entry (approve, approve always, deny, answer). */
  answerNeedsYou(params: Params<'answerNeedsYou'>): Promise<void>
  setAgentProfile(params: Params<'setAgentProfile'>): Promise<Result<'setAgentProfile'>>
  getProfiles(): Promise<Result<'getProfiles'>>
  /** Adds or replaces a custom profile in `.team/profiles.json`; answers every profile. */
  saveProfile(profile: Params<'saveProfile'>['profile']): Promise<Result<'saveProfile'>>
  /** An agent's budget, or the team's with name null; nulls lift a limit. */
  setBudget(params: Params<'setBudget'>): Promise<void>
  sendMessage(params: Params<'sendMessage'>): Promise<Result<'sendMessage'>>
  broadcast(content: string): Promise<Result<'broadcast'>>
  saveSettings(change: Params<'saveSettings'>): Promise<Result<'saveSettings'>>
  openWorkspace(path: string): Promise<void>
  /** The OS folder picker; `supported: false` where there is none (browser mode). */
  pickFolder(): Promise<Result<'pickFolder'>>
  /** The folder browser's listing (completion) for a typed path. */
  listFolders(path: string): Promise<Result<'listFolders'>>
  startDemo(): Promise<void>
  resetRoster(): Promise<void>
  refreshRecentWorkspaces(): Promise<void>
  /** Stops every agent that works, waits or stalls; answers how many. */
  stopAll(): Promise<Result<'stopAll'>>
  /** Resumes every agent that waits, stalled or failed; answers how many. */
  resumeAll(): Promise<Result<'resumeAll'>>
  /** Closes the team; the window goes back to the first-run screen. */
  closeWorkspace(): Promise<void>
  /** bash's OS sandbox here, and the open team's allowed hosts (held by the settings view). */
  getSandbox(): Promise<Result<'getSandbox'>>
  setAllowedHosts(hosts: readonly string[]): Promise<Result<'setAllowedHosts'>>
  /** The team's reactions (kept in the store as `reactions-changed` would): asked, or changed. */
  getReactions(): Promise<Result<'getReactions'>>
  setReactions(change: Params<'setReactions'>): Promise<Result<'setReactions'>>
  /** The task board, by hand: the board's change comes back as `tasks-changed`. */
  createTask(params: Params<'createTask'>): Promise<Result<'createTask'>>
  /** Edits a task; `owner` assigns it (the teammate is told in its inbox). */
  updateTask(params: Params<'updateTask'>): Promise<Result<'updateTask'>>
  /** The person's answer to the trust question: everything the workspace grants, or none of it. */
  trustWorkspace(trust: boolean): Promise<void>
  addMcpServer(params: Params<'addMcpServer'>): Promise<void>
  removeMcpServer(name: string): Promise<void>
}

export function createCommands(api: AgentTeamsApi, set: SetState, get: GetState): Commands {
  function opened(snapshot: TeamSnapshot): void {
    get().applyEvents([{ type: 'workspace-opened', snapshot }])
    set({ firstRunDone: true, selected: LEAD, view: 'conversation', dialog: null })
    void get().refreshRecentWorkspaces()
  }

  // The answer is the servers' state at once; later changes come as events.
  function mcpChanged(state: Result<'addMcpServer'>): void {
    get().applyEvents([{ type: 'mcp-changed', state }])
  }

  const commands: Commands = {
    async chat(text) {
      await api.chat({ text })
    },
    spawn: (params) => api.spawn(params),
    getEngines: () => api.getEngines({}),
    async stopAgent(name) {
      await api.stopAgent({ name })
    },
    setAgentModel: (params) => api.setAgentModel(params),
    async resumeAgent(name) {
      await api.resumeAgent({ name })
    },
    async requestShutdown(name) {
      const reply = await api.requestShutdown({ name })
      set((state) => shutdownAsked(state, reply.requestId, name))
      return reply
    },
    async reviewPlan(params) {
      const reply = await api.reviewPlan(params)
      set((state) => planAnswered(state, params.requestId, params.approve))
      return reply
    },
    async answerNeedsYou(params) {
      const { entry } = await api.answerNeedsYou(params)
      set((state) => ({ needsYou: { ...state.needsYou, [entry.id]: entry } }))
    },
    setAgentProfile: (params) => api.setAgentProfile(params),
    getProfiles: () => api.getProfiles({}),
    saveProfile: (profile) => api.saveProfile({ profile }),
    async setBudget(params) {
      await api.setBudget(params)
      set((state) =>
        budgetChanged(state, params.name, {
          tokens: params.tokens,
          rounds: params.rounds,
          usd: params.usd,
        }),
      )
    },
    sendMessage: (params) => api.sendMessage(params),
    broadcast: (content) => api.broadcast({ content }),
    async saveSettings(change) {
      const settings = await api.saveSettings(change)
      // A newcomer who just gave the open folder a model goes straight to the team.
      const ready = get().workspace !== null && (settings.apiKeySet || settings.useOfflineModel)
      set((state) => ({ settings, firstRunDone: state.firstRunDone || ready }))
      // Whether the team now runs offline is the snapshot's to say.
      if (get().workspace !== null) get().refreshSnapshot()
      return settings
    },
    async openWorkspace(path) {
      opened(await api.openWorkspace({ path }))
    },
    async pickFolder() {
      const picked = await api.pickFolder({})
      if (picked.path !== null) await commands.openWorkspace(picked.path)
      return picked
    },
    listFolders: (path) => api.listFolders({ path }),
    async startDemo() {
      const snapshot = await api.startDemo({})
      set({ demoWorkspace: snapshot.workspace })
      opened(snapshot)
    },
    async resetRoster() {
      get().applyEvents([{ type: 'workspace-opened', snapshot: await api.resetRoster({}) }])
    },
    createTask: (params) => api.createTask(params),
    updateTask: (params) => api.updateTask(params),
    stopAll: () => api.stopAll({}),
    getSandbox: () => api.getSandbox({}),
    setAllowedHosts: (hosts) => api.setAllowedHosts({ hosts: [...hosts] }),
    async getReactions() {
      const reactions = await api.getReactions({})
      get().applyEvents([{ type: 'reactions-changed', reactions }])
      return reactions
    },
    async setReactions(change) {
      const reactions = await api.setReactions(change)
      get().applyEvents([{ type: 'reactions-changed', reactions }])
      return reactions
    },
    resumeAll: () => api.resumeAll({}),
    async closeWorkspace() {
      await api.closeWorkspace({})
      get().applyEvents([{ type: 'workspace-closed' }])
      set({ firstRunDone: false, selected: LEAD, view: 'conversation', dialog: null })
      void get().refreshRecentWorkspaces()
    },
    async trustWorkspace(trust) {
      const view = await api.trustWorkspace({ trust })
      get().applyEvents([{ type: 'trust-changed', trust: view }])
    },
    async addMcpServer(params) {
      mcpChanged(await api.addMcpServer(params))
    },
    async removeMcpServer(name) {
      mcpChanged(await api.removeMcpServer({ name }))
    },
    async refreshRecentWorkspaces() {
      try {
        const recent = await api.getRecentWorkspaces({})
        set({ recentWorkspaces: recent.paths })
      } catch {
        // The list is a convenience; the folder field still works without it.
      }
    },
  }
  return commands
}
