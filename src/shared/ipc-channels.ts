/**
 * The command names of the contract, kept free of zod so that the sandboxed preload can build
 * its named functions without bundling a schema library. Each command has its own IPC channel,
 * `command:<name>`; events come on `events`.
 */
/** The worktree and review commands (src/shared/review-contract.ts). */
export const REVIEW_COMMAND_NAMES = [
  'getWorktrees',
  'setWorktreeDefault',
  'getReviewDiff',
  'mergeTeammate',
  'handBackConflict',
  'rejectChanges',
  'commentOnLine',
  'removeTeammate',
] as const

/** The timeline's commands (src/shared/timeline-contract.ts). */
export const TIMELINE_COMMAND_NAMES = ['getTimeline', 'getAwayDigest', 'markTimelineSeen'] as const

/** Undo's commands (src/shared/undo-contract.ts). */
export const UNDO_COMMAND_NAMES = [
  'listCheckpoints',
  'setCheckpointPolicy',
  'planUndo',
  'applyUndo',
  'redoUndo',
] as const

/** The reactions' commands (src/shared/reactions-contract.ts). */
export const REACTION_COMMAND_NAMES = ['getReactions', 'setReactions'] as const
/** The schedules' commands (src/shared/schedules-contract.ts). */
export const SCHEDULE_COMMAND_NAMES = [
  'listSchedules',
  'addSchedule',
  'removeSchedule',
  'runScheduleNow',
  'setScheduleEnabled',
] as const

export const commandNames = [
  'getInfo',
  'getSnapshot',
  'chat',
  'spawn',
  'getEngines',
  'stopAgent',
  'setAgentModel',
  'sendMessage',
  'broadcast',
  'getTranscript',
  'getInbox',
  'getSettings',
  'saveSettings',
  'openWorkspace',
  'getRecentWorkspaces',
  'startDemo',
  'resetRoster',
  'pickFolder',
  'listFolders',
  'requestShutdown',
  'reviewPlan',
  'resumeAgent',
  'setBudget',
  'stopAll',
  'resumeAll',
  'closeWorkspace',
  'getInstructions',
  'getTeamNote',
  'setTeamNote',
  'listTemplates',
  'saveTemplate',
  'editTemplate',
  'applyTemplate',
  'deleteTemplate',
  'exportTemplate',
  'importTemplate',
  'searchHistory',
  'exportHistory',
  ...REVIEW_COMMAND_NAMES,
  'getSandbox',
  'setAllowedHosts',
  'listTasks',
  'createTask',
  'updateTask',
  'getTrust',
  'trustWorkspace',
  'addMcpServer',
  'removeMcpServer',
  'setAgentProfile',
  'getProfiles',
  'saveProfile',
  'deleteProfile',
  'answerNeedsYou',
  ...TIMELINE_COMMAND_NAMES,
  ...UNDO_COMMAND_NAMES,
  ...REACTION_COMMAND_NAMES,
  ...SCHEDULE_COMMAND_NAMES,
] as const

export type CommandName = (typeof commandNames)[number]

export function commandChannel(name: CommandName): string {
  return `command:${name}`
}

export const EVENTS_CHANNEL = 'events'
