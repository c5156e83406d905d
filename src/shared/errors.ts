/**
 * The typed error taxonomy. Errors the model or the person can act on are returned as data
 * (tool results, CLI messages, UI banners); these classes are thrown only across module
 * boundaries inside the runtime and always cross IPC as `{ name, code, message }`.
 */
export const errorCodes = [
  /** A name that breaks the name rule. */
  'invalid-name',
  /** A name the app keeps for itself (the lead, the person, a built-in template or profile). */
  'reserved-name',
  /** A message to no inbox: the name is not on the roster, or is the person. */
  'unknown-recipient',
  /** An agent named that is not on the roster (not as a message's recipient). */
  'unknown-agent',
  'invalid-message-type',
  'invalid-message',
  'message-too-large',
  /** Another consumer holds the inbox. */
  'inbox-busy',
  /** Another process holds the task board past the wait. */
  'board-busy',
  /** Another process holds `.team/schedules.json`'s lock past the wait. */
  'schedules-busy',
  'workspace-busy',
  'roster-invalid',
  /** A reset of a roster that is valid: there is nothing to reset. */
  'roster-valid',
  'roster-conflict',
  'member-working',
  /** The teammate is shut down (ask it again by spawning it). */
  'member-shut-down',
  /** The agent waits for the person's answer in the Needs-you queue. */
  'awaiting-answer',
  /** The agent, or the team the command needs, is not running. */
  'not-running',
  /** The team was closed (its window closed, the app quits) before or while the call ran. */
  'team-closed',
  /** No workspace is open. */
  'no-workspace',
  /** No API key is set, and the offline model is off. */
  'no-api-key',
  'unmerged-work',
  'unsafe-repository',
  /** The workspace is not a git repository with a commit. */
  'not-a-repository',
  /** The teammate has no worktree of this app's (it works in the shared workspace). */
  'no-worktree',
  /** The teammate's worktree is still being made. */
  'worktree-not-ready',
  /** The folder to merge into has uncommitted changes or a merge in progress. */
  'merge-blocked',
  /** What the call names does not exist (an entry, request, task, profile, template, file…). */
  'not-found',
  /** It exists already (a request id, a template, a server, a file not to overwrite). */
  'already-exists',
  /** It was settled already (a queue entry answered, a request approved or rejected). */
  'already-settled',
  /** The caller may not do this (another's task, a plan only the lead reviews, a built-in). */
  'not-permitted',
  /** The task's status does not allow the change (completing a task not in progress). */
  'invalid-transition',
  /** A task claim refused: taken, blocked, not pending or missing. */
  'claim-refused',
  /** A count the app caps was reached (custom profiles). */
  'limit-reached',
  /** A team with no members to save as a template. */
  'empty-team',
  /** A template applied to a team that already has members. */
  'team-not-empty',
  /** A file tools refuse to read or write (outside the workspace, .git, .team, a link…). */
  'path-refused',
  /** A file or text over the size the app handles. */
  'too-large',
  /** A file that is not text (it holds NUL bytes). */
  'not-text',
  /** A file of the app's own that cannot be used as it is (damaged, not JSON, not a file). */
  'file-invalid',
  /** A running team did not record what was asked within the wait. */
  'timed-out',
  /** A destructive step that needs the person's explicit yes (`--yes`). */
  'needs-confirmation',
  /** An engine that cannot run here (Claude Code's SDK not installed); the message says why. */
  'engine-unavailable',
  /** Something that runs only inside the OS sandbox, on a machine that has none. */
  'sandbox-unavailable',
  /** Browser mode's UI was not built. */
  'ui-not-built',
  /** A batch committed after its cursor moved (a consumer's misuse). */
  'stale-batch',
  /** The inbox consumer was closed. */
  'consumer-closed',
  /** An undo whose plan no longer matches the folder, branch or transcript (make it again). */
  'plan-outdated',
  /** An undo refused: the agent's commits are held elsewhere (the message says the way out). */
  'undo-refused',
  /** A request's parameters or a value given do not match what it takes. */
  'invalid-argument',
  /** The operating system refused or failed an operation (a file, a process, git). */
  'io',
] as const

export type ErrorCode = (typeof errorCodes)[number]

export class TeamError extends Error {
  override readonly name = 'TeamError'
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message)
  }
}

export interface SerializedError {
  readonly name: string
  readonly code: ErrorCode | 'internal'
  readonly message: string
}

export function serializeError(error: unknown): SerializedError {
  if (error instanceof TeamError)
    return { name: error.name, code: error.code, message: error.message }
  if (error instanceof Error) return { name: error.name, code: 'internal', message: error.message }
  return { name: 'Error', code: 'internal', message: String(error) }
}

export function assertNever(value: never, what = 'value'): never {
  throw new Error(`Unexpected ${what}: ${JSON.stringify(value)}`)
}
