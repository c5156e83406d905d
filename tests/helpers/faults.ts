import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { TurnPolicy } from '../../src/runtime/agents/model-turn'
import { text, toolCall } from '../../src/offline-model/script'
import type { ModelRequest, Reply, Script } from '../../src/offline-model/script'
import type { TeamEvent, TeamEventType } from '../../src/shared/events'
import type { TranscriptRecord } from '../../src/shared/transcript'
import type { RequestMessage } from './agents'
import type { HostUnderTest } from './host'
import { waitFor } from './wait'

/** Quick retries and a short stall timeout, so fault tests stay fast. */
export const FAST_POLICY: TurnPolicy = {
  maxAttempts: 3,
  baseDelayMs: 10,
  maxDelayMs: 50,
  stallTimeoutMs: 200,
}

/** The same quick retries, with a stall timeout no slow start can reach: for tests not about stalls. */
export const QUICK_RETRIES: TurnPolicy = { ...FAST_POLICY, stallTimeoutMs: 10_000 }

/** Whether `name` was marked stalled after some of its text had streamed (a real mid-stream stall). */
export function stalledMidStream(team: HostUnderTest, name: string): boolean {
  const firstDelta = team.events.findIndex(
    (event) => event.type === 'text-delta' && event.agent === name,
  )
  return (
    firstDelta >= 0 &&
    team.events.some(
      (event, index) =>
        index > firstDelta &&
        event.type === 'agent-status-changed' &&
        event.name === name &&
        event.status === 'stalled',
    )
  )
}

export type EventOf<T extends TeamEventType> = Extract<TeamEvent, { type: T }>

/** The events of one type published so far. */
export function eventsOf<T extends TeamEventType>(team: HostUnderTest, type: T): EventOf<T>[] {
  return team.events.filter((event): event is EventOf<T> => event.type === type)
}

/** The statuses `name` went through, in order, from agent-status-changed events. */
export function statusesOf(team: HostUnderTest, name: string): string[] {
  return eventsOf(team, 'agent-status-changed')
    .filter((event) => event.name === name)
    .map((event) => event.status)
}

/** The reasons of `name`'s changes to `status`. */
export function reasonsFor(team: HostUnderTest, name: string, status: string): string[] {
  return eventsOf(team, 'agent-status-changed')
    .filter((event) => event.name === name && event.status === status)
    .map((event) => event.reason)
}

/** The status of `name` in the host's roster (the lead included). */
export function statusOf(team: HostUnderTest, name: string): string {
  const roster = team.host.roster()
  if (name === 'lead') return roster.lead.status
  return roster.members.find((member) => member.name === name)?.status ?? 'absent'
}

export async function waitForStatus(
  team: HostUnderTest,
  name: string,
  status: string,
  timeout = 5000,
): Promise<void> {
  await waitFor(
    () => statusOf(team, name) === status,
    () => `${name} to be ${status} (it is ${statusOf(team, name)})`,
    { timeout },
  )
}

/** Waits until `name`'s last transcript record is a status record (an activation ended on one). */
export async function waitForStatusRecord(
  team: HostUnderTest,
  name: string,
  status: string,
  timeout = 5000,
): Promise<Extract<TranscriptRecord, { kind: 'status' }>> {
  let found: Extract<TranscriptRecord, { kind: 'status' }> | undefined
  await waitFor(
    () => {
      const last = lastRecord(team, name)
      found = last?.kind === 'status' && last.status === status ? last : undefined
      return (
        found !== undefined && !team.host.roster().members.some((m) => m.name === name && m.running)
      )
    },
    () => `a "${status}" status record ending ${name}'s transcript`,
    { timeout },
  )
  return found as Extract<TranscriptRecord, { kind: 'status' }>
}

export function lastRecord(team: HostUnderTest, name: string): TranscriptRecord | undefined {
  const records = team.host.transcript(name).records
  return records[records.length - 1]
}

/** The messages of the `<inbox>` blocks in a request body's last (user) message. */
export function inboxIn(body: ModelRequest): Record<string, unknown>[] {
  const last = body.messages[body.messages.length - 1] as RequestMessage | undefined
  if (!last) return []
  const blocks =
    typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : last.content
  return blocks.flatMap((block) => {
    const match =
      block.type === 'text' ? /^<inbox>([\s\S]*)<\/inbox>$/.exec(block.text ?? '') : null
    return match ? (JSON.parse(match[1] ?? '[]') as Record<string, unknown>[]) : []
  })
}

/** The request_id of the first message of `type` in the body's injected inbox, or null. */
export function requestIdIn(body: ModelRequest, type: string): string | null {
  const id = inboxIn(body).find((candidate) => candidate.type === type)?.request_id
  return typeof id === 'string' ? id : null
}

/**
 * A script from a function per agent that sees the request body (to answer a request id it
 * carries); calls it has no reply for are answered with a 500 and listed in `unexpected`.
 */
export function bodyScript(
  byAgent: (
    agent: string,
    agentCall: number,
    body: ModelRequest,
  ) => Reply | Promise<Reply> | undefined,
): Script & { unexpected: string[] } {
  const unexpected: string[] = []
  const script: Script = (body, context) => {
    const agent = context.agent ?? 'default'
    const reply = byAgent(agent, context.agentCall, body)
    if (reply !== undefined) return reply
    const message = `no reply for ${agent} (call ${context.agentCall})`
    unexpected.push(message)
    return { fault: 'http', status: 500, errorType: 'api_error', message, shouldRetry: false }
  }
  return Object.assign(script, { unexpected })
}

/** A teammate that approves any shutdown request it is shown, and otherwise says `otherwise`. */
export function approvingTeammate(body: ModelRequest, otherwise: string): Reply {
  const id = requestIdIn(body, 'shutdown_request')
  return id === null
    ? text(otherwise)
    : toolCall('shutdown_response', { request_id: id, approve: true, reason: 'My work is done.' })
}

export interface RejectedLine {
  segment: number
  offset: number
  reason: string
}

/** `.team/mailbox/<name>/rejected.jsonl`, parsed (empty when it does not exist). */
export function rejectedLines(team: HostUnderTest, name: string): RejectedLine[] {
  let text: string
  try {
    text = readFileSync(join(team.workspace, '.team', 'mailbox', name, 'rejected.jsonl'), 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
  return text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as RejectedLine)
}

/** Whether a process is gone: no such pid, or a zombie waiting to be reaped. */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return true
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return /^\d+ \(.*\) Z/.test(stat)
  } catch {
    return true
  }
}

/** Whether every value is different. */
export function allDistinct(values: readonly string[]): boolean {
  return new Set(values).size === values.length
}

/** The causes `name` waited for, in order (null for a wait without one). */
export function waitCausesOf(team: HostUnderTest, name: string): (string | null)[] {
  return eventsOf(team, 'agent-status-changed')
    .filter((event) => event.name === name && event.status === 'waiting')
    .map((event) => event.cause ?? null)
}
