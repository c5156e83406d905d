/**
 * The words of a compaction: the summarizer's instructions, the older conversation as it is
 * shown to the summarizer, and the identity block the agent sees before the summary (the
 * tutorial's s11 re-injection: who it is, its task, what still waits on it).
 */
import { undoWords } from '../../shared/undo'
import type { TranscriptRecord, ToolUseBlock } from '../../shared/transcript'
import type { CompactionRecord } from './conversation'

/** The system prompt of a summarizing call; tests recognize such calls by it. */
export const SUMMARY_SYSTEM_PROMPT = [
  'You summarize the earlier part of an AI agent’s working conversation so that the agent can',
  'go on without it. The agent will see your summary in place of those turns, followed by its',
  'most recent turns verbatim. Write in the second person ("you"). Keep every fact the agent may',
  'still need: its task and any change to it, decisions made and why, names, numbers, ids,',
  'file paths, commands and their outcomes, what was sent to whom and what is still awaited,',
  'errors met and how they were handled, and what remains to do. Leave out chatter and tool',
  'output that no longer matters. Answer with the summary only, in plain text.',
].join(' ')

/** Who the agent is, from the host: the parts of its identity the transcript does not hold. */
export interface AgentIdentity {
  readonly name: string
  readonly role: string
  readonly team: string
}

const TASK_CHARACTERS = 4000
const MESSAGE_CHARACTERS = 1000
const UNANSWERED_SHOWN = 10
/** Each entry of the older conversation shown to the summarizer is cut to this. */
const ENTRY_CHARACTERS = 2000

function clip(text: string, limit: number): string {
  return text.length <= limit
    ? text
    : `${text.slice(0, limit)}… [${text.length - limit} more characters]`
}

/**
 * The identity block: name, role, team, who gave the current task and the task itself (the
 * latest turn from the person or a spawn prompt), open protocol requests, and mail received in
 * the summarized range that the agent has not answered since.
 */
export function identityBlock(
  identity: AgentIdentity,
  records: readonly TranscriptRecord[],
  throughSeq: number,
  openRequests: readonly string[],
): string {
  const lines = [
    '<identity>',
    `You are '${identity.name}', role: ${identity.role}, in the team "${identity.team}".`,
    'Your conversation was compacted: its older part is summarized below, and your most recent turns follow verbatim.',
  ]
  const task = records.findLast((record) => record.kind === 'user')
  if (task)
    lines.push(
      `Your current task, given by ${task.from}:`,
      '<task>',
      clip(task.text, TASK_CHARACTERS),
      '</task>',
    )
  if (openRequests.length > 0)
    lines.push('Open protocol requests:', ...openRequests.map((request) => `- ${request}`))
  const unanswered = unansweredMessages(records, throughSeq)
  if (unanswered.length > 0)
    lines.push(
      'Messages you received and have not answered yet:',
      ...unanswered.map((line) => `- ${line}`),
    )
  lines.push('</identity>')
  return lines.join('\n')
}

/** Mail taken in the summarized range whose sender got no send_message from the agent since. */
function unansweredMessages(records: readonly TranscriptRecord[], throughSeq: number): string[] {
  const waiting = new Map<string, string[]>()
  for (const record of records) {
    if (record.kind === 'inbox' && record.seq <= throughSeq) {
      for (const message of record.messages) {
        const list = waiting.get(message.from) ?? []
        list.push(
          `from ${message.from} (${message.type}): ${clip(message.content, MESSAGE_CHARACTERS)}`,
        )
        waiting.set(message.from, list)
      }
    } else if (record.kind === 'assistant') {
      for (const block of record.content) {
        if (block.type !== 'tool_use') continue
        const call = block as ToolUseBlock
        if (call.name === 'broadcast') waiting.clear()
        const to = (call.input as { to?: unknown } | null)?.to
        if (call.name === 'send_message' && typeof to === 'string') waiting.delete(to)
      }
    }
  }
  return [...waiting.values()].flat().slice(-UNANSWERED_SHOWN)
}

/** One record as a line of the older conversation shown to the summarizer. */
function entries(record: TranscriptRecord): string[] {
  switch (record.kind) {
    case 'user':
      return [`[task from ${record.from}] ${record.text}`]
    case 'inbox':
      return record.messages.map(
        (message) => `[mail from ${message.from} (${message.type})] ${message.content}`,
      )
    case 'assistant':
      return record.content.flatMap((block) => {
        if (block.type === 'text') return [`[you] ${String(block.text)}`]
        if (block.type === 'tool_use')
          return [`[you called ${String(block.name)}] ${JSON.stringify(block.input)}`]
        return []
      })
    case 'tool-result':
      return [`[${record.is_error ? 'error from' : 'result of'} ${record.name}] ${record.content}`]
    case 'status':
      return [`[status ${record.status}] ${record.reason}`]
    case 'compaction':
      return []
    case 'undo':
      return [`[undo ${record.undo_id}] ${undoWords(record)}`]
  }
}

/**
 * The older conversation as the summarizer reads it, within `budgetCharacters`: the earlier
 * summary first (a later compaction summarizes it again), then the newest entries that fit;
 * long entries are clipped and what does not fit is named as left out.
 */
export function summaryInput(
  previous: CompactionRecord | undefined,
  records: readonly TranscriptRecord[],
  budgetCharacters: number,
): string {
  const head = previous ? [`[earlier summary] ${previous.summary}`] : []
  const all = records.flatMap(entries).map((entry) => clip(entry, ENTRY_CHARACTERS))
  let room = budgetCharacters - head.reduce((sum, entry) => sum + entry.length + 1, 0)
  const kept: string[] = []
  for (let index = all.length - 1; index >= 0; index--) {
    const entry = all[index] ?? ''
    if (entry.length + 1 > room) break
    kept.unshift(entry)
    room -= entry.length + 1
  }
  const omitted = all.length - kept.length
  const note = omitted > 0 ? [`[${omitted} earlier entries left out for length]`] : []
  return [
    '<conversation>',
    ...head,
    ...note,
    ...kept,
    '</conversation>',
    '',
    'Write the summary now.',
  ].join('\n')
}
