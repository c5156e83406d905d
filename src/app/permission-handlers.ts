import { sandboxView, writeTeamSandbox } from '../main/runtime/team-sandbox'
import { profilesView } from '../main/runtime/views'
import type { HandlersFor, TeamHandlerContext } from './handler-context'

type PermissionCommand =
  | 'setAgentProfile'
  | 'getProfiles'
  | 'saveProfile'
  | 'deleteProfile'
  | 'answerNeedsYou'
  | 'getSandbox'
  | 'setAllowedHosts'
  | 'trustMcpServers'
  | 'addMcpServer'
  | 'removeMcpServer'

/**
 * What keeps a team safe to leave running: permission profiles, the person's answers in the
 * Needs-you queue, bash's sandbox (the hosts it may reach) and trust in the workspace's MCP
 * servers.
 */
export function permissionHandlers(
  context: Pick<TeamHandlerContext, 'host' | 'knownAgent'> & {
    /** The open team's host, or null when no folder is open (the sandbox view has a default). */
    readonly openHost: () => ReturnType<TeamHandlerContext['host']> | null
  },
): HandlersFor<PermissionCommand> {
  const { host, knownAgent } = context
  return {
    setAgentProfile: async ({ name, profile, approval }) => ({
      summary: host().setProfile(knownAgent(name), {
        ...(profile === undefined ? {} : { profile }),
        ...(approval === undefined ? {} : { approval }),
      }),
    }),
    getProfiles: async () => profilesView(host()),
    saveProfile: async ({ profile }) => {
      host().profiles.save(profile)
      return profilesView(host())
    },
    deleteProfile: async ({ name }) => {
      host().profiles.remove(name)
      return profilesView(host())
    },
    answerNeedsYou: async (answer) => ({ entry: host().answerNeedsYou(answer) }),
    getSandbox: async () => sandboxView(context.openHost()?.team.paths ?? null),
    setAllowedHosts: async ({ hosts }) => {
      const paths = host().team.paths
      writeTeamSandbox(paths, hosts)
      return sandboxView(paths)
    },
    trustMcpServers: async ({ trust }) => {
      const mcp = host().mcp
      if (trust) mcp.trustServers(true)
      else mcp.declineServers()
      return mcp.state()
    },
    addMcpServer: async ({ name, server }) => {
      const mcp = host().mcp
      await mcp.add(name, server)
      return mcp.state()
    },
    removeMcpServer: async ({ name }) => {
      const mcp = host().mcp
      await mcp.remove(name)
      return mcp.state()
    },
  }
}
