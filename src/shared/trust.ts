import { z } from 'zod'
import { MCP_SOURCES } from './mcp'
import { approvalModeSchema, PROFILE_TOOLS } from './profiles'
import { APPROVAL_RULE_TOOLS } from './needs-you'
import { sandboxStatusSchema } from './sandbox'

/**
 * A workspace's *grants*: everything in it that widens what its agents may do, as the person is
 * asked to agree to it. Until the person trusts the workspace none of it applies; the trust
 * record keeps a fingerprint of the grants agreed to, and grants that no longer match ask again.
 *
 * Every item carries a `key` (`mcp:<name>`, `file:<path>`, `host:<host>`,
 * `rule:<agent>:<tool>:<pattern>`, `profile:<name>`, `check:command`, `schedule:<name>`), by which
 * a change
 * names it.
 */

/** A value as the configuration writes it and as it runs (`${VAR}` replaced). */
export const shownValueSchema = z.object({
  written: z.string(),
  expanded: z.string(),
  /**
   * It names a secret-looking variable (`${ANTHROPIC_API_KEY}`, `*_TOKEN`, `*_KEY`, `*SECRET*`,
   * `*PASSWORD*`), holds a key-like literal, or is given under a secret-looking name.
   */
  secret: z.boolean(),
})
export type ShownValue = z.infer<typeof shownValueSchema>

export const namedValueSchema = shownValueSchema.extend({ name: z.string() })
export type NamedValue = z.infer<typeof namedValueSchema>

const grantKey = z.string().min(1)

/** An MCP server exactly as it would run. */
export const mcpServerGrantSchema = z.discriminatedUnion('transport', [
  z.object({
    key: grantKey,
    name: z.string(),
    source: z.enum(MCP_SOURCES),
    transport: z.literal('stdio'),
    command: shownValueSchema,
    args: z.array(shownValueSchema),
    env: z.array(namedValueSchema),
    /** The folder it starts in: the workspace. */
    cwd: z.string(),
  }),
  z.object({
    key: grantKey,
    name: z.string(),
    source: z.enum(MCP_SOURCES),
    transport: z.literal('http'),
    /** With its query: a key in it is as much a grant as one in a header. */
    url: shownValueSchema,
    headers: z.array(namedValueSchema),
  }),
])
export type McpServerGrant = z.infer<typeof mcpServerGrantSchema>

/** A file inside the workspace that a stdio server's command, arguments or env name. */
export const scriptFileGrantSchema = z.object({
  key: grantKey,
  /** Relative to the workspace, as the server names it. */
  path: z.string(),
  /** Where it leads when it is a link (null: it is the file itself). */
  target: z.string().nullable(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().min(0),
  /** The servers that name it. */
  servers: z.array(z.string()),
})
export type ScriptFileGrant = z.infer<typeof scriptFileGrantSchema>

export const hostGrantSchema = z.object({ key: grantKey, host: z.string() })
export type HostGrant = z.infer<typeof hostGrantSchema>

/** An "approve always" rule: `agent`'s calls of `tool` matching `pattern` run without asking. */
export const ruleGrantSchema = z.object({
  key: grantKey,
  agent: z.string(),
  tool: z.enum(APPROVAL_RULE_TOOLS),
  pattern: z.string(),
})
export type RuleGrant = z.infer<typeof ruleGrantSchema>

export const profileGrantSchema = z.object({
  key: grantKey,
  name: z.string(),
  description: z.string(),
  tools: z.array(z.enum(PROFILE_TOOLS)),
  approval: approvalModeSchema,
  /** Whether its agents get the MCP servers' tools. */
  mcp: z.boolean(),
})
export type ProfileGrant = z.infer<typeof profileGrantSchema>

/** `.team/reactions.json`'s check command: run by the app after each teammate's commit. */
export const checkGrantSchema = z.object({
  key: grantKey,
  command: z.string(),
  timeout_seconds: z.number(),
})
export type CheckGrant = z.infer<typeof checkGrantSchema>
/**
 * A scheduled run (`.team/schedules.json`): a prompt sent to the lead, with the person's key,
 * at the times it gives. A cloned repository's schedules fire only once the person trusts them.
 */
export const scheduleGrantSchema = z.object({
  key: grantKey,
  name: z.string(),
  /** When, in words: "every 1h", "cron 0 9 * * 1-5", "once at 2026-12-24 09:00:00Z". */
  when: z.string(),
  prompt: z.string(),
  template: z.string().nullable(),
  /** Its cap, in words: "$5.00", "$5.00 or 200,000 tokens". */
  cap: z.string(),
  enabled: z.boolean(),
})
export type ScheduleGrant = z.infer<typeof scheduleGrantSchema>

export const workspaceGrantsSchema = z.object({
  mcpServers: z.array(mcpServerGrantSchema),
  files: z.array(scriptFileGrantSchema),
  /** `.team/sandbox.json`: hosts bash (and stdio servers) may reach. */
  allowedHosts: z.array(hostGrantSchema),
  /** `.team/needs-you.json`'s rules. */
  approveAlways: z.array(ruleGrantSchema),
  /** `.team/profiles.json`. */
  profiles: z.array(profileGrantSchema),
  /** `.team/reactions.json`'s check command (absent from views made before reactions). */
  checks: z.array(checkGrantSchema).optional(),
  /** `.team/schedules.json` (added later: absent in views made before it, and empty). */
  schedules: z.array(scheduleGrantSchema).optional(),
})
export type WorkspaceGrants = z.infer<typeof workspaceGrantsSchema>

export const GRANT_CHANGES = ['new', 'changed', 'removed'] as const
export const grantChangeSchema = z.object({
  key: grantKey,
  change: z.enum(GRANT_CHANGES),
  /** What it is, in words ("MCP server notes", "allowed host 127.0.0.1"). */
  label: z.string(),
})
export type GrantChange = z.infer<typeof grantChangeSchema>

/**
 * Why the workspace is trusted or not:
 * - made-here: the app made its `.team/` (nothing else was agreed to);
 * - agreed: the person agreed to exactly these grants (in the window, on a terminal, or through
 *   their own changes in the app);
 * - for-this-run: `--trust-workspace` agreed to what was there when the team opened;
 * - no-record: its `.team/` was not made here and the person never agreed (a cloned repository,
 *   or a team from before this version of Agent Teams);
 * - not-reviewed: the app made its `.team/`, but the folder grants more the person has not seen
 *   (its own `.mcp.json`, or files added since);
 * - changed: the grants differ from those agreed to (`changes` says how).
 */
export const TRUST_REASONS = [
  'made-here',
  'agreed',
  'for-this-run',
  'no-record',
  'not-reviewed',
  'changed',
] as const
export type TrustReason = (typeof TRUST_REASONS)[number]

export const trustViewSchema = z.object({
  workspace: z.string(),
  trusted: z.boolean(),
  reason: z.enum(TRUST_REASONS),
  /** The person said "not now" in this session: the window does not ask again until asked. */
  declined: z.boolean(),
  grants: workspaceGrantsSchema,
  /** Against what was agreed: new, changed and removed items. */
  changes: z.array(grantChangeSchema),
  /** Whether stdio servers run inside the OS sandbox here; when not, they run with your rights. */
  sandbox: sandboxStatusSchema,
  /** Grant files that could not be read: nothing in them applies, trusted or not. */
  problems: z.array(z.string()),
})
export type TrustView = z.infer<typeof trustViewSchema>

/** The sentence a gate gives when the workspace is not trusted (a profile's, a host's). */
export const UNTRUSTED_NOTE =
  'this workspace is not trusted yet (agree in the window, or run "agent-teams trust --yes")'
