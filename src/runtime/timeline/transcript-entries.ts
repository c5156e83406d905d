import { costOf } from '../../shared/cost'
import { priceFor, type Price, type PriceOverrides } from '../../shared/prices'
import type { TimelineEntry } from '../../shared/timeline'
import type { TranscriptRecord, Usage } from '../../shared/transcript'
import { entry, entryId, isTimelineTime, oneLineSummary, tokenCount } from './entry-parts'
import { isQuiet } from './transcript-tail'

/** Where and when a message reached its recipient's conversation. */
export interface Delivery {
  readonly seq: number
  readonly at: number
}

export interface TranscriptEntries {
  readonly entries: TimelineEntry[]
  /** The messages this transcript took in, by id: their delivery to this agent. */
  readonly deliveries: Map<string, Delivery>
  readonly problems: string[]
}

type AssistantRecord = Extract<TranscriptRecord, { kind: 'assistant' }>
type ToolUse = { id: string; name: string; input: unknown }

/**
 * One agent's transcript records (oldest first) as timeline entries: each model turn with its
 * tokens and cost, each tool call with its result, each activation's start (the record that
 * woke it) and end (its status record, or a model turn that called no tool: idle), budget
 * pauses and compactions; and the messages it took in. `whole`: the records start at the
 * file's start (else the first one is where the agent was quiet, see transcript-tail.ts).
 */
export function transcriptEntries(
  agent: string,
  records: readonly TranscriptRecord[],
  prices: PriceOverrides,
): TranscriptEntries {
  const entries: TimelineEntry[] = []
  const deliveries = new Map<string, Delivery>()
  const problems: string[] = []
  /** Tool calls waiting for their results, by the call's id. */
  const calls = new Map<string, TimelineEntry>()
  let active = false
  /** A turn that called no tool: the activation ended idle, unless a status record follows. */
  let idleAfter: AssistantRecord | null = null
  let previousAt: number | null = null
  const source = (seq: number) => ({ type: 'transcript' as const, agent, seq })

  for (const record of records) {
    if (!isTimelineTime(record.at)) {
      problems.push(`record ${record.seq}: its time ${String(record.at)} is out of range (skipped)`)
      continue
    }
    if (idleAfter !== null && record.kind !== 'status') {
      entries.push(idleEnd(agent, idleAfter))
      idleAfter = null
    }
    switch (record.kind) {
      case 'user':
      case 'inbox':
        if (record.kind === 'inbox')
          for (const message of record.messages)
            deliveries.set(message.id, { seq: record.seq, at: record.at })
        if (!active) entries.push(wake(agent, record))
        active = true
        break
      case 'assistant': {
        const started = previousAt !== null && previousAt <= record.at ? previousAt : record.at
        entries.push(turnEntry(agent, record, started, prices))
        record.content.forEach((block, index) => {
          if (block.type !== 'tool_use') return
          const use = block as ToolUse
          const call = entry(
            {
              id: entryId('tool', agent, record.seq, index),
              at: record.at,
              kind: 'tool',
              agent,
              summary: `${use.name}: ${inputSummary(use.input)}`,
              source: source(record.seq),
            },
            { tool: use.name },
          )
          calls.set(use.id, call)
          entries.push(call)
        })
        active = !isQuiet(record)
        if (!active) idleAfter = record
        break
      }
      case 'tool-result': {
        for (const id of record.inbox_ids ?? [])
          deliveries.set(id, { seq: record.seq, at: record.at })
        const call = calls.get(record.tool_use_id)
        if (call !== undefined) {
          calls.delete(record.tool_use_id)
          call.end = record.at
          call.failed = record.is_error
          call.summary = oneLineSummary(
            `${call.summary}${record.is_error ? ` (failed: ${oneLineSummary(record.content, 120)})` : ''}`,
            500,
          )
        }
        break
      }
      case 'status':
        entries.push(statusEntry(agent, record))
        idleAfter = null
        active = false
        break
      case 'compaction':
        entries.push(
          entry(
            {
              id: entryId('compaction', agent, record.seq),
              at: record.at,
              kind: 'compaction',
              agent,
              summary: `compacted ${record.tokens_before} → ${record.tokens_after} tokens (${record.trigger})`,
              source: source(record.seq),
            },
            priced(record.model, record.usage, prices),
          ),
        )
        break
    }
    previousAt = record.at
  }
  // The last turn called no tool and nothing followed: the agent is idle (a status record may
  // still come within the moment its activation takes to settle; then it replaces this).
  if (idleAfter !== null) entries.push(idleEnd(agent, idleAfter))
  return { entries, deliveries, problems }
}

function wake(agent: string, record: Extract<TranscriptRecord, { kind: 'user' | 'inbox' }>) {
  const why =
    record.kind === 'user'
      ? `${record.from === 'user' ? 'the person' : record.from}: ${record.text}`
      : `mail from ${[...new Set(record.messages.map((message) => message.from))].join(', ')}`
  return entry(
    {
      id: entryId('wake', agent, record.seq),
      at: record.at,
      kind: 'status',
      agent,
      summary: `${agent} woke (${oneLineSummary(why, 160)})`,
      source: { type: 'transcript', agent, seq: record.seq },
    },
    { status: 'working' },
  )
}

function idleEnd(agent: string, record: AssistantRecord): TimelineEntry {
  return entry(
    {
      id: entryId('idle', agent, record.seq),
      at: record.at,
      kind: 'status',
      agent,
      summary: `${agent} finished its work (idle)`,
      source: { type: 'transcript', agent, seq: record.seq },
    },
    { status: 'idle' },
  )
}

function statusEntry(agent: string, record: Extract<TranscriptRecord, { kind: 'status' }>) {
  const budget = record.cause === 'budget'
  return entry(
    {
      id: entryId(budget ? 'budget' : 'status', agent, record.seq),
      at: record.at,
      kind: budget ? 'budget' : 'status',
      agent,
      summary: `${agent} ${record.status}: ${record.reason}`,
      source: { type: 'transcript', agent, seq: record.seq },
    },
    {
      status: record.status,
      failed: record.status === 'error',
      ...(record.cause === undefined ? {} : { cause: record.cause }),
    },
  )
}

function turnEntry(
  agent: string,
  record: AssistantRecord,
  started: number,
  prices: PriceOverrides,
): TimelineEntry {
  const text = record.content.find((block) => block.type === 'text') as
    { text?: unknown } | undefined
  const tools = record.content
    .filter((block) => block.type === 'tool_use')
    .map((block) => String((block as ToolUse).name))
  const said = typeof text?.text === 'string' ? oneLineSummary(text.text, 200) : ''
  const called = tools.length > 0 ? `calls ${tools.join(', ')}` : ''
  return entry(
    {
      id: entryId('turn', agent, record.seq),
      at: started,
      kind: 'turn',
      agent,
      summary:
        [said, called].filter((part) => part !== '').join(' · ') ||
        `(${record.stop_reason ?? 'no answer'})`,
      source: { type: 'transcript', agent, seq: record.seq },
    },
    { end: record.at, ...priced(record.model, record.usage, prices) },
  )
}

/** Each model's price, per prices object: looked up once a read, not once a turn. */
const pricesSeen = new WeakMap<PriceOverrides, Map<string, Price | null>>()

function priceOf(model: string, prices: PriceOverrides): Price | null {
  let known = pricesSeen.get(prices)
  if (known === undefined) {
    known = new Map()
    pricesSeen.set(prices, known)
  }
  let price = known.get(model)
  if (price === undefined) {
    price = priceFor(model, prices)
    known.set(model, price)
  }
  return price
}

/** A call's tokens and what they cost (null: no price for its model). */
function priced(model: string, usage: Usage, prices: PriceOverrides) {
  const tokens = {
    input: tokenCount(usage.input_tokens),
    output: tokenCount(usage.output_tokens),
    cacheRead: tokenCount(usage.cache_read_input_tokens),
    cacheWrite: tokenCount(usage.cache_creation_input_tokens),
  }
  const price = priceOf(model, prices)
  const usd =
    price === null
      ? null
      : costOf(
          {
            input_tokens: tokens.input,
            output_tokens: tokens.output,
            cache_read_input_tokens: tokens.cacheRead,
            cache_creation_input_tokens: tokens.cacheWrite,
          },
          price,
        )
  return { tokens, usd: usd !== null && Number.isFinite(usd) ? usd : null }
}

/** A tool's input in a few words: a command, a path, or its first text field. */
function inputSummary(input: unknown): string {
  if (typeof input === 'string') return oneLineSummary(input, 160)
  if (input === null || typeof input !== 'object') return ''
  const fields = input as Record<string, unknown>
  for (const key of ['command', 'path', 'to', 'subject', 'id', 'pattern', 'query'])
    if (typeof fields[key] === 'string') return oneLineSummary(fields[key], 160)
  const first = Object.values(fields).find((value) => typeof value === 'string')
  return typeof first === 'string' ? oneLineSummary(first, 160) : ''
}
