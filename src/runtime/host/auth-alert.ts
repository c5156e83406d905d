import type { TeamEvent } from '../../shared/events'
import type { TeamAgent } from '../agents/team-agent'

const AUTH_ALERT = 'auth'

/** The endpoint refused the API key: one team alert, and agents paused until a new endpoint. */
export class AuthAlert {
  private problem: string | null = null

  constructor(private readonly publish: (event: TeamEvent) => void) {}

  /** One alert for the whole team, however many agents hit the refused key. */
  report(message: string): void {
    if (this.problem !== null) return
    this.problem = message
    this.publish({ type: 'team-alert', code: AUTH_ALERT, message })
  }

  /** Why no agent may call the model now, or null. */
  pauseReason(): string | null {
    return this.problem === null
      ? null
      : `the endpoint refused the API key; fix it in Settings (${this.problem})`
  }

  /** A new endpoint: clears the alert and lets the agents the refused key ended go on. */
  clear(agents: Iterable<TeamAgent>): void {
    if (this.problem === null) return
    this.problem = null
    this.publish({ type: 'team-alert-cleared', code: AUTH_ALERT })
    for (const agent of agents) {
      const end = agent.lastActivation
      if (
        (end.kind === 'error' && end.code === 'auth') ||
        (end.kind === 'paused' && end.cause === 'auth')
      )
        agent.resume()
    }
  }
}
