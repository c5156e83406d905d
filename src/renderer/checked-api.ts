import { z } from 'zod'
import { commandNames, commands, type AgentTeamsApi, type CommandName } from '../shared/contract'

type Command = (params: unknown) => Promise<unknown>

/** A reply that does not match the contract: reported like any failed command. */
export class ContractViolation extends Error {
  override readonly name = 'ContractViolation'
  readonly code = 'contract-violation'
}

/**
 * Every reply crossed a process boundary (IPC or a WebSocket): check it against the contract's
 * schema before anything trusts it. Events are parsed where they are folded (the store).
 */
export function checkReplies(api: AgentTeamsApi): AgentTeamsApi {
  const checked: Partial<Record<CommandName, Command>> = {}
  for (const name of commandNames) {
    const command = api[name] as Command
    checked[name] = async (params) => {
      const reply = await command(params)
      const parsed = commands[name].result.safeParse(reply)
      if (parsed.success) return parsed.data
      throw new ContractViolation(
        `The reply to ${name} does not match the contract: ${z.prettifyError(parsed.error)}`,
      )
    }
  }
  return {
    ...(checked as unknown as Omit<AgentTeamsApi, 'onEvents'>),
    onEvents: (listener) => api.onEvents(listener),
  }
}
