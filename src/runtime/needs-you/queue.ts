import { TeamError } from '../../shared/errors'
import type { TeamEvent } from '../../shared/events'
import {
  decisionsFor,
  type ApprovalRule,
  type NeedsYouAnswer,
  type NeedsYouEntry,
  type NeedsYouKind,
} from '../../shared/needs-you'
import { MCP_TOOL_PREFIX } from '../../shared/profiles'
import type { Clock, IdSource } from '../system/clock'
import type { NeedsYouStore } from './store'

/** What an agent asks the person: a tool call to approve, or a question (`ask_user`). */
export interface ApprovalRequest {
  readonly agent: string
  readonly kind: 'tool' | 'question'
  /** One line the queue shows: "bash: npm test". */
  readonly summary: string
  /** What the person decides on: the exact command, the diff, the question. */
  readonly detail: string
  readonly tool?: string
  /** The call's id: after a restart the same call waits on the same entry. */
  readonly toolUseId?: string
  /** What "approve always" would allow; absent: approve once only. */
  readonly pattern?: string
  /** The rule's tool when approved always (`bash`, `write` for the file tools, or `mcp`). */
  readonly ruleTool?: ApprovalRule['tool']
}

export type ApprovalDecision =
  | { readonly kind: 'approved'; readonly always: boolean }
  | { readonly kind: 'denied'; readonly reason: string }
  | { readonly kind: 'answered'; readonly text: string }
  | { readonly kind: 'cancelled'; readonly reason: string }

/** What answering a mirrored entry does: the host's own commands. */
export interface NeedsYouActions {
  reviewPlan(requestId: string, approve: boolean, feedback: string): void
  resume(agent: string): void
}

interface Waiter {
  readonly resolve: (decision: ApprovalDecision) => void
  readonly ruleTool?: ApprovalRule['tool']
}

/**
 * The one queue of what waits on the person. `requestApproval` is the entry point for anything
 * that must hold an agent until the person answers (ask-mode tool calls, `ask_user`, and the
 * sandbox's blocked writes or connections); the other kinds mirror states recorded elsewhere.
 */
export class NeedsYou {
  private readonly waiters = new Map<string, Waiter>()

  constructor(
    private readonly dependencies: {
      readonly store: NeedsYouStore
      readonly clock: Clock
      readonly ids: IdSource
      readonly publish: (event: TeamEvent) => void
      /** The agent's status while it waits, and when the wait ends. */
      readonly waiting: (agent: string, waiting: boolean, summary: string) => void
      readonly actions: NeedsYouActions
      /**
       * Whether "approve always" rules apply: `.team/needs-you.json` may have come with the
       * workspace, so they apply only while the person trusts it (default: always).
       */
      readonly rulesApply?: () => boolean
    },
  ) {}

  entries(): NeedsYouEntry[] {
    return this.dependencies.store.all()
  }

  pending(): NeedsYouEntry[] {
    return this.entries().filter((entry) => entry.status === 'pending')
  }

  rules(agent: string, tool: ApprovalRule['tool']): string[] {
    if (this.dependencies.rulesApply?.() === false) return []
    return this.dependencies.store
      .allRules()
      .filter((rule) => rule.agent === agent && rule.tool === tool)
      .map((rule) => rule.pattern)
  }

  /**
   * Holds until the person answers (or `signal` aborts: the agent was stopped). An entry for the
   * same tool call left by a run that was killed while it waited is used instead of asking
   * twice: waited on again while pending, its answer taken when it was answered meanwhile.
   */
  requestApproval(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalDecision> {
    const same =
      request.toolUseId === undefined
        ? []
        : this.entries().filter(
            (entry) => entry.agent === request.agent && entry.tool_use_id === request.toolUseId,
          )
    // Answered while the agent was not waiting (after a restart, before it ran again).
    for (const entry of same) {
      const decided = recordedDecision(entry)
      if (decided !== null) return Promise.resolve(decided)
    }
    const existing = same.find((entry) => entry.status === 'pending')
    const entry =
      existing ??
      this.save({
        id: this.dependencies.ids.next('ny'),
        agent: request.agent,
        kind: request.kind,
        summary: request.summary,
        detail: request.detail,
        status: 'pending',
        created_at: this.now(),
        settled_at: null,
        answer: null,
        tool: request.tool ?? null,
        tool_use_id: request.toolUseId ?? null,
        pattern: request.pattern ?? null,
        request_id: null,
      })
    if (signal?.aborted) {
      this.settle(entry, 'cancelled', 'the agent was stopped')
      return Promise.resolve({ kind: 'cancelled', reason: 'the agent was stopped' })
    }
    this.dependencies.waiting(request.agent, true, request.summary)
    return new Promise<ApprovalDecision>((resolve) => {
      const onAbort = (): void => {
        if (!this.waiters.has(entry.id)) return
        this.waiters.delete(entry.id)
        const current = this.dependencies.store.get(entry.id)
        if (current?.status === 'pending')
          this.settle(current, 'cancelled', 'the agent was stopped')
        finish({ kind: 'cancelled', reason: 'the agent was stopped' })
      }
      const finish = (decision: ApprovalDecision): void => {
        signal?.removeEventListener('abort', onAbort)
        this.dependencies.waiting(request.agent, false, request.summary)
        resolve(decision)
      }
      this.waiters.set(entry.id, { resolve: finish, ruleTool: request.ruleTool })
      signal?.addEventListener('abort', onAbort, { once: true })
    })
  }

  /** The person's answer, from any transport. Throws `invalid-argument` saying what is wrong. */
  answer(answer: NeedsYouAnswer): NeedsYouEntry {
    const entry = this.dependencies.store.get(answer.id)
    if (!entry)
      throw new TeamError(
        'not-found',
        `There is no entry ${answer.id} in the Needs-you queue (see "agent-teams queue").`,
      )
    if (entry.status !== 'pending')
      throw new TeamError('already-settled', `Entry ${answer.id} was already ${entry.status}.`)
    if (!decisionsFor(entry.kind).includes(answer.decision))
      throw new TeamError(
        'invalid-argument',
        `A ${entry.kind} entry takes ${decisionsFor(entry.kind).join(', ')}, not ${answer.decision}.`,
      )
    const text = answer.text?.trim() ?? ''
    if (answer.decision === 'answer' && text === '')
      throw new TeamError(
        'invalid-argument',
        'The answer is empty; write what the agent asked for.',
      )
    if (
      entry.kind === 'plan' ||
      entry.kind === 'pause' ||
      entry.kind === 'error' ||
      entry.kind === 'stall' ||
      entry.kind === 'schedule'
    )
      return this.answerMirrored(entry, answer.decision === 'approve', text)
    // Without a waiter (the run that asked was killed) the answer is recorded all the same:
    // the agent finds it when it runs the call again.
    const waiter = this.waiters.get(entry.id) ?? {
      resolve: () => undefined,
      ruleTool: ruleToolOf(entry.tool),
    }
    this.waiters.delete(entry.id)
    let settled: NeedsYouEntry
    if (answer.decision === 'deny') {
      const reason = text || 'no reason given'
      settled = this.settle(entry, 'denied', reason)
      waiter.resolve({ kind: 'denied', reason })
    } else if (answer.decision === 'answer') {
      settled = this.settle(entry, 'answered', text)
      waiter.resolve({ kind: 'answered', text })
    } else {
      const always = answer.decision === 'approve-always'
      if (always && entry.pattern !== null && waiter.ruleTool !== undefined)
        this.dependencies.store.addRule({
          agent: entry.agent,
          tool: waiter.ruleTool,
          pattern: entry.pattern,
          created_at: this.now(),
        })
      settled = this.settle(entry, 'approved', always ? `always: ${entry.pattern ?? ''}` : null)
      waiter.resolve({ kind: 'approved', always })
    }
    return settled
  }

  /** A state that needs the person began (a pause, an error, a stall, a plan to review). */
  raise(
    agent: string,
    kind: Exclude<NeedsYouKind, 'tool' | 'question'>,
    summary: string,
    detail: string,
    requestId: string | null = null,
  ): void {
    const same = this.pending().find(
      (entry) => entry.agent === agent && entry.kind === kind && entry.request_id === requestId,
    )
    if (same !== undefined && same.detail === detail) return
    if (same !== undefined) this.settle(same, 'resolved', 'superseded')
    this.save({
      id: this.dependencies.ids.next('ny'),
      agent,
      kind,
      summary,
      detail,
      status: 'pending',
      created_at: this.now(),
      settled_at: null,
      answer: null,
      tool: null,
      tool_use_id: null,
      pattern: null,
      request_id: requestId,
    })
  }

  /** The mirrored states of `agent` (of these kinds, or the plan request) that cleared. */
  clear(agent: string, kinds: readonly NeedsYouKind[], requestId: string | null = null): void {
    for (const entry of this.pending())
      if (
        entry.agent === agent &&
        kinds.includes(entry.kind) &&
        (requestId === null || entry.request_id === requestId)
      )
        this.settle(entry, 'resolved', null)
  }

  /**
   * After a restart: pending tool and question entries stay (their agents wait on them again
   * when they run); a mirrored entry stays while `stillTrue` says its state holds.
   */
  reconcile(stillTrue: (entry: NeedsYouEntry) => boolean): void {
    for (const entry of this.pending())
      if (entry.kind !== 'tool' && entry.kind !== 'question' && !stillTrue(entry))
        this.settle(entry, 'resolved', 'cleared by a restart')
  }

  /** Whether `agent` waits on the person right now. */
  isWaiting(agent: string): boolean {
    for (const id of this.waiters.keys())
      if (this.dependencies.store.get(id)?.agent === agent) return true
    return false
  }

  private answerMirrored(entry: NeedsYouEntry, approve: boolean, text: string): NeedsYouEntry {
    const { actions } = this.dependencies
    if (entry.kind === 'plan' && entry.request_id !== null) {
      // The protocol's record settles; its event then resolves this entry.
      actions.reviewPlan(entry.request_id, approve, text)
      const after = this.dependencies.store.get(entry.id) ?? entry
      return after.status === 'pending'
        ? this.settle(after, approve ? 'approved' : 'denied', text || null)
        : after
    }
    if (!approve) return this.settle(entry, 'denied', text || 'dismissed')
    const settled = this.settle(entry, 'approved', null)
    actions.resume(entry.agent)
    return settled
  }

  private settle(
    entry: NeedsYouEntry,
    status: NeedsYouEntry['status'],
    answer: string | null,
  ): NeedsYouEntry {
    return this.save({ ...entry, status, answer, settled_at: this.now() })
  }

  private save(entry: NeedsYouEntry): NeedsYouEntry {
    this.dependencies.store.put(entry)
    this.dependencies.publish({ type: 'needs-you-changed', entry })
    return entry
  }

  private now(): number {
    return this.dependencies.clock.now() / 1000
  }
}

/** The decision an answered entry holds for its call, or null (pending, cancelled, resolved). */
function recordedDecision(entry: NeedsYouEntry): ApprovalDecision | null {
  switch (entry.status) {
    case 'approved':
      return { kind: 'approved', always: entry.answer?.startsWith('always:') === true }
    case 'denied':
      return { kind: 'denied', reason: entry.answer ?? 'no reason given' }
    case 'answered':
      return { kind: 'answered', text: entry.answer ?? '' }
    default:
      return null
  }
}

function ruleToolOf(tool: string | null): ApprovalRule['tool'] | undefined {
  if (tool === 'bash') return 'bash'
  if (tool === 'write_file' || tool === 'edit_file') return 'write'
  if (tool?.startsWith(MCP_TOOL_PREFIX) === true) return 'mcp'
  return undefined
}
