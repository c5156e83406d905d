import { z } from 'zod'

/**
 * MCP servers as the UI and the CLI see them. Nothing here carries a secret: environment
 * values and headers stay in the runtime, and a server is shown by its command or address.
 */

/**
 * A server's name: letters, digits, `-` and `_`, 1–32, with no `__` (tools are named
 * `mcp__<server>__<tool>`, so a `__` inside would make the split ambiguous).
 */
export const MCP_SERVER_NAME_RULE =
  'letters, digits, "-" and "_", 1-32 characters, starting with a letter or digit, no "__"'

export function isValidServerName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/.test(name) && !name.includes('__')
}

export const mcpServerNameSchema = z
  .string()
  .refine(isValidServerName, { message: `must be a server name (${MCP_SERVER_NAME_RULE})` })

/** Where a server was configured: the workspace's `.mcp.json`, or `.team/mcp.json` (added here). */
export const MCP_SOURCES = ['workspace', 'team'] as const

/**
 * off: not started (the workspace is not trusted, or the team is closing); starting: connecting; running: its
 * tools are offered; restarting: it stopped and comes back after a pause; failed: it stopped
 * too often or could not start, see `detail`; invalid: its configuration is wrong, see `detail`.
 */
export const MCP_STATUSES = [
  'off',
  'starting',
  'running',
  'restarting',
  'failed',
  'invalid',
] as const
export type McpStatus = (typeof MCP_STATUSES)[number]

export const mcpServerViewSchema = z.object({
  name: z.string(),
  source: z.enum(MCP_SOURCES),
  transport: z.enum(['stdio', 'http']).nullable(),
  /** The command and its arguments, or the address without its query: never env or headers. */
  target: z.string(),
  status: z.enum(MCP_STATUSES),
  /** Why it is off, failed or invalid; null when there is nothing to say. */
  detail: z.string().nullable(),
  /** The tools it offers, by their own names. */
  tools: z.array(z.string()),
  /** The last lines it wrote to stderr (stdio servers). */
  stderrTail: z.array(z.string()),
  restarts: z.number().int().min(0),
})
export type McpServerView = z.infer<typeof mcpServerViewSchema>

/** The servers' states; whether they may start at all is the workspace's trust (`trust.ts`). */
export const mcpStateSchema = z.object({
  servers: z.array(mcpServerViewSchema),
  /** A configuration file that cannot be read at all (not JSON, not an object), with the fix. */
  problems: z.array(z.string()),
})
export type McpState = z.infer<typeof mcpStateSchema>

/** A server the person adds in the window or the CLI; kept in `.team/mcp.json`. */
export const mcpServerInputSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('stdio'),
      command: z.string().min(1).max(4096),
      args: z.array(z.string().max(4096)).max(200).default([]),
      env: z.record(z.string().min(1).max(200), z.string().max(10_000)).default({}),
    })
    .strict(),
  z
    .object({
      type: z.literal('http'),
      url: z.string().min(1).max(4096),
      headers: z.record(z.string().min(1).max(200), z.string().max(10_000)).default({}),
    })
    .strict(),
])
export type McpServerInput = z.input<typeof mcpServerInputSchema>

/** The tool name an agent's model sees for `tool` of `server`. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`
}
