import type { Member } from '../../shared/roster'

/**
 * Whether an agent may use an MCP server: every server by default, or only those its roster
 * entry names in `mcp_servers` (chosen at spawn). The lead (no roster entry) gets every one.
 * Permission profiles extend this one decision.
 */
export function mayUseServer(member: Member | undefined, server: string): boolean {
  const chosen = member?.mcp_servers
  return chosen === undefined || chosen === null || chosen.includes(server)
}
