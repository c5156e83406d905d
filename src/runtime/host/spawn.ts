import { engineOf, type EngineAvailability } from '../../shared/engine'
import type { ModelChoice } from '../../shared/model-choice'
import { assertModelChoice } from '../../shared/model-choice'
import { assertSpawnableName, LEAD } from '../../shared/names'
import type { TeamWorktrees } from '../git/team-worktrees'
import type { McpServers } from '../mcp/servers'
import type { AgentPermission } from '../permissions/agent-permissions'
import { assertProfileChange } from '../permissions/profile-choice'
import type { ProfileStore } from '../permissions/profile-store'
import type { Protocols } from '../protocols/service'
import type { Team } from '../team/team'
import { assertEngineAvailable } from './engine-check'
import {
  assertSpawnable,
  enrollSpawn,
  keptNote,
  spawnAsAllowed,
  spawnSummary,
  spawnTask,
  type SpawnRequest,
} from './spawn-request'

/** What a spawn needs of the host. */
export interface SpawnParts {
  readonly team: Team
  readonly protocols: Protocols
  readonly profiles: ProfileStore
  readonly worktrees: TeamWorktrees
  readonly mcp: McpServers
  /** Seconds since the epoch, for the roster's record. */
  readonly now: () => number
  /** Throws `team-closed` once the host closed. */
  readonly assertOpen: () => void
  /** Loads the agent (on the engine its roster entry names) and gives it its first turn. */
  readonly firstTurn: (name: string, from: string, text: string) => Promise<void>
  readonly modelChoice: (name: string) => ModelChoice
  readonly permission: (name: string) => AgentPermission
  /** Whether each engine can run here (`engines/availability.ts`, or a test's). */
  readonly engines: () => readonly EngineAvailability[]
}

/**
 * Spawns a teammate, or spawns an idle one again: every rule checked before anything is made
 * (an engine that cannot run here among them), its worktree made (or kept), the roster
 * written, its first turn given. Only the person (`by: USER`) changes the rights and the
 * engine of a member already on the roster; anyone else's re-spawn keeps them and says so.
 */
export async function spawnMember(parts: SpawnParts, asked: SpawnRequest): Promise<string> {
  const { team } = parts
  parts.assertOpen()
  assertSpawnableName(asked.name)
  const before = team.roster.find(asked.name)
  const { allowed: request, refused } = spawnAsAllowed(asked, before !== undefined)
  assertModelChoice(request)
  parts.mcp.assertKnown(request.mcpServers)
  assertProfileChange(parts.profiles, request)
  // The engine it will run: the one asked for, else a re-spawn's own.
  assertEngineAvailable(request.engine ?? engineOf(before), parts.engines())
  // Refused before anything is made (a worktree among them).
  assertSpawnable(team, request.name)
  const place = await parts.worktrees.atSpawn(request.name, request.worktree)
  // Making the worktree took time: the roster may have changed meanwhile.
  parts.assertOpen()
  assertSpawnable(team, request.name)
  enrollSpawn(
    { team, protocols: parts.protocols, profiles: parts.profiles },
    request,
    parts.now(),
    place.record,
  )
  parts.worktrees.turnStarted(request.name)
  const member = team.roster.find(request.name)
  await parts.firstTurn(
    request.name,
    request.by ?? LEAD,
    spawnTask(request, member?.plan_first === true),
  )
  return [
    spawnSummary(request, parts.modelChoice(request.name), engineOf(member)),
    place.note,
    keptNote(request.name, refused, {
      permission: parts.permission(request.name),
      servers: member?.mcp_servers,
      engine: engineOf(member),
    }),
  ]
    .filter((note) => note !== '')
    .join('; ')
}
