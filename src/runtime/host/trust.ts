import type { TrustView } from '../../shared/trust'
import type { HostOptions } from './options'
import type { LoadedAgents } from './loaded-agents'
import type { McpServers } from '../mcp/servers'
import type { Team } from '../team/team'
import { WorkspaceTrust } from '../trust/workspace-trust'

/** How often the grants outside `.team/` (`.mcp.json`, the servers' scripts) are looked at. */
const CHECK_EVERY_MS = 2000

/**
 * What follows the workspace's trust in a host: its MCP servers, and the agents that waited
 * for it. A team opened trusted goes on with its pending work; one opened untrusted is loaded
 * but not woken; when the trust begins to hold later, it goes on then, as at a trusted open.
 */
export class HostTrust {
  readonly trust: WorkspaceTrust
  private trustedBefore = false
  private parts: { readonly mcp: McpServers; readonly agents: LoadedAgents } | null = null

  constructor(
    team: Team,
    options: HostOptions,
    /** Told after every change of the trust (the schedules fire only while it holds). */
    private readonly onChange: () => void = () => undefined,
  ) {
    this.trust = new WorkspaceTrust(team.paths, options.trust, {
      env: options.mcp?.env ?? process.env,
      publish: (view) => team.publish({ type: 'trust-changed', trust: view }),
      changed: () => this.changed(),
      checkEveryMs: options.watch === false ? null : CHECK_EVERY_MS,
    })
  }

  /** Decides the trust as the team opens (`madeHere`: its `.team/` is new) and starts servers. */
  open(
    madeHere: boolean,
    parts: { readonly mcp: McpServers; readonly agents: LoadedAgents },
  ): void {
    this.parts = parts
    this.trust.open(madeHere)
    this.trustedBefore = this.trust.isTrusted()
    parts.mcp.open()
  }

  /** After the rest of the team opened: a team that came with the workspace waits for the person. */
  goOn(): void {
    if (this.parts === null) return
    if (this.trustedBefore) this.parts.agents.wakeAfterStart()
    else this.parts.agents.loadAll()
  }

  /** The person's answer to the trust question: yes agrees now (remembered), no keeps it off. */
  answer(trust: boolean): TrustView {
    if (!trust) return this.trust.decline()
    const view = this.trust.trust()
    this.changed()
    return view
  }

  close(): void {
    this.parts = null
    this.trust.close()
  }

  private changed(): void {
    if (this.parts === null) return
    const trusted = this.trust.isTrusted()
    const wasTrusted = this.trustedBefore
    this.trustedBefore = trusted
    void this.parts.mcp.trustChanged()
    if (trusted && !wasTrusted) this.parts.agents.wakeAfterStart()
    this.onChange()
  }
}
