import type { TranscriptRecord } from '../../shared/transcript'
import { own } from '../../shared/own'
import { emptyLive, type LiveState, type LiveTool, type TeamData } from './state'

/**
 * What an activity pane shows for an agent that has not streamed since the window opened: its
 * last reply and its last tool calls, read from the end of its transcript. Without this a
 * reload left every pane at "no tool call yet" until the agent worked again.
 */
export function liveFromRecords(
  records: readonly TranscriptRecord[],
  running: boolean,
): Pick<LiveState, 'lastText' | 'tools'> {
  const results: Record<string, Extract<TranscriptRecord, { kind: 'tool-result' }>> = {}
  let lastText = ''
  let calls: { id: string; name: string; input: unknown }[] = []
  for (const record of records) {
    if (record.kind === 'tool-result') results[record.tool_use_id] = record
    if (record.kind !== 'assistant') continue
    const text = record.content
      .flatMap((block) =>
        block.type === 'text' && typeof block['text'] === 'string' ? [block['text']] : [],
      )
      .join('\n\n')
    if (text.trim().length > 0) lastText = text
    const made = record.content.flatMap((block) =>
      block.type === 'tool_use' && typeof block['id'] === 'string'
        ? [{ id: block['id'], name: String(block['name'] ?? 'tool'), input: block['input'] }]
        : [],
    )
    if (made.length > 0) calls = made
  }
  const tools = calls.map((call): LiveTool => {
    const result = own(results, call.id)
    return {
      id: call.id,
      name: call.name,
      input: JSON.stringify(call.input ?? {}),
      // A call without a result runs still, or was cut off when the agent last stopped.
      phase: result === undefined && running ? 'running' : 'finished',
      output: result?.content ?? null,
      isError: result?.is_error ?? false,
    }
  })
  return { lastText, tools }
}

/** Fills in what the agent's live state lacks from its transcript's last records; keeps the rest. */
export function liveSeeded(
  state: TeamData,
  name: string,
  records: readonly TranscriptRecord[],
): TeamData {
  const live = own(state.live, name) ?? emptyLive
  const seed = liveFromRecords(records, own(state.agents, name)?.running ?? false)
  const lastText = live.lastText.length > 0 ? live.lastText : seed.lastText
  const tools = live.tools.length > 0 ? live.tools : seed.tools
  if (lastText === live.lastText && tools === live.tools) return state
  return { ...state, live: { ...state.live, [name]: { ...live, lastText, tools } } }
}
