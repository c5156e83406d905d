import { MIN_THINKING_BUDGET } from '../../shared/model-choice'
import type { TranscriptRecord } from '../../shared/transcript'
import { inModelOrder, isInterrupted } from './conversation'

/**
 * The thinking budget the next call may use, given the agent's setting. The API wants one
 * thinking setting per assistant turn, and a tool-use loop is one turn: while the last model
 * turn holds a tool call, the loop goes on as that turn began — with thinking when it opened
 * with a thinking block (the API then requires it), without otherwise — and a setting changed
 * meanwhile applies from the next turn.
 */
export function thinkingForTurn(
  records: readonly TranscriptRecord[],
  wanted: number | undefined,
): number | undefined {
  const last = lastSentTurn(inModelOrder(records))
  if (last?.kind !== 'assistant') return wanted
  if (!last.content.some((block) => block.type === 'tool_use')) return wanted
  const first = last.content[0]?.type
  if (first !== 'thinking' && first !== 'redacted_thinking') return undefined
  // Turned off mid-loop: the loop still needs thinking on; the smallest budget finishes it.
  return wanted ?? MIN_THINKING_BUDGET
}

/**
 * The last model turn the next request holds: a stopped turn with nothing after it on the
 * user's side is not sent (`toConversation`), so the turn before it decides.
 */
function lastSentTurn(records: readonly TranscriptRecord[]): TranscriptRecord | undefined {
  let answered = false
  for (let index = records.length - 1; index >= 0; index--) {
    const record = records[index]
    if (record === undefined) continue
    if (record.kind === 'user' || record.kind === 'inbox' || record.kind === 'tool-result')
      answered = true
    if (record.kind !== 'assistant') continue
    if (!isInterrupted(record) || answered) return record
  }
  return undefined
}
