import { z } from 'zod'
import { jsonShapeProblem, MAX_EXTRA_VALUES, MAX_JSON_DEPTH } from './json-limits'
import { isValidName } from './names'

/** The version of a mailbox line this build writes and the newest it reads. */
export const MESSAGE_FORMAT_VERSION = 1

/** s09's five message types; the wire format never grows a type silently. */
export const MESSAGE_TYPES = [
  'message',
  'broadcast',
  'shutdown_request',
  'shutdown_response',
  'plan_approval_response',
] as const
export const messageTypeSchema = z.enum(MESSAGE_TYPES)
export type MessageType = z.infer<typeof messageTypeSchema>

export function isMessageType(value: unknown): value is MessageType {
  return typeof value === 'string' && (MESSAGE_TYPES as readonly string[]).includes(value)
}

/** The largest line, newline excluded, that a mailbox accepts. */
export const MAX_LINE_BYTES = 1024 * 1024

/**
 * Ids of this form name a line by its place in the inbox (`p<segment>-<offset>`), given to lines
 * that carry no id. A sender may not choose one: it could collide with the place of a later
 * id-less line and get that line refused as a duplicate.
 */
export const POSITION_ID_PATTERN = /^p\d+-\d+$/

/** Keys with a meaning of their own; every other key of a line is an `extra` field, kept as is. */
const CORE_KEYS = new Set(['v', 'id', 'type', 'from', 'to', 'content', 'timestamp'])

/** Where an inbox line stands: waiting for its agent, recorded in its transcript, or refused. */
export const ENTRY_STATES = ['pending', 'delivered', 'rejected'] as const
export type EntryState = (typeof ENTRY_STATES)[number]

/** A message as the runtime holds it, the mailbox line parsed (and as events carry it). */
export const mailMessageSchema = z.object({
  /** Stable identity: the sender's id, or `p<segment>-<offset>` for lines that carry none. */
  id: z.string(),
  type: messageTypeSchema,
  from: z.string(),
  to: z.string(),
  content: z.string(),
  /** Seconds since the epoch, as s09 writes it. */
  timestamp: z.number(),
  /** Fields beyond the core ones (request_id, approve, …), kept as written. */
  extra: z.record(z.string(), z.unknown()),
})
export type MailMessage = Readonly<z.infer<typeof mailMessageSchema>>

/** What `plainMessage` reads: a mail message, or one injected into a transcript (no `to`). */
export type MessageFields = Omit<MailMessage, 'to'> & { readonly to?: string }

/** A message as one plain JSON object: s09's fields and ours beside the extras. */
export type PlainMessage = Readonly<Record<string, unknown>> & Omit<MessageFields, 'extra'>

/**
 * A message as one plain JSON object: its extras, then s09's fields and ours. The one way a
 * message is written out: mailbox lines, the CLI's JSON, exports and the model's `<inbox>`.
 */
export function plainMessage(message: MessageFields): PlainMessage {
  return {
    ...message.extra,
    id: message.id,
    type: message.type,
    from: message.from,
    ...(message.to === undefined ? {} : { to: message.to }),
    content: message.content,
    timestamp: message.timestamp,
  }
}

/**
 * The JSON object one mailbox line holds: the plain message with `v` where lines have always
 * had it, after the extras and before the core fields. No extra may override `v` either.
 */
export function messageToLine(message: MailMessage): string {
  const line: Record<string, unknown> = { ...message.extra, v: MESSAGE_FORMAT_VERSION }
  return JSON.stringify(Object.assign(line, plainMessage(message), { v: MESSAGE_FORMAT_VERSION }))
}

export type LineVerdict =
  | { readonly ok: true; readonly message: MailMessage }
  | { readonly ok: false; readonly reason: string }

/**
 * Checks one complete line (already decoded, newline and CR removed) found in `inbox`.
 * `positionId` is the id given to a line that carries none, stable for its place in the file.
 */
export function parseMessageLine(text: string, inbox: string, positionId: string): LineVerdict {
  let value: unknown
  try {
    value = parseJsonRefusingProto(text)
  } catch (error) {
    return { ok: false, reason: `not valid JSON: ${(error as Error).message}` }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reason: `not a JSON object (found ${describe(value)})` }
  }
  const record = value as Record<string, unknown>
  const version = record.v
  if (version !== undefined) {
    if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
      return {
        ok: false,
        reason: `field "v" must be a positive integer (found ${describe(version)})`,
      }
    }
    if (version > MESSAGE_FORMAT_VERSION) {
      return {
        ok: false,
        reason: `format version ${version} is newer than this app reads (${MESSAGE_FORMAT_VERSION})`,
      }
    }
  }
  if (!isMessageType(record.type)) {
    return {
      ok: false,
      reason: `field "type" must be one of ${MESSAGE_TYPES.join(', ')} (found ${describe(record.type)})`,
    }
  }
  if (!isValidName(record.from)) {
    return {
      ok: false,
      reason: `field "from" must be an agent name (found ${describe(record.from)})`,
    }
  }
  if (typeof record.content !== 'string') {
    return {
      ok: false,
      reason: `field "content" must be a string (found ${describe(record.content)})`,
    }
  }
  if (typeof record.timestamp !== 'number' || !Number.isFinite(record.timestamp)) {
    return {
      ok: false,
      reason: `field "timestamp" must be a number (found ${describe(record.timestamp)})`,
    }
  }
  if (record.to !== undefined && record.to !== inbox) {
    return {
      ok: false,
      reason: `addressed to ${describe(record.to)} but found in the inbox of "${inbox}"`,
    }
  }
  let id = positionId
  if (record.id !== undefined) {
    if (typeof record.id !== 'string' || record.id.length === 0 || record.id.length > 128) {
      return {
        ok: false,
        reason: `field "id" must be a string of 1-128 characters (found ${describe(record.id)})`,
      }
    }
    if (POSITION_ID_PATTERN.test(record.id)) {
      return {
        ok: false,
        reason: `field "id" ${describe(record.id)} has the form p<segment>-<offset>, which is kept for lines without an id; choose another id`,
      }
    }
    id = record.id
  }
  const extra: Record<string, unknown> = {}
  let hasExtra = false
  // for-in, not Object.entries: no array per key on a path every delivered line takes (a parsed
  // JSON object has only own keys).
  for (const key in record)
    if (!CORE_KEYS.has(key)) {
      extra[key] = record[key]
      hasExtra = true
    }
  const problem = hasExtra ? extraProblem(extra) : null
  if (problem !== null) return { ok: false, reason: problem }
  return {
    ok: true,
    message: {
      id,
      type: record.type,
      from: record.from,
      to: inbox,
      content: record.content,
      timestamp: record.timestamp,
      extra,
    },
  }
}

/**
 * Why a message's extra fields may not be kept, or null: nested deeper than MAX_JSON_DEPTH or
 * holding more than MAX_EXTRA_VALUES values (what the transcript, the UI and the model would
 * otherwise have to walk). Their bytes are bounded by the line's own limit.
 */
export function extraProblem(extra: Readonly<Record<string, unknown>>): string | null {
  const excess = jsonShapeProblem(extra, {
    maxDepth: MAX_JSON_DEPTH,
    maxValues: MAX_EXTRA_VALUES,
  })
  if (excess === null) return null
  return excess.kind === 'depth'
    ? `the extra fields are nested more than ${excess.limit} levels deep`
    : `the extra fields hold more than ${excess.limit} values`
}

/** JSON.parse, refusing any `__proto__` key at any depth (written plainly or escaped). */
function parseJsonRefusingProto(text: string): unknown {
  // The reviver is slow; only lines that could spell the key pay for it.
  if (!text.includes('__proto__') && !text.includes('\\u')) return JSON.parse(text)
  return JSON.parse(text, (key, value: unknown) => {
    if (key === '__proto__') throw new SyntaxError('the key "__proto__" is not allowed')
    return value
  })
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string')
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)
  if (typeof value === 'object') return 'an object'
  return `${typeof value} ${String(value)}`
}
