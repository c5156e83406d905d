import { addModelUsage, type ModelUsage } from '../../../shared/cost'
import type { TranscriptRecord } from '../../../shared/transcript'

/** What one turn (a message from the person, or a task) made the agent spend. */
export interface TurnSpend {
  /** Model calls made for it. */
  readonly calls: number
  readonly usage: ModelUsage
}

/**
 * Each turn's spend, by the key of its row (`u<seq>`): the model calls after a user record, up
 * to the one that ends the turn (a reply without tool calls), or to the next user record. Calls
 * the agent made later for its inbox are not this turn's. Only turns whose user record is
 * loaded are counted; their calls follow it, so the loaded tail holds them.
 */
export function turnSpends(
  records: readonly TranscriptRecord[],
): Readonly<Record<string, TurnSpend>> {
  const spends: Record<string, TurnSpend> = {}
  let open: string | null = null
  for (const record of records) {
    if (record.kind === 'user') {
      open = `u${record.seq}`
      spends[open] = { calls: 0, usage: [] }
      continue
    }
    if (record.kind !== 'assistant' || open === null) continue
    const spend = spends[open] ?? { calls: 0, usage: [] }
    spends[open] = {
      calls: spend.calls + 1,
      usage: addModelUsage(spend.usage, record.model, record.usage),
    }
    if (!record.content.some((block) => block.type === 'tool_use')) open = null
  }
  return spends
}
