/**
 * Client-side compaction, which works on any endpoint: before a call would pass a share of the
 * model's context window, the older part of the conversation is summarized by a model call and
 * replaced, in what the model sees, by an identity block and the summary; the recent turns stay
 * verbatim. The transcript keeps every record: the compaction is one more record, appended only
 * once the summary is complete, so a crash in the middle leaves the transcript as it was.
 */
import type { NewTranscriptRecord, TranscriptRecord, Usage } from '../../shared/transcript'
import type { ModelClient, ModelTurn, TurnRequest } from '../model/client'
import { parsePromptTooLong, type ContextWindows } from '../model/context-window'
import { estimateTokens } from '../../shared/token-estimate'
import { lastCompaction, toConversation, verbatimRecords } from './conversation'
import {
  identityBlock,
  summaryInput,
  SUMMARY_SYSTEM_PROMPT,
  type AgentIdentity,
} from './compaction-text'
import { TurnFailure } from './model-turn'

export interface CompactionPolicy {
  /** The share of the window a prompt may reach before the agent compacts (default 0.75). */
  readonly threshold: number
  /** The share of the window the verbatim recent turns may hold, when compacting gently. */
  readonly keepShare: number
  /** A single tool result over this share of the window is cut before it is sent. */
  readonly toolResultShare: number
  /** Calls one model turn may take when the endpoint says "prompt is too long" (the first included). */
  readonly maxAttempts: number
}

export const DEFAULT_COMPACTION_POLICY: CompactionPolicy = {
  threshold: 0.75,
  keepShare: 0.3,
  toolResultShare: 0.25,
  maxAttempts: 4,
}

/** How hard a compaction goes: the verbatim tail shrinks with each level, then goes. */
const LEVELS = 4
/** The older conversation shown to the summarizer may take this share of the window. */
const SUMMARY_INPUT_SHARE = 0.5
/**
 * Characters per token when turning a token budget into characters: below the estimate's four,
 * so that JSON escapes and dense text still fit.
 */
const CHARACTERS_PER_TOKEN = 3

export interface CompactorDependencies {
  readonly records: () => readonly TranscriptRecord[]
  readonly record: (record: NewTranscriptRecord) => TranscriptRecord
  readonly windows: ContextWindows
  readonly identity: () => AgentIdentity
  readonly openRequests: () => readonly string[]
  /** Runs the summarizing call (with the agent's retries); its usage is the agent's. */
  readonly summarize: (
    client: ModelClient,
    request: TurnRequest,
    signal: AbortSignal,
  ) => Promise<ModelTurn>
  /** The summarizing call's usage, priced by the model that answered it. */
  readonly onUsage: (usage: Usage, model: string) => void
  readonly policy: CompactionPolicy
}

/** What the next call is, for measuring it: built anew after a compaction changed the view. */
export type RequestSource = () => TurnRequest

export class Compactor {
  constructor(private readonly dependencies: CompactorDependencies) {}

  get policy(): CompactionPolicy {
    return this.dependencies.policy
  }

  windowOf(model: string): number {
    return this.dependencies.windows.of(model)
  }

  /**
   * One model turn, with room made for it first. A "prompt is too long" from the endpoint
   * teaches the window and compacts harder, a bounded number of times, instead of ending the
   * agent; then the turn fails with code `context-overflow`.
   */
  async turn(
    client: ModelClient,
    next: RequestSource,
    run: (request: TurnRequest) => Promise<ModelTurn>,
    signal: AbortSignal,
  ): Promise<ModelTurn> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.makeRoom(client, next, attempt, signal)
        return await run(next())
      } catch (error) {
        const tooLong = error instanceof TurnFailure ? parsePromptTooLong(error.message) : null
        if (tooLong === null) throw error
        this.dependencies.windows.learn(modelOf(client, next()), tooLong.maximum)
        if (attempt + 1 >= this.policy.maxAttempts)
          throw new TurnFailure(
            'fatal',
            'context-overflow',
            `The conversation does not fit the model's context window even after compacting it ${attempt + 1} times (the endpoint said: ${tooLong.tokens} tokens > ${tooLong.maximum} maximum).`,
          )
      }
    }
  }

  /**
   * Makes room for the next call: compacts when its prompt would pass the threshold, or, after
   * the endpoint refused a prompt as too long (`level` > 0), compacts at that level whatever the
   * count says; then harder until the prompt fits the threshold or no level is left.
   */
  async makeRoom(
    client: ModelClient,
    next: RequestSource,
    level: number,
    signal: AbortSignal,
  ): Promise<void> {
    const request = next()
    const window = this.windowOf(modelOf(client, request))
    const limit = Math.floor(window * this.policy.threshold)
    let tokens = await measure(client, request, limit)
    if (level === 0 && tokens <= limit) return
    const trigger = level === 0 ? 'threshold' : 'prompt-too-long'
    for (let current = level; current < LEVELS; current++) {
      const after = await this.compact(client, next, signal, {
        tokens,
        window,
        level: current,
        trigger,
      })
      // Nothing to cut at this level, or no gain: a harder level may still find some.
      if (after === null) continue
      tokens = after
      if (tokens <= limit) return
    }
  }

  /** A tool result too large for the window: its head, and a note saying what was cut. */
  cutToolResult(
    content: string,
    model: string,
  ): { content: string; cut?: { shown: number; total: number } } {
    const window = this.windowOf(model)
    const limit = Math.floor(window * this.policy.toolResultShare * CHARACTERS_PER_TOKEN)
    if (content.length <= limit) return { content }
    const note = `\n[cut: ${limit} of ${content.length} characters shown; the result was too large for the context window. Ask for a smaller part (a range, a filter, head or tail) if you need more.]`
    return {
      content: `${content.slice(0, limit)}${note}`,
      cut: { shown: limit, total: content.length },
    }
  }

  /** One compaction at `level`; the prompt's tokens after it, or null when nothing could go. */
  private async compact(
    client: ModelClient,
    next: RequestSource,
    signal: AbortSignal,
    at: { tokens: number; window: number; level: number; trigger: string },
  ): Promise<number | null> {
    const records = this.dependencies.records()
    const view = verbatimRecords(records)
    const cut = cutIndex(view, keepTokens(at.level, at.window, this.policy))
    if (cut <= 0) return null
    const summarized = view.slice(0, cut)
    const throughSeq = summarized[summarized.length - 1]?.seq ?? 0
    const request = next()
    const input = summaryInput(
      lastCompaction(records),
      summarized,
      Math.floor(at.window * SUMMARY_INPUT_SHARE * CHARACTERS_PER_TOKEN),
    )
    const turn = await this.dependencies.summarize(
      client,
      {
        agent: request.agent,
        model: request.model,
        system: SUMMARY_SYSTEM_PROMPT,
        messages: [{ role: 'user', content: [{ type: 'text', text: input }] }],
        tools: [],
        oneTime: true,
      },
      signal,
    )
    this.dependencies.onUsage(turn.usage, turn.model)
    const summary = turn.content
      .flatMap((block) => (block.type === 'text' ? [String(block.text)] : []))
      .join('\n')
      .trim()
    const compaction = {
      kind: 'compaction' as const,
      through_seq: throughSeq,
      identity: identityBlock(
        this.dependencies.identity(),
        records,
        throughSeq,
        this.dependencies.openRequests(),
      ),
      summary: summary === '' ? '(The summarizer returned nothing.)' : summary,
      trigger: at.trigger,
      tokens_before: at.tokens,
      window: at.window,
      model: turn.model,
      usage: turn.usage,
    }
    // Measured before the record is written, so that it is written whole, in one append.
    const last = records[records.length - 1]
    const preview: TranscriptRecord = {
      v: 1,
      seq: (last?.seq ?? 0) + 1,
      at: 0,
      ...compaction,
      tokens_after: 0,
    }
    const after = await measure(
      client,
      { ...request, messages: toConversation([...records, preview]) },
      0,
    )
    // A summary longer than what it replaces (a tiny window, a wordy summarizer) is no help.
    if (after >= at.tokens) return null
    this.dependencies.record({ ...compaction, tokens_after: after })
    return after
  }
}

function modelOf(client: ModelClient, request: TurnRequest): string {
  return request.model ?? client.endpoint.model
}

/**
 * The prompt's tokens: the endpoint's count where it has one. A prompt whose estimate is below
 * half of `limit` is far from it, and is not worth a round trip.
 */
async function measure(client: ModelClient, request: TurnRequest, limit: number): Promise<number> {
  const estimate = estimateTokens({
    system: request.system,
    tools: request.tools,
    messages: request.messages,
  })
  if (estimate < limit / 2) return estimate
  const counted = await client.countTokens({
    system: request.system,
    messages: request.messages,
    tools: request.tools,
    model: request.model,
  })
  return counted.tokens
}

/** Tokens the verbatim tail may keep at a level; -1 keeps nothing at all. */
function keepTokens(level: number, window: number, policy: CompactionPolicy): number {
  if (level === 0) return window * policy.keepShare
  if (level === 1) return (window * policy.keepShare) / 4
  if (level === 2) return 0
  return -1
}

/**
 * Where the verbatim tail starts in `view`: the earliest place whose tail fits `keep` tokens, at
 * least the last exchange (`keep` 0), or past the end (`keep` -1, everything summarized). A tail
 * starts at a model turn, or at a user turn that answers no tool call: a tool call and its
 * result are never split apart.
 */
export function cutIndex(view: readonly TranscriptRecord[], keep: number): number {
  if (keep < 0) return view.length
  const starts = tailStarts(view)
  let tail = 0
  let chosen = starts[starts.length - 1] ?? 0
  let index = view.length
  for (let position = starts.length - 1; position >= 0; position--) {
    const start = starts[position] ?? 0
    for (; index > start; index--) tail += recordTokens(view[index - 1])
    if (tail > keep) break
    chosen = start
  }
  return chosen
}

/**
 * Indexes at which a verbatim tail may start (never 0: something must be summarized). The view
 * is in the model's order, where a record the model met after a turn may be older than the
 * turn; a compaction cuts by seq (`through_seq`), so a tail starts only where every record
 * before it is older than every record from it on.
 */
function tailStarts(view: readonly TranscriptRecord[]): number[] {
  const starts: number[] = []
  const cuttable = seqBoundaries(view)
  let previousWasAssistant = false
  view.forEach((record, index) => {
    if (record.kind === 'status') return
    const start = index > 0 && cuttable[index] === true
    if (record.kind === 'assistant') {
      if (start) starts.push(index)
      previousWasAssistant = true
      return
    }
    if (previousWasAssistant && start && !answersToolCalls(view, index)) starts.push(index)
    previousWasAssistant = false
  })
  return starts
}

/** For each index, whether the records before it all have a lower seq than those from it on. */
function seqBoundaries(view: readonly TranscriptRecord[]): boolean[] {
  const lowestFrom: number[] = []
  let lowest = Number.POSITIVE_INFINITY
  for (let index = view.length - 1; index >= 0; index--) {
    lowest = Math.min(lowest, view[index]?.seq ?? 0)
    lowestFrom[index] = lowest
  }
  let highest = Number.NEGATIVE_INFINITY
  return view.map((record, index) => {
    const boundary = highest < (lowestFrom[index] ?? 0)
    highest = Math.max(highest, record.seq)
    return boundary
  })
}

/** Whether the user-side run starting at `index` holds a tool result. */
function answersToolCalls(view: readonly TranscriptRecord[], index: number): boolean {
  for (let position = index; position < view.length; position++) {
    const record = view[position]
    if (!record || record.kind === 'assistant') return false
    if (record.kind === 'tool-result') return true
  }
  return false
}

function recordTokens(record: TranscriptRecord | undefined): number {
  if (!record) return 0
  if (record.kind === 'assistant') return estimateTokens(record.content)
  if (record.kind === 'tool-result') return estimateTokens(record.content)
  if (record.kind === 'user') return estimateTokens(record.text)
  if (record.kind === 'inbox') return estimateTokens(record.messages)
  return 0
}
