import { TeamError } from '../../shared/errors'
import { agentErrorEvent, type TeamEvent } from '../../shared/events'
import type { ModelChoiceChange } from '../../shared/model-choice'
import type { NeedsYouAnswer } from '../../shared/needs-you'
import type { ProfileChoiceChange } from '../permissions/profile-choice'
import { USER } from '../../shared/names'
import type { Budget } from '../agents/guards'
import type { BranchAction } from '../../shared/worktree'
import type { SpawnRequest } from './spawn-request'
import type { ControlCommand } from '../team/team'

/** The host's commands that `.team/control.jsonl` may run. */
export interface ControlTarget {
  setBudget(name: string | null, budget: Budget): void
  budgetOf(name: string | null): Budget
  stop(name: string): void
  resume(name: string): void
  requestShutdown(name: string, by?: string, id?: string): string
  reviewPlan(requestId: string, approve: boolean, feedback?: string): string
  spawn(request: SpawnRequest): Promise<string>
  setModel(name: string, change: ModelChoiceChange): string
  removeTeammate(name: string, branch?: BranchAction): Promise<string>
  setProfile(name: string, change: ProfileChoiceChange): string
  answerNeedsYou(answer: NeedsYouAnswer): unknown
  /** The person's undo from the CLI; its outcome is written beside its journal. */
  undoFromControl(command: Extract<ControlCommand, { command: 'undo' }>): Promise<void>
  runScheduleNow(name: string): unknown
}

/**
 * `.team/control.jsonl`: stop and resume from another process (`agent-teams stop`). A command
 * the host refuses is published as an agent error, never thrown into the watcher.
 */
export function runControlCommand(
  host: ControlTarget,
  command: ControlCommand,
  publish: (event: TeamEvent) => void,
): void {
  try {
    if (command.command === 'budget')
      host.setBudget(command.name, {
        tokens: command.tokens,
        rounds: command.rounds,
        usd: command.usd === undefined ? host.budgetOf(command.name).usd : command.usd,
      })
    else if (command.command === 'stop') host.stop(command.name)
    else if (command.command === 'shutdown')
      host.requestShutdown(command.name, USER, command.request_id)
    else if (command.command === 'plan')
      host.reviewPlan(command.request_id, command.approve, command.feedback)
    else if (command.command === 'spawn')
      host.spawn({ ...command, by: USER }).catch((error: unknown) => {
        if (!(error instanceof TeamError)) throw error
        publish(controlError(command.name, error))
      })
    else if (command.command === 'model') host.setModel(command.name, command)
    else if (command.command === 'remove')
      host.removeTeammate(command.name, command.branch).catch((error: unknown) => {
        if (!(error instanceof TeamError)) throw error
        publish(controlError(command.name, error))
      })
    else if (command.command === 'profile') host.setProfile(command.name, command)
    else if (command.command === 'answer') host.answerNeedsYou(command)
    else if (command.command === 'undo') void host.undoFromControl(command)
    else if (command.command === 'run-schedule') host.runScheduleNow(command.schedule)
    else host.resume(command.name)
  } catch (error) {
    // A command naming an agent that is not running: nothing to do, but say so in the UI.
    if (!(error instanceof TeamError)) throw error
    publish(controlError(('name' in command ? command.name : null) ?? 'team', error))
  }
}

function controlError(agent: string, error: TeamError): TeamEvent {
  return agentErrorEvent(agent, error.code, `control: ${error.message}`)
}
