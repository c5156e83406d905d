import { assertNever } from '../../shared/errors'
import type { TranscriptRecord } from '../../shared/transcript'
import { emptyLive, type LiveState, type LiveTool, type TeamData } from './state'
import { own } from '../../shared/own'

/** Finished tool calls kept per agent for the activity panes; the transcript keeps them all. */
export const KEPT_TOOLS = 6

function updateLive(
  state: TeamData,
  agent: string,
  change: (live: LiveState) => LiveState,
): TeamData {
  const live = own(state.live, agent) ?? emptyLive
  return { ...state, live: { ...state.live, [agent]: change(live) } }
}

function updateTool(
  tools: readonly LiveTool[],
  id: string,
  change: (tool: LiveTool) => LiveTool,
): readonly LiveTool[] {
  return tools.map((tool) => (tool.id === id ? change(tool) : tool))
}

/** Keeps every unfinished call and the most recent finished ones. */
function trimTools(tools: readonly LiveTool[]): readonly LiveTool[] {
  if (tools.length <= KEPT_TOOLS) return tools
  const excess = tools.length - KEPT_TOOLS
  let dropped = 0
  return tools.filter((tool) => {
    if (dropped < excess && tool.phase === 'finished') {
      dropped++
      return false
    }
    return true
  })
}

export function appendText(state: TeamData, agent: string, text: string): TeamData {
  return updateLive(state, agent, (live) => ({ ...live, text: live.text + text }))
}

export function startTool(state: TeamData, agent: string, id: string, name: string): TeamData {
  return updateLive(state, agent, (live) => ({
    ...live,
    tools: trimTools([
      ...live.tools.filter((tool) => tool.id !== id),
      { id, name, input: '', phase: 'input', output: null, isError: false },
    ]),
  }))
}

export function streamToolInput(
  state: TeamData,
  agent: string,
  id: string,
  partial: string,
): TeamData {
  return updateLive(state, agent, (live) => ({
    ...live,
    tools: updateTool(live.tools, id, (tool) => ({ ...tool, input: tool.input + partial })),
  }))
}

export function finishTool(
  state: TeamData,
  agent: string,
  id: string,
  name: string,
  content: string,
  isError: boolean,
): TeamData {
  return updateLive(state, agent, (live) => {
    const known = live.tools.some((tool) => tool.id === id)
    const finished = (tool: LiveTool): LiveTool => ({
      ...tool,
      phase: 'finished',
      output: content,
      isError,
    })
    const tools = known
      ? updateTool(live.tools, id, finished)
      : [...live.tools, finished({ id, name, input: '', phase: 'finished', output: null, isError })]
    return { ...live, tools: trimTools(tools) }
  })
}

/** The agent stopped working: what streamed but was never recorded is no longer live. */
export function settleLive(state: TeamData, agent: string): TeamData {
  const live = own(state.live, agent)
  if (live === undefined) return state
  return updateLive(state, agent, () => ({
    text: '',
    lastText: live.text.length > 0 ? live.text : live.lastText,
    tools: live.tools.filter((tool) => tool.phase !== 'input'),
  }))
}

/** The partial turn was thrown away (a stream error, a retry): what streamed is void. */
export function discardStream(state: TeamData, agent: string): TeamData {
  const live = own(state.live, agent)
  if (live === undefined) return state
  return updateLive(state, agent, () => ({
    ...live,
    text: '',
    tools: live.tools.filter((tool) => tool.phase !== 'input'),
  }))
}

/** A record landed: add it to the loaded transcript and retire the stream parts it replaces. */
export function appendTranscriptRecord(
  state: TeamData,
  agent: string,
  record: TranscriptRecord,
): TeamData {
  const transcript = own(state.transcripts, agent)
  const withRecord =
    transcript === undefined
      ? state
      : {
          ...state,
          transcripts: {
            ...state.transcripts,
            [agent]: {
              ...transcript,
              records: isAfter(transcript.records, record)
                ? [...transcript.records, record]
                : transcript.records,
              total: Math.max(transcript.total, record.seq),
            },
          },
        }
  return retireLiveParts(withRecord, agent, record)
}

function isAfter(records: readonly TranscriptRecord[], record: TranscriptRecord): boolean {
  const last = records[records.length - 1]
  return last === undefined || record.seq > last.seq
}

function retireLiveParts(state: TeamData, agent: string, record: TranscriptRecord): TeamData {
  switch (record.kind) {
    case 'assistant':
      return updateLive(state, agent, (live) => recordAssistantTurn(live, record))
    case 'tool-result':
      return updateLive(state, agent, (live) => ({
        ...live,
        tools: updateTool(live.tools, record.tool_use_id, (tool) => ({
          ...tool,
          phase: 'finished',
          output: record.content,
          isError: record.is_error,
        })),
      }))
    case 'user':
    case 'inbox':
    case 'status':
    case 'compaction':
    case 'undo':
      return state
    default:
      return assertNever(record, 'transcript record')
  }
}

function recordAssistantTurn(
  live: LiveState,
  record: Extract<TranscriptRecord, { kind: 'assistant' }>,
): LiveState {
  const text = record.content
    .flatMap((block) =>
      block.type === 'text' && typeof block['text'] === 'string' ? [block['text']] : [],
    )
    .join('\n\n')
  const calls = record.content.flatMap((block) =>
    block.type === 'tool_use' && typeof block['id'] === 'string'
      ? [{ id: block['id'], name: String(block['name'] ?? 'tool'), input: block['input'] }]
      : [],
  )
  const recorded = (id: string) => calls.some((call) => call.id === id)
  // Calls whose input was streaming now run; a streamed call the turn does not hold is gone.
  const tools: LiveTool[] = live.tools.flatMap((tool) => {
    if (tool.phase !== 'input') return [tool]
    return recorded(tool.id) ? [{ ...tool, phase: 'running' as const }] : []
  })
  for (const call of calls) {
    if (tools.some((tool) => tool.id === call.id)) continue
    tools.push({
      id: call.id,
      name: call.name,
      input: JSON.stringify(call.input ?? {}),
      phase: 'running',
      output: null,
      isError: false,
    })
  }
  return { text: '', lastText: text.length > 0 ? text : live.lastText, tools: trimTools(tools) }
}
