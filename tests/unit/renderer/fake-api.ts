import {
  applyReactionsChange,
  DEFAULT_REACTIONS,
  type ReactionsChange,
  type ReactionsView,
} from '../../../src/shared/reactions'
import { vi } from 'vitest'
import type {
  AgentTeamsApi,
  AgentView,
  HostEvent,
  FolderListing,
  InboxEntryView,
  ProtocolRequestView,
  SettingsView,
  Result,
  TeamSnapshot,
} from '../../../src/shared/contract'
import type { EngineAvailability } from '../../../src/shared/engine'
import type { ReviewDiff } from '../../../src/shared/worktree'
import type { SandboxView } from '../../../src/shared/sandbox'
import type { NeedsYouEntry } from '../../../src/shared/needs-you'
import type { TranscriptRecord } from '../../../src/shared/transcript'
import type { Task } from '../../../src/shared/tasks'
import type { TrustView } from '../../../src/shared/trust'
import type { AwayDigest, Timeline } from '../../../src/shared/timeline'

/** Our own interface, faked as a plain object of async functions (each one a vi.fn). */
export type FakeApi = {
  -readonly [K in keyof AgentTeamsApi]: AgentTeamsApi[K] & ReturnType<typeof vi.fn>
} & {
  /** Delivers a batch to every onEvents listener, as the transport would. */
  emit(events: HostEvent[]): void
  readonly listenerCount: () => number
}

export const WORKSPACE = '/home/dana/stats'

export function agentView(name: string, change: Partial<AgentView> = {}): AgentView {
  return {
    name,
    role: name === 'lead' ? 'lead' : 'coder',
    status: 'idle',
    statusReason: null,
    statusCause: null,
    errorCode: null,
    running: false,
    usage: { input_tokens: 0, output_tokens: 0 },
    usageByModel: [],
    model: null,
    thinking: null,
    pending: 0,
    rounds: 0,
    budget: { tokens: null, rounds: null, usd: null },
    ...change,
  }
}

export function snapshot(change: Partial<TeamSnapshot> = {}): TeamSnapshot {
  return {
    workspace: WORKSPACE,
    teamName: 'stats',
    lead: agentView('lead'),
    members: [],
    defaultModel: 'claude-test',
    rosterProblem: null,
    requests: [],
    teamBudget: { tokens: null, rounds: null, usd: null },
    offline: false,
    alert: null,
    mcp: null,
    trust: null,
    ...change,
  }
}

export function settingsView(change: Partial<SettingsView> = {}): SettingsView {
  return {
    apiKeySet: true,
    apiKeySource: 'environment',
    baseURL: null,
    model: 'claude-test',
    useOfflineModel: false,
    secretStorage: 'os',
    secretStorageNote: null,
    leadWakesOnMessages: true,
    demoSpeed: 'slow',
    contextWindow: null,
    prices: {},
    ...change,
  }
}

export function inboxEntry(offset: number, change: Partial<InboxEntryView> = {}): InboxEntryView {
  return {
    position: { segment: 1, offset },
    state: 'pending',
    id: `m${offset}`,
    type: 'message',
    from: 'alice',
    content: `message at ${offset}`,
    timestamp: 1_700_000_000,
    reason: null,
    ...change,
  }
}

let seq = 0
export function userRecord(text: string, at = 1_700_000_000): TranscriptRecord {
  return { v: 1, seq: ++seq, at, kind: 'user', from: 'user', text }
}

export interface FakeOptions {
  readonly workspace?: string | null
  readonly snapshot?: TeamSnapshot
  readonly settings?: SettingsView
  readonly transcripts?: Record<string, TranscriptRecord[]>
  readonly inboxes?: Record<string, InboxEntryView[]>
  /** What getInfo says about the offline model (default: not offline). */
  readonly offline?: boolean
  /** What getWorktrees answers (default: not a git repository). */
  readonly worktrees?: Result<'getWorktrees'>
  /** What getReviewDiff answers, per teammate. */
  readonly diffs?: Record<string, ReviewDiff>
  /** What getSandbox answers (default: sandboxed, no host allowed). */
  readonly sandbox?: SandboxView
  /** What getEngines answers (default: both engines available). */
  readonly engines?: readonly EngineAvailability[]
  /** What getReactions answers (default: the defaults, trusted, nothing counted). */
  readonly reactions?: ReactionsView
  /** What getTimeline answers (default: nothing happened yet). */
  readonly timeline?: Timeline
  /** What getAwayDigest answers (default: nothing since the last look). */
  readonly awayDigest?: AwayDigest
}

/** An engine as getEngines answers it (default: available, its needs and costs in short). */
export function engineView(
  engine: EngineAvailability['engine'],
  change: Partial<EngineAvailability> = {},
): EngineAvailability {
  return {
    engine,
    available: true,
    problem: null,
    needs: `What ${engine} needs.`,
    costs: `What ${engine} costs.`,
    ...change,
  }
}

/** A Needs-you entry as the snapshot and needs-you-changed carry it. */
export function needsYouEntry(change: Partial<NeedsYouEntry> = {}): NeedsYouEntry {
  return {
    id: 'ny-1',
    agent: 'alice',
    kind: 'tool',
    summary: 'bash: npm test',
    detail: 'npm test',
    status: 'pending',
    created_at: 1_700_000_000,
    settled_at: null,
    answer: null,
    tool: 'bash',
    tool_use_id: 'tu_1',
    pattern: 'npm test',
    request_id: null,
    ...change,
  }
}

/** The trust view (default: a workspace the app made, granting nothing). */
export function trustView(change: Partial<TrustView> = {}): TrustView {
  return {
    workspace: WORKSPACE,
    trusted: true,
    reason: 'made-here',
    declined: false,
    grants: { mcpServers: [], files: [], allowedHosts: [], approveAlways: [], profiles: [] },
    changes: [],
    sandbox: { available: true, mechanism: 'bubblewrap' },
    problems: [],
    ...change,
  }
}

/** A plan request as the snapshot and protocol-changed carry it. */
export function planRequest(change: Partial<ProtocolRequestView> = {}): ProtocolRequestView {
  return {
    id: 'plan-1',
    kind: 'plan',
    from: 'alice',
    to: 'lead',
    status: 'pending',
    plan: '1. Read stats.mjs\n2. Add a median function',
    reason: null,
    ...change,
  }
}

export function fakeApi(options: FakeOptions = {}): FakeApi {
  const listeners = new Set<(events: HostEvent[]) => void>()
  const workspace = options.workspace === undefined ? WORKSPACE : options.workspace
  const team = options.snapshot ?? snapshot({ offline: options.offline ?? false })
  const settings = options.settings ?? settingsView()
  let reactions: ReactionsView = options.reactions ?? {
    config: DEFAULT_REACTIONS,
    problem: null,
    trusted: true,
    counts: { check: 0, nudge: 0, escalate: 0, conflict: 0, fold: 0 },
    unreadable_lines: 0,
    checks: [],
  }
  let sandbox: SandboxView = options.sandbox ?? {
    status: { available: true, mechanism: 'bubblewrap' },
    team: workspace === null ? null : { allowedHosts: [], problem: null },
    preset: ['registry.npmjs.org', 'pypi.org'],
  }
  const api = {
    getInfo: vi.fn(async () => ({
      version: '1.0.0',
      workspace,
      mode: 'browser' as const,
      offline: options.offline ?? false,
    })),
    getSnapshot: vi.fn(async () => (workspace === null ? null : team)),
    chat: vi.fn(async () => ({})),
    spawn: vi.fn(async ({ name, role }: { name: string; role: string }) => ({
      summary: `Spawned '${name}' (role: ${role})`,
    })),
    stopAgent: vi.fn(async () => ({})),
    setAgentModel: vi.fn(async ({ name }: { name: string }) => ({
      summary: `${name} now runs on another model.`,
    })),
    sendMessage: vi.fn(async () => ({ id: 'sent-1' })),
    broadcast: vi.fn(async () => ({ count: 2 })),
    getTranscript: vi.fn(
      async ({
        name,
        fromSeq = 1,
        last,
        limit,
      }: {
        name: string
        fromSeq?: number
        last?: number
        limit?: number
      }) => {
        const records = options.transcripts?.[name] ?? []
        const start =
          last === undefined ? Math.max(0, fromSeq - 1) : Math.max(0, records.length - last)
        return {
          records: records.slice(start, start + (last ?? limit ?? records.length)),
          total: records.length,
        }
      },
    ),
    getInbox: vi.fn(async ({ name }: { name: string }) => ({
      entries: options.inboxes?.[name] ?? [],
      next: null,
    })),
    getSettings: vi.fn(async () => settings),
    saveSettings: vi.fn(async (change: Partial<SettingsView>) => ({ ...settings, ...change })),
    openWorkspace: vi.fn(async () => team),
    getRecentWorkspaces: vi.fn(async () => ({ paths: ['/home/dana/old-project'] })),
    startDemo: vi.fn(async () => snapshot({ workspace: '/tmp/agent-teams-demo-1' })),
    resetRoster: vi.fn(async () => team),
    pickFolder: vi.fn(async () => ({ path: null, supported: false })),
    listFolders: vi.fn(async ({ path }: { path: string }) => folderListing(path)),
    requestShutdown: vi.fn(async () => ({ requestId: 'shutdown-1' })),
    reviewPlan: vi.fn(async ({ approve }: { approve: boolean }) => ({
      summary: approve ? 'Approved plan' : 'Rejected plan',
    })),
    resumeAgent: vi.fn(async () => ({})),
    setBudget: vi.fn(async () => ({})),
    stopAll: vi.fn(async () => ({ count: 1 })),
    resumeAll: vi.fn(async () => ({ count: 1 })),
    closeWorkspace: vi.fn(async () => ({})),
    getInstructions: vi.fn(async () => ({ files: [] })),
    getTeamNote: vi.fn(async () => ({ text: '', updatedAt: null, problem: null })),
    setTeamNote: vi.fn(async ({ text }: { text: string }) => ({
      text,
      updatedAt: 1,
      problem: null,
    })),
    listTemplates: vi.fn(async () => ({ templates: [], problems: [] })),
    saveTemplate: vi.fn(),
    editTemplate: vi.fn(),
    applyTemplate: vi.fn(async () => ({ summary: 'Applied' })),
    deleteTemplate: vi.fn(async () => ({})),
    exportTemplate: vi.fn(),
    importTemplate: vi.fn(),
    searchHistory: vi.fn(async () => ({ groups: [], total: 0 })),
    exportHistory: vi.fn(async ({ agent, format }: { agent?: string; format: string }) => ({
      fileName: `${agent ?? 'team'}.${format}`,
      mimeType: 'text/plain',
      content: 'exported',
    })),
    getWorktrees: vi.fn(
      async () => options.worktrees ?? { available: false, defaultOn: true, teammates: [] },
    ),
    setWorktreeDefault: vi.fn(async () => ({})),
    getReviewDiff: vi.fn(async ({ name }: { name: string }) => {
      const diff = options.diffs?.[name]
      if (diff === undefined) throw rejection('no-worktree', `${name} has no worktree.`)
      return diff
    }),
    mergeTeammate: vi.fn(async () => ({ outcome: 'nothing', into: 'main' })),
    handBackConflict: vi.fn(async () => ({})),
    rejectChanges: vi.fn(async () => ({})),
    commentOnLine: vi.fn(async () => ({})),
    removeTeammate: vi.fn(async ({ name }: { name: string }) => ({
      summary: `Removed ${name} from the team.`,
    })),
    getSandbox: vi.fn(async () => sandbox),
    getReactions: vi.fn(async () => reactions),
    setReactions: vi.fn(async (change: ReactionsChange) => {
      reactions = { ...reactions, config: applyReactionsChange(reactions.config, change) }
      return reactions
    }),
    setAllowedHosts: vi.fn(async ({ hosts }: { hosts: string[] }) => {
      sandbox = { ...sandbox, team: { allowedHosts: hosts, problem: null } }
      return sandbox
    }),
    listTasks: vi.fn(async () => team.tasks ?? { tasks: [], problems: [] }),
    createTask: vi.fn(async ({ subject }: { subject: string }) => taskOf('9', { subject })),
    updateTask: vi.fn(async ({ id }: { id: string }) => taskOf(id)),
    getTrust: vi.fn(async () => team.trust ?? trustView()),
    trustWorkspace: vi.fn(async ({ trust }: { trust: boolean }) => ({
      ...(team.trust ?? trustView()),
      ...(trust ? { trusted: true, reason: 'agreed' as const, changes: [] } : { declined: true }),
    })),
    addMcpServer: vi.fn(async () => team.mcp ?? { servers: [], problems: [] }),
    removeMcpServer: vi.fn(async () => team.mcp ?? { servers: [], problems: [] }),
    setAgentProfile: vi.fn(async ({ name }: { name: string }) => ({
      summary: `${name}: profile changed.`,
    })),
    getProfiles: vi.fn(async () => ({ profiles: [], problem: null })),
    getEngines: vi.fn(async () => ({
      engines: [...(options.engines ?? [engineView('builtin'), engineView('claude-code')])],
    })),
    saveProfile: vi.fn(async () => ({ profiles: [], problem: null })),
    deleteProfile: vi.fn(async () => ({ profiles: [], problem: null })),
    answerNeedsYou: vi.fn(
      async ({ id, decision, text }: { id: string; decision: string; text?: string }) => {
        const entry = (team.needsYou ?? []).find((candidate) => candidate.id === id)
        if (!entry) throw rejection('not-found', `There is no entry ${id}.`)
        const status =
          decision === 'deny' ? 'denied' : decision === 'answer' ? 'answered' : 'approved'
        return { entry: { ...entry, status, answer: text ?? null, settled_at: 2 } }
      },
    ),
    // Undo: no checkpoints until a test gives some (undo.test.tsx).
    listCheckpoints: vi.fn(async () => ({
      checkpoints: [],
      policy: { maxPerAgent: 200, maxAgeDays: 14 },
      bytes: 0,
    })),
    setCheckpointPolicy: vi.fn(async (policy: unknown) => policy),
    planUndo: vi.fn(async () => {
      throw rejection('not-found', 'There is no checkpoint to undo to.')
    }),
    applyUndo: vi.fn(),
    redoUndo: vi.fn(),
    getTimeline: vi.fn(
      async () =>
        options.timeline ?? { entries: [], agents: [], span: null, truncated: false, problems: [] },
    ),
    getAwayDigest: vi.fn(
      async () =>
        options.awayDigest ?? {
          since: 1_700_000_000,
          until: 1_700_000_000,
          finished: [],
          failed: [],
          waiting: [],
          usd: 0,
          tokens: 0,
          counts: {},
        },
    ),
    markTimelineSeen: vi.fn(async () => ({})),
    onEvents: vi.fn((listener: (events: HostEvent[]) => void) => {
      listeners.add(listener)
      return { dispose: () => listeners.delete(listener) }
    }),
    emit(events: HostEvent[]) {
      for (const listener of listeners) listener(events)
    },
    listenerCount: () => listeners.size,
  }
  return api as unknown as FakeApi
}

/** A home folder with `projects/` (holding `alpha` and `alps`) and `notes/`, as listFolders sees it. */
function folderListing(typed: string): FolderListing {
  const tree: Record<string, string[]> = {
    '/home/dana': ['notes', 'projects'],
    '/home/dana/projects': ['alpha', 'alps'],
  }
  const absolute = typed.replace(/^~(?=\/|$)/, '/home/dana') || '/home/dana/'
  const whole = absolute.endsWith('/')
  const folder = whole ? absolute.slice(0, -1) : absolute.slice(0, absolute.lastIndexOf('/'))
  const prefix = whole ? '' : absolute.slice(absolute.lastIndexOf('/') + 1)
  const names = tree[folder]
  return {
    folder,
    prefix,
    parent: folder.slice(0, folder.lastIndexOf('/')) || '/',
    entries: (names ?? [])
      .filter((name) => name.startsWith(prefix))
      .map((name) => ({ name, path: `${folder}/${name}` })),
    truncated: false,
    problem: names ? null : `${folder} does not exist.`,
  }
}

/** A task as the board holds it: pending, unassigned, made by the lead, unless changed. */
export function taskOf(id: string, change: Partial<Task> = {}): Task {
  return {
    v: 1,
    id,
    subject: `Task ${id}`,
    description: '',
    status: 'pending',
    owner: null,
    blocked_by: [],
    created_by: 'lead',
    created_at: 1_700_000_000,
    updated_at: 1_700_000_000,
    links: [],
    result: null,
    notes: [],
    ...change,
  }
}

/** A command rejection as the transports deliver it: `{ name, code, message }`. */
export function rejection(
  code: string,
  message: string,
): { name: string; code: string; message: string } {
  return { name: 'TeamError', code, message }
}
