import { randomBytes } from 'node:crypto'
import type { ControlCommand } from '../../shared/control'
import { TeamError } from '../../shared/errors'
import { LEAD, USER } from '../../shared/names'
import type { TeamAgent } from '../agents/team-agent'
import { appDataFolder, workspaceDataFolder } from '../fs/app-folders'
import type { TeamWorktrees } from '../git/team-worktrees'
import type { Team } from '../team/team'
import type { TeamCheckpoints } from '../undo/team-checkpoints'
import { TeamUndo } from '../undo/team-undo'

export interface HostUndoParts {
  readonly team: Team
  readonly worktrees: TeamWorktrees
  readonly checkpoints: TeamCheckpoints
  readonly dataFolder?: string
  /** The agent, loaded if need be (its transcript takes the undo record). */
  readonly agent: (name: string) => TeamAgent
}

/** Statuses in which an agent's folder may change under an undo: refused then. */
const BUSY = new Set(['working', 'waiting', 'stalled', 'waiting-for-you'])

/**
 * Undo in the running team: the transcript mark goes through the agent's own store (the window
 * sees it at once), the notice through the team's mail, and an agent that is working is refused
 * (stop it first): its folder is restored only while nothing of it runs, and its tool calls
 * wait for the undo in its git queue.
 */
export function hostUndo(parts: HostUndoParts): TeamUndo {
  const { team, worktrees } = parts
  return new TeamUndo({
    checkpoints: parts.checkpoints,
    dataFolder: workspaceDataFolder(parts.dataFolder ?? appDataFolder(), team.paths.workspace),
    transcriptEnd: (name) => parts.agent(name).store.length,
    hasUndoRecord: (name, undoId) =>
      parts
        .agent(name)
        .store.all.some((record) => record.kind === 'undo' && record.undo_id === undoId),
    appendUndoRecord: (name, record) => parts.agent(name).recordUndo(record),
    notify: (name, content, undoId) =>
      team.send({ from: USER, to: name, content, extra: { undo: { id: undoId } } }),
    busy: (name) => {
      const status = name === LEAD ? null : (team.roster.find(name)?.status ?? null)
      const running = parts.agent(name).isRunning
      if (!running && (status === null || !BUSY.has(status))) return null
      return `${name} is ${status ?? 'working'} right now; stop it first (agent-teams stop ${name}), then undo: its folder is restored only while nothing of it runs.`
    },
    exclusive: (name, work) => worktrees.enqueue(name, work),
    newId: () => `undo-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`,
  })
}

/** The person's undo from the CLI, run by the team: its outcome written for the CLI to read. */
export async function undoFromControl(
  undo: TeamUndo,
  command: Extract<ControlCommand, { command: 'undo' }>,
): Promise<void> {
  const { name, undoId } = command
  try {
    const result = await undo.apply({
      name,
      target: command.target,
      planId: command.planId,
      overwrite: command.overwrite,
      reason: command.reason,
      by: USER,
      undoId,
      ...(command.redoOf === undefined ? {} : { redoOf: command.redoOf }),
    })
    undo.journals.writeOutcome(name, undoId, { ok: true, result })
  } catch (error) {
    const code = error instanceof TeamError ? error.code : 'internal'
    const message = error instanceof Error ? error.message : String(error)
    undo.journals.writeOutcome(name, undoId, { ok: false, code, message })
  }
}
