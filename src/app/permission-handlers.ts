import { sandboxView } from '../runtime/sandbox/team-hosts'
import { profilesView } from '../runtime/host/views'
import type { HandlersFor, TeamHandlerContext } from './handler-context'

type PermissionCommand =
  | 'setAgentProfile'
  | 'getProfiles'
  | 'saveProfile'
  | 'deleteProfile'
  | 'answerNeedsYou'
  | 'getSandbox'
  | 'setAllowedHosts'
  | 'getTrust'
  | 'trustWorkspace'
  | 'addMcpServer'
  | 'removeMcpServer'

/**
 * What keeps a team safe to leave running: permission profiles, the person's answers in the
 * Needs-you queue, bash's sandbox (the hosts it may reach), the workspace's MCP servers and the
 * person's trust in what the workspace grants. The person's own changes here keep a trusted
 * workspace trusted.
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
    getSandbox: async () => sandboxView(context.openHost() ?? null),
    setAllowedHosts: async ({ hosts }) => {
      host().setAllowedHosts(hosts)
      return sandboxView(host())
    },
    getTrust: async () => host().trust.view(),
    trustWorkspace: async ({ trust }) => host().answerTrust(trust),
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
