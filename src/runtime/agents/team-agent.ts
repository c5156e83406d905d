import type { ModelUsage } from '../../shared/cost'
import type { EngineName } from '../../shared/engine'
import type { NewTranscriptRecord, Usage } from '../../shared/transcript'
import type { ActivationEnd } from './agent-types'
import type { TranscriptStore } from './transcript-store'

/**
 * An agent as the host sees it, whatever engine runs its turns (`shared/engine.ts`): the
 * built-in loop (`agents/agent.ts`) or a Claude Code session (`engines/claude-code/`). The
 * mailbox, roster, board, budgets and UI speak to this and nothing else, so a third engine is
 * one more implementation and no change to them.
 */
export interface TeamAgent {
  readonly name: string
  readonly engine: EngineName
  /** Its transcript, in this app's record format: the UI, search and export read it. */
  readonly store: TranscriptStore
  readonly isRunning: boolean
  readonly usage: Usage
  readonly usageByModel: ModelUsage
  /** Model calls made, over the agent's whole life. */
  readonly roundsUsed: number
  readonly lastActivation: ActivationEnd
  /** Records a turn from the person (the lead's chat) or a task (a spawn prompt), then wakes. */
  addUserTurn(from: string, text: string): void
  /** Records an undo of its work (the turns it names are shown undone); it is not woken. */
  recordUndo(record: Extract<NewTranscriptRecord, { kind: 'undo' }>): void
  /** Something may have been appended to its inbox (it is not woken by this). */
  noteMail(): void
  /** Starts an activation, or asks the running one to look again when it ends. */
  wake(): void
  /** Goes on after a pause, an error or a stop. */
  resume(): void
  /** The shutdown protocol approved: finish the current step, then end as `shutdown`. */
  shutdownAfterThisStep(reason: string): void
  /** Stops its model call and tools; the activation ends as `stopped`. */
  stop(): void
  settled(): Promise<void>
  close(): Promise<void>
}
