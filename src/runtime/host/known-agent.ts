import { TeamError } from '../../shared/errors'
import { LEAD, assertValidName } from '../../shared/names'

/**
 * The one check for a name that names an existing agent, whatever transport it came by (IPC,
 * the browser's WebSocket, control.jsonl, the CLI): the name rule first (so `../x` or `LEAD`
 * never reach a path or config.json), then the roster. `lead` always exists; `user` (the
 * person) is not an agent.
 */
export function assertKnownAgent(
  name: string,
  roster: { find(name: string): unknown },
  workspace?: string,
): void {
  assertValidName(name, 'agent name')
  if (name === LEAD || roster.find(name) !== undefined) return
  throw new TeamError(
    'unknown-agent',
    `"${name}" is not on the roster${workspace ? ` of ${workspace}` : ''}; "agent-teams roster" lists the team.`,
  )
}
