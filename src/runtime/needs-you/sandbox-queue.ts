import type { BlockedAction } from '../../shared/sandbox'
import type { TeamPaths } from '../team/paths'
import { readTeamSandbox, writeTeamSandbox } from '../sandbox/team-hosts'
import type { BashSandboxHooks } from '../tools/bash-tool'
import type { TrustGate } from '../trust/workspace-trust'
import type { NeedsYou } from './queue'

/**
 * bash's sandbox, connected to the Needs-you queue. A command on a machine without a sandbox
 * waits for the person's approval. What the sandbox blocked becomes an entry the person answers:
 * approving a blocked connection adds its host to the team's allow-list; either answer goes back
 * to the agent as a message, so nothing the sandbox stopped passes in silence.
 */
export function sandboxQueueHooks(
  needsYou: NeedsYou,
  paths: TeamPaths,
  tell: (agent: string, content: string) => void,
  /** The person's answer adds a host: a trusted workspace stays trusted. */
  trust: TrustGate,
): BashSandboxHooks {
  return {
    approveUnsandboxed: async ({ agent, command, reason }, signal) => {
      const decision = await needsYou.requestApproval(
        {
          agent,
          kind: 'tool',
          tool: 'bash',
          summary: `bash without a sandbox: ${firstLine(command)}`,
          detail: `${command}\n\n(No OS sandbox here: ${reason}. Approved, it runs with your rights.)`,
        },
        signal,
      )
      if (decision.kind === 'approved') return { approved: true }
      return {
        approved: false,
        reason:
          decision.kind === 'denied'
            ? `The person denied this command: ${decision.reason}`
            : `Not run: ${decision.kind === 'cancelled' ? decision.reason : 'no approval'}`,
      }
    },
    onBlocked: (agent, actions) => {
      for (const action of actions) void askAbout(agent, action)
    },
  }

  async function askAbout(agent: string, action: BlockedAction): Promise<void> {
    const network = action.kind === 'blocked-network'
    // Exactly what was blocked: the host with its port, the least the person can allow.
    const host = network ? `${action.host}${action.port === null ? '' : `:${action.port}`}` : ''
    const what = network ? `a connection to ${host}` : `a write to ${action.path}`
    const decision = await needsYou.requestApproval({
      agent,
      kind: 'tool',
      tool: 'bash',
      summary: `The sandbox blocked ${what}`,
      detail: `${action.command}\n\n${
        network
          ? `Approve to add ${host} to this team's allowed hosts; ${agent} is told to run the command again.`
          : `Writes outside ${agent}'s folder and into .team/ are not allowed. Approve to tell ${agent} you saw it and it may go on another way; deny to say why not.`
      }`,
    })
    if (decision.kind === 'approved') {
      if (network) {
        const current = readTeamSandbox(paths)
        // A damaged sandbox.json is the person's to fix (Settings says why): never overwritten.
        if (current.problem !== null) {
          tell(agent, `${host} could not be allowed: ${current.problem}`)
          return
        }
        if (!current.allowedHosts.includes(host))
          trust.keep(() => writeTeamSandbox(paths, [...current.allowedHosts, host]))
        tell(
          agent,
          trust.isTrusted()
            ? `The person allowed ${host}: run the command again.`
            : `The person added ${host} to the team's allowed hosts, but no host applies until the person trusts this workspace.`,
        )
      } else {
        tell(agent, `The person saw that ${what} was blocked; go on without it.`)
      }
    } else if (decision.kind === 'denied') {
      tell(agent, `The person did not allow ${what}: ${decision.reason}`)
    }
  }
}

function firstLine(command: string): string {
  const line = command.split('\n')[0] ?? ''
  return line.length > 80 ? `${line.slice(0, 79)}…` : line
}
