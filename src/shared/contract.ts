import { z } from 'zod'
import type { Disposable } from './disposable'
import { mcpServerInputSchema, mcpServerNameSchema, mcpStateSchema } from './mcp'
import { protocolRequestViewSchema, teamEventSchema, type ProtocolRequestView } from './events'
import { memberStatusSchema, statusCauseSchema } from './roster'
import { transcriptRecordSchema, usageSchema } from './transcript'
import { ENTRY_STATES, MESSAGE_TYPES } from './messages'
import { commandNames, type CommandName } from './ipc-channels'
import { desktopEventSchema } from './desktop'
import { modelIdSchema, thinkingBudgetSchema } from './model-choice'
import { budgetSchema, usdLimitSchema } from './budget'
import { modelUsageSchema } from './cost'
import { priceOverridesSchema } from './prices'
import { demoSpeedSchema } from './demo-speed'
import { engineAvailabilitySchema, engineSchema } from './engine'
import { instructionFileViewSchema, TEAM_NOTE_MAX_CHARS, teamNoteViewSchema } from './instructions'
import {
  teamTemplateSchema,
  templateEntrySchema,
  templateNameSchema,
  templateProblemSchema,
} from './templates'
import {
  exportRequestSchema,
  exportResultSchema,
  searchQuerySchema,
  searchResultSchema,
} from './history'
import { reviewCommands } from './review-contract'
import { timelineCommands } from './timeline-contract'
import { undoCommands } from './undo-contract'
import { reactionCommands } from './reactions-contract'
import { scheduleCommands } from './schedules-contract'
import { MAX_ALLOWED_HOSTS, sandboxViewSchema } from './sandbox'
import { taskBoardSchema } from './tasks'
import { taskCommands } from './task-commands'
import { needsYouAnswerSchema, needsYouEntrySchema } from './needs-you'
import { approvalModeSchema, profileNameSchema, profileSchema, profileViewSchema } from './profiles'
import { positionSchema } from './position'
import { trustViewSchema } from './trust'

/**
 * The one contract between the runtime and every UI: each command's parameters and result as
 * zod schemas, and the events. The Electron IPC adapter and the browser-mode WebSocket carry
 * exactly this; the receiving side parses every request, the renderer parses every reply and
 * event. Names are in ./ipc-channels (free of zod, for the preload).
 */
export { commandNames, type CommandName }

export const appInfoSchema = z.object({
  version: z.string().min(1),
  /** The absolute path of the folder whose `.team/` holds the team; null before one is open. */
  workspace: z.string().min(1).nullable(),
  mode: z.enum(['electron', 'browser']),
  /** Whether the open team runs on the built-in offline model (a demo, or chosen in Settings). */
  offline: z.boolean(),
})
export type AppInfo = z.infer<typeof appInfoSchema>

export const folderListingSchema = z.object({
  /** The absolute folder listed. */
  folder: z.string(),
  /** The typed last part the entries start with ('' when a whole folder is listed). */
  prefix: z.string(),
  parent: z.string().nullable(),
  entries: z.array(z.object({ name: z.string(), path: z.string() })),
  /** More matched than are listed. */
  truncated: z.boolean(),
  /** Why the folder could not be listed, in words for the person; null when it could. */
  problem: z.string().nullable(),
})
export type FolderListing = z.infer<typeof folderListingSchema>

export const agentViewSchema = z.object({
  name: z.string(),
  role: z.string(),
  status: memberStatusSchema,
  /** Why it has that status, in words for the person (the error's message, …). */
  statusReason: z.string().nullable(),
  /** Why it has that status, as data: the UI chooses its actions from this, never the words. */
  statusCause: statusCauseSchema.nullable(),
  /** The failure's code while its status is `error` (`auth`: the key was refused); else null. */
  errorCode: z.string().nullable(),
  running: z.boolean(),
  usage: usageSchema,
  /** Its own model (config.json); null: the team's, `TeamSnapshot.defaultModel`. */
  /** The same usage per model: what its cost is priced from (with the settings' prices). */
  usageByModel: modelUsageSchema,
  model: z.string().nullable(),
  /** Its extended-thinking budget in tokens; null: thinking off. */
  thinking: z.number().int().nullable(),
  /** Messages waiting in its inbox. */
  pending: z.number().int().min(0),
  /** Model calls made over its whole life (what a round budget counts). */
  rounds: z.number().int().min(0),
  budget: budgetSchema,
  /** Its permission profile and approval mode (absent from builds before profiles). */
  profile: z.string().optional(),
  approval: approvalModeSchema.optional(),
  /** What runs its turns (absent: builtin, and from builds before engines). */
  engine: engineSchema.optional(),
})
export type AgentView = z.infer<typeof agentViewSchema>

export const settingsViewSchema = z.object({
  apiKeySet: z.boolean(),
  apiKeySource: z.enum(['environment', 'settings', 'none']),
  baseURL: z.string().nullable(),
  model: z.string(),
  useOfflineModel: z.boolean(),
  /** Where a saved key is kept: the OS secret store, or a plain file (say so before saving). */
  secretStorage: z.enum(['os', 'plain-file']),
  secretStorageNote: z.string().nullable(),
  leadWakesOnMessages: z.boolean(),
  /** How fast the offline model streams (slow by default, so a newcomer can watch the demo). */
  demoSpeed: demoSpeedSchema,
  /** The model's context window in tokens, for models the app's table does not know. */
  contextWindow: z.number().int().nullable(),
  /** The person's prices per model id or family prefix; Claude's list prices cover the rest. */
  prices: priceOverridesSchema,
})
export type SettingsView = z.infer<typeof settingsViewSchema>

export const rosterProblemSchema = z.object({
  message: z.string(),
  file: z.string(),
  line: z.number(),
  column: z.number(),
})

export { protocolRequestViewSchema, type ProtocolRequestView }

export const teamSnapshotSchema = z.object({
  workspace: z.string(),
  teamName: z.string(),
  lead: agentViewSchema,
  members: z.array(agentViewSchema),
  /** The model of every agent without one of its own (the settings', or the offline model's). */
  defaultModel: z.string().nullable(),
  rosterProblem: rosterProblemSchema.nullable(),
  /** Shutdown and plan requests, pending and settled (the s10 protocols). */
  requests: z.array(protocolRequestViewSchema),
  teamBudget: budgetSchema,
  /** Whether this team runs on the built-in offline model. */
  offline: z.boolean(),
  /** Set when the endpoint refused the key: one alert for the whole team. */
  alert: z.object({ code: z.string(), message: z.string() }).nullable(),
  /** The task board (absent from hosts that predate it: an empty board). */
  tasks: taskBoardSchema.optional(),
  /** The team's MCP servers; null when no team is open. */
  mcp: mcpStateSchema.nullable(),
  /** Whether the person trusts what the workspace grants; null when no team is open. */
  trust: trustViewSchema.nullable(),
  /** The Needs-you queue: pending entries and the recently settled ones. */
  needsYou: z.array(needsYouEntrySchema).optional(),
})
export type TeamSnapshot = z.infer<typeof teamSnapshotSchema>

export const inboxEntryViewSchema = z.object({
  position: positionSchema,
  state: z.enum(ENTRY_STATES),
  id: z.string().nullable(),
  type: z.enum(MESSAGE_TYPES).nullable(),
  from: z.string().nullable(),
  content: z.string().nullable(),
  timestamp: z.number().nullable(),
  reason: z.string().nullable(),
})
export type InboxEntryView = z.infer<typeof inboxEntryViewSchema>

const empty = z.object({}).strict()
const name = z.string().min(1).max(64)

/** Every command: what it takes and what it answers. */
export const commands = {
  getInfo: { params: empty, result: appInfoSchema },
  getSnapshot: { params: empty, result: teamSnapshotSchema.nullable() },
  chat: { params: z.object({ text: z.string().min(1).max(200_000) }).strict(), result: empty },
  spawn: {
    params: z
      .object({
        name,
        role: z.string().min(1).max(200),
        prompt: z.string().min(1).max(200_000),
        /** Its own model; null or absent: the team's (a re-spawn keeps its model when absent). */
        model: modelIdSchema.nullable().optional(),
        /** Extended thinking with this budget; null: off; absent: as it was (off when new). */
        thinking: thinkingBudgetSchema.nullable().optional(),
        /** Plan first: bash, file writes and MCP tools are refused until its plan is approved. */
        planFirst: z.boolean().optional(),
        /** Its own git worktree; absent: the team's default (on in a git repository). */
        worktree: z.boolean().optional(),
        /** Claims pending tasks from the board by itself when idle; absent: as it was. */
        autoClaim: z.boolean().optional(),
        /** The MCP servers it may use; null: every one; absent: as it was (every one when new). */
        mcpServers: z.array(mcpServerNameSchema).max(100).nullable().optional(),
        /** Its permission profile; absent: implementer (a re-spawn keeps its own). */
        profile: profileNameSchema.optional(),
        /** Its approval mode; absent: its profile's. */
        approval: approvalModeSchema.optional(),
        /** What runs its turns; absent: builtin (a re-spawn keeps its own). */
        engine: engineSchema.optional(),
      })
      .strict(),
    result: z.object({ summary: z.string() }),
  },
  /** Every engine, whether it can run here (and why not), what it needs and costs. */
  getEngines: { params: empty, result: z.object({ engines: z.array(engineAvailabilitySchema) }) },
  /** An agent's profile or approval mode, from its next tool call; null: back to the default. */
  setAgentProfile: {
    params: z
      .object({
        name,
        profile: profileNameSchema.nullable().optional(),
        approval: approvalModeSchema.nullable().optional(),
      })
      .strict(),
    result: z.object({ summary: z.string() }),
  },
  /** Built-in and custom profiles; `problem` says why `.team/profiles.json` cannot be used. */
  getProfiles: {
    params: empty,
    result: z.object({ profiles: z.array(profileViewSchema), problem: z.string().nullable() }),
  },
  /** Adds or replaces a custom profile in `.team/profiles.json`. */
  saveProfile: {
    params: z.object({ profile: profileSchema }).strict(),
    result: z.object({ profiles: z.array(profileViewSchema), problem: z.string().nullable() }),
  },
  deleteProfile: {
    params: z.object({ name: profileNameSchema }).strict(),
    result: z.object({ profiles: z.array(profileViewSchema), problem: z.string().nullable() }),
  },
  /** The person's answer to a Needs-you entry. */
  answerNeedsYou: {
    params: needsYouAnswerSchema,
    result: z.object({ entry: needsYouEntrySchema }),
  },
  stopAgent: { params: z.object({ name }).strict(), result: empty },
  /** An agent's model (null: the team's) and thinking budget (null: off), from its next turn. */
  setAgentModel: {
    params: z
      .object({
        name,
        model: modelIdSchema.nullable(),
        thinking: thinkingBudgetSchema.nullable(),
      })
      .strict(),
    result: z.object({ summary: z.string() }),
  },
  sendMessage: {
    params: z
      .object({
        to: name,
        content: z.string().max(1_000_000),
        type: z.enum(MESSAGE_TYPES).optional(),
      })
      .strict(),
    result: z.object({ id: z.string() }),
  },
  broadcast: {
    params: z.object({ content: z.string().min(1).max(1_000_000) }).strict(),
    result: z.object({ count: z.number().int() }),
  },
  getTranscript: {
    params: z
      .object({
        name,
        fromSeq: z.number().int().min(1).optional(),
        /** The last N records (the newest page), instead of fromSeq and limit. */
        last: z.number().int().min(1).max(20_000).optional(),
        limit: z.number().int().min(1).max(20_000).optional(),
      })
      .strict(),
    result: z.object({ records: z.array(transcriptRecordSchema), total: z.number().int() }),
  },
  getInbox: {
    params: z
      .object({
        name,
        from: positionSchema.optional(),
        limit: z.number().int().min(1).max(5000).optional(),
      })
      .strict(),
    result: z.object({ entries: z.array(inboxEntryViewSchema), next: positionSchema.nullable() }),
  },
  getSettings: { params: empty, result: settingsViewSchema },
  saveSettings: {
    params: z
      .object({
        apiKey: z.string().max(500).nullable().optional(),
        baseURL: z.string().url().max(500).nullable().optional(),
        model: z.string().min(1).max(200).optional(),
        useOfflineModel: z.boolean().optional(),
        leadWakesOnMessages: z.boolean().optional(),
        demoSpeed: demoSpeedSchema.optional(),
        contextWindow: z.number().int().min(1000).max(100_000_000).nullable().optional(),
        /** Replaces every price the person set ({} goes back to the list prices). */
        prices: priceOverridesSchema.optional(),
      })
      .strict(),
    result: settingsViewSchema,
  },
  openWorkspace: {
    params: z.object({ path: z.string().min(1).max(4096) }).strict(),
    result: teamSnapshotSchema,
  },
  getRecentWorkspaces: { params: empty, result: z.object({ paths: z.array(z.string()) }) },
  startDemo: { params: empty, result: teamSnapshotSchema },
  resetRoster: { params: empty, result: teamSnapshotSchema },
  /** The OS folder picker (Electron); null when cancelled or where there is none (browser). */
  pickFolder: {
    params: empty,
    result: z.object({ path: z.string().nullable(), supported: z.boolean() }),
  },
  /** The folder browser of browser mode: a typed path's subfolders (completion), `~` expanded. */
  listFolders: {
    params: z.object({ path: z.string().max(4096) }).strict(),
    result: folderListingSchema,
  },
  /** The s10 shutdown handshake, from the person: the teammate answers with shutdown_response. */
  requestShutdown: {
    params: z.object({ name }).strict(),
    result: z.object({ requestId: z.string() }),
  },
  reviewPlan: {
    params: z
      .object({
        requestId: z.string().min(1).max(200),
        approve: z.boolean(),
        feedback: z.string().max(100_000).optional(),
      })
      .strict(),
    result: z.object({ summary: z.string() }),
  },
  /** Goes on after a stop, a pause, an error or a stall (a stalled stream is retried at once). */
  resumeAgent: { params: z.object({ name }).strict(), result: empty },
  /** An agent's budget, or the team's with name null; nulls lift a limit. Paused agents go on. */
  setBudget: {
    params: budgetSchema
      .extend({
        name: name.nullable(),
        /** Dollars; absent: the dollar limit stays as it is. */
        usd: usdLimitSchema.optional(),
      })
      .strict(),
    result: empty,
  },
  /** Stops every agent that works, waits or stalls (the menu's and the roster's Stop all). */
  stopAll: { params: empty, result: z.object({ count: z.number().int().min(0) }) },
  /** Resumes every agent that waits, stalled or failed (Resume all). */
  resumeAll: { params: empty, result: z.object({ count: z.number().int().min(0) }) },
  /** Closes the open team (File > Close Folder); the window goes back to the first-run screen. */
  closeWorkspace: { params: empty, result: empty },
  /** The instruction files an agent's system prompt includes, with their sizes and cuts. */
  getInstructions: {
    params: z.object({ name }).strict(),
    result: z.object({ files: z.array(instructionFileViewSchema) }),
  },
  getTeamNote: { params: empty, result: teamNoteViewSchema },
  /** Replaces the team note (.team/note.json); '' removes it. Agents have it from their next call. */
  setTeamNote: {
    params: z.object({ text: z.string().max(TEAM_NOTE_MAX_CHARS) }).strict(),
    result: teamNoteViewSchema,
  },
  /** Built-in and saved templates, and the files in the templates folder that cannot be read. */
  listTemplates: {
    params: empty,
    result: z.object({
      templates: z.array(templateEntrySchema),
      problems: z.array(templateProblemSchema),
    }),
  },
  /** Saves the open team as a template (an existing one only with `replace`). */
  saveTemplate: {
    params: z
      .object({
        name: templateNameSchema,
        description: z.string().max(2_000).optional(),
        replace: z.boolean().optional(),
      })
      .strict(),
    result: z.object({ template: teamTemplateSchema }),
  },
  /** Replaces the saved template `previousName` with `template` (which may rename it). */
  editTemplate: {
    params: z.object({ previousName: templateNameSchema, template: teamTemplateSchema }).strict(),
    result: z.object({ template: teamTemplateSchema }),
  },
  /** Spawns a template's members into the open team, which must have none. */
  applyTemplate: {
    params: z.object({ name: templateNameSchema }).strict(),
    result: z.object({ summary: z.string() }),
  },
  deleteTemplate: { params: z.object({ name: templateNameSchema }).strict(), result: empty },
  /** A template as the one JSON file export writes, and a name for the file. */
  exportTemplate: {
    params: z.object({ name: templateNameSchema }).strict(),
    result: z.object({ fileName: z.string(), json: z.string() }),
  },
  /** Keeps an exported template; an invalid file is refused with what is wrong. */
  importTemplate: {
    params: z.object({ json: z.string().max(1_500_000), replace: z.boolean().optional() }).strict(),
    result: z.object({ template: teamTemplateSchema }),
  },
  /** Finds text in every transcript and inbox of the open team (Ctrl+Shift+F), by agent. */
  searchHistory: { params: searchQuerySchema, result: searchResultSchema },
  /** An agent's transcript (`agent`) or the whole team's history, as Markdown or JSONL. */
  exportHistory: { params: exportRequestSchema, result: exportResultSchema },
  ...reviewCommands,
  /** bash's OS sandbox: whether it is in force here, and the open team's allowed hosts. */
  getSandbox: { params: empty, result: sandboxViewSchema },
  /** Replaces the open team's allowed hosts (`.team/sandbox.json`); a bad host is refused. */
  setAllowedHosts: {
    params: z.object({ hosts: z.array(z.string().max(300)).max(MAX_ALLOWED_HOSTS) }).strict(),
    result: sandboxViewSchema,
  },
  ...taskCommands,
  /** Whether the person trusts the open workspace, and everything it grants its agents. */
  getTrust: { params: empty, result: trustViewSchema },
  /**
   * The person's answer to the trust question: yes agrees to what the workspace grants now
   * (remembered); no keeps it all off for this session.
   */
  trustWorkspace: { params: z.object({ trust: z.boolean() }).strict(), result: trustViewSchema },
  /** Adds an MCP server to `.team/mcp.json`; it starts when the workspace is trusted. */
  addMcpServer: {
    params: z.object({ name: mcpServerNameSchema, server: mcpServerInputSchema }).strict(),
    result: mcpStateSchema,
  },
  removeMcpServer: {
    params: z.object({ name: mcpServerNameSchema }).strict(),
    result: mcpStateSchema,
  },
  ...timelineCommands,
  ...undoCommands,
  ...reactionCommands,
  ...scheduleCommands,
} satisfies Record<CommandName, { params: z.ZodType; result: z.ZodType }>

export type Params<N extends CommandName> = z.input<(typeof commands)[N]['params']>
export type Result<N extends CommandName> = z.infer<(typeof commands)[N]['result']>

/** Events the UI receives: the runtime's, plus the app's own. */
export const hostEventSchema = z.union([
  teamEventSchema,
  z.object({ type: z.literal('workspace-opened'), snapshot: teamSnapshotSchema }),
  z.object({ type: z.literal('settings-changed'), settings: settingsViewSchema }),
  z.object({ type: z.literal('workspace-closed') }),
  desktopEventSchema,
])
export type HostEvent = z.infer<typeof hostEventSchema>

/** How a failed command reaches the UI: the error taxonomy's shape. */
export const commandErrorSchema = z.object({
  name: z.string(),
  code: z.string(),
  message: z.string(),
})
export type CommandError = z.infer<typeof commandErrorSchema>

/**
 * The API every UI talks to, whatever carries it (window.agentTeams in Electron, a WebSocket
 * client in browser mode): one named function per command, and one event subscription.
 */
export type AgentTeamsApi = {
  readonly [N in CommandName]: (params: Params<N>) => Promise<Result<N>>
} & {
  /**
   * Events arrive in batches (at most one a frame), as they crossed the process boundary: not
   * parsed yet. The store parses each one (`hostEventSchema`) before it folds them.
   */
  onEvents(listener: (events: readonly unknown[]) => void): Disposable
}

/** Every command of the contract, each sent through `execute`: a transport, or a host in process. */
export function commandsOver(
  execute: (name: CommandName, params: unknown) => Promise<unknown>,
): Omit<AgentTeamsApi, 'onEvents'> {
  const api: Partial<Record<CommandName, (params: unknown) => Promise<unknown>>> = {}
  for (const name of commandNames) api[name] = (params) => execute(name, params)
  return api as unknown as Omit<AgentTeamsApi, 'onEvents'>
}
