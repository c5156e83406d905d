import { DEFAULT_ENGINE, engineOf } from '../../shared/engine'
import { TeamError } from '../../shared/errors'
import { LEAD } from '../../shared/names'
import type { TeamAgent } from '../agents/team-agent'
import type { Team } from '../team/team'

/**
 * The team's agents loaded in this process, by name. An agent is loaded at its first use (a
 * message, a spawn, a look at its transcript), so a team of many idle teammates costs nothing
 * until one is needed; a name off the roster is refused.
 */
export class LoadedAgents extends Map<string, TeamAgent> {
  constructor(
    private readonly team: Team,
    private readonly create: (name: string) => TeamAgent,
  ) {
    super()
  }

  /** The agent, loaded if need be. */
  load(name: string): TeamAgent {
    const existing = this.get(name)
    if (existing) return existing
    this.assertOnRoster(name)
    const agent = this.create(name)
    this.set(name, agent)
    return agent
  }

  /**
   * The agent, run by the engine its roster entry names now. One loaded on another engine
   * (before the person re-spawned it onto this one) is closed and made again: an agent is
   * built for one engine. A spawn refuses an agent that works, so the one closed is idle.
   */
  async loadOnItsEngine(name: string): Promise<TeamAgent> {
    const engine = name === LEAD ? DEFAULT_ENGINE : engineOf(this.team.roster.find(name))
    for (;;) {
      const existing = this.get(name)
      if (existing === undefined || existing.engine === engine) return this.load(name)
      this.delete(name)
      await existing.close()
    }
  }

  /** The agent if it is loaded; a command to one that is not is refused. */
  loaded(name: string): TeamAgent {
    const agent = this.get(name)
    if (agent) return agent
    this.assertOnRoster(name)
    throw new TeamError('not-running', `No agent "${name}" is running.`)
  }

  private assertOnRoster(name: string): void {
    if (name !== LEAD && !this.team.roster.find(name))
      throw new TeamError('unknown-agent', `"${name}" is not on the roster.`)
  }

  /** After a start: every agent with something pending (mail, an unanswered turn) goes on. */
  wakeAfterStart(): void {
    this.load(LEAD).wake()
    for (const member of this.team.roster.members) {
      // A shut-down teammate is loaded (its usage and transcript show) but not woken.
      const agent = this.load(member.name)
      if (member.status !== 'shutdown') agent.wake()
    }
  }

  /**
   * After a start in a workspace the person has not trusted: every agent is loaded (its
   * transcript, usage and problems show) and none goes on by itself.
   */
  loadAll(): void {
    this.load(LEAD)
    for (const member of this.team.roster.members) this.load(member.name)
  }

  /** Resolves once no agent is running, and none was woken meanwhile. */
  async settled(): Promise<void> {
    for (;;) {
      const running = [...this.values()].filter((agent) => agent.isRunning)
      if (running.length === 0) return
      await Promise.all(running.map((agent) => agent.settled()))
    }
  }

  /** Agents whose last activation ended in error. */
  errors(): { agent: string; message: string }[] {
    return [...this.values()].flatMap((agent) =>
      agent.lastActivation.kind === 'error'
        ? [{ agent: agent.name, message: agent.lastActivation.message }]
        : [],
    )
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.values()].map((agent) => agent.close()))
    this.clear()
  }
}
