import { describe, expect, it } from 'vitest'
import {
  MAX_LINE_BYTES,
  MESSAGE_FORMAT_VERSION,
  MESSAGE_TYPES,
  isMessageType,
  messageToLine,
  parseMessageLine,
  type LineVerdict,
  type MailMessage,
} from '../../../src/shared/messages'

const base = { type: 'message', from: 'lead', content: 'hi', timestamp: 1700000000.5 }

function verdict(record: unknown, inbox = 'alice'): LineVerdict {
  return parseMessageLine(
    typeof record === 'string' ? record : JSON.stringify(record),
    inbox,
    'p1-0',
  )
}

function reasonOf(record: unknown, inbox = 'alice'): string {
  const result = verdict(record, inbox)
  if (result.ok) throw new Error(`expected a rejection of ${JSON.stringify(record)}`)
  return result.reason
}

describe('the message types', () => {
  it("are s09's five", () => {
    expect([...MESSAGE_TYPES]).toEqual([
      'message',
      'broadcast',
      'shutdown_request',
      'shutdown_response',
      'plan_approval_response',
    ])
    for (const type of MESSAGE_TYPES) expect(isMessageType(type)).toBe(true)
    for (const other of ['Message', 'plan_approval_request', '', 1, null])
      expect(isMessageType(other)).toBe(false)
  })

  it('the format version written is 1 and a line may be 1 MiB', () => {
    expect(MESSAGE_FORMAT_VERSION).toBe(1)
    expect(MAX_LINE_BYTES).toBe(1024 * 1024)
  })
})

describe('parseMessageLine', () => {
  it("accepts s09's four fields alone, giving the position id and the inbox as recipient", () => {
    const result = verdict(base)
    expect(result).toEqual({
      ok: true,
      message: {
        id: 'p1-0',
        type: 'message',
        from: 'lead',
        to: 'alice',
        content: 'hi',
        timestamp: 1700000000.5,
        extra: {},
      },
    })
  })

  it.each(MESSAGE_TYPES)('accepts type %s', (type) => {
    expect(verdict({ ...base, type }).ok).toBe(true)
  })

  it('keeps its own id, the version and a `to` naming this inbox', () => {
    const result = verdict({ ...base, v: 1, id: 'm-7', to: 'alice' })
    expect(result.ok && result.message.id).toBe('m-7')
    expect(result.ok && result.message.to).toBe('alice')
  })

  it('keeps every other field as an extra, nested values included', () => {
    const result = verdict({ ...base, request_id: 'r1', approve: false, meta: { a: [1, 2] } })
    expect(result.ok && result.message.extra).toEqual({
      request_id: 'r1',
      approve: false,
      meta: { a: [1, 2] },
    })
  })

  it.each([
    ['not JSON', '{"type": "message", ', /not valid JSON/],
    ['a JSON array', [base], /not a JSON object \(found an array\)/],
    ['a JSON number', 42, /not a JSON object \(found number 42\)/],
    ['JSON null', null, /not a JSON object \(found null\)/],
    ['a JSON string', '"hello"', /not a JSON object \(found "hello"\)/],
    ['no type', { ...base, type: undefined }, /field "type" must be one of .*found nothing/],
    [
      'an unknown type',
      { ...base, type: 'memo' },
      /field "type" must be one of message, broadcast, shutdown_request, shutdown_response, plan_approval_response \(found "memo"\)/,
    ],
    [
      'no from',
      { ...base, from: undefined },
      /field "from" must be an agent name \(found nothing\)/,
    ],
    [
      'an invalid from',
      { ...base, from: 'Bob' },
      /field "from" must be an agent name \(found "Bob"\)/,
    ],
    ['a from escaping the folder', { ...base, from: '../x' }, /field "from" must be an agent name/],
    [
      'no content',
      { ...base, content: undefined },
      /field "content" must be a string \(found nothing\)/,
    ],
    [
      'a number as content',
      { ...base, content: 5 },
      /field "content" must be a string \(found number 5\)/,
    ],
    [
      'an object as content',
      { ...base, content: { text: 'x' } },
      /field "content" must be a string \(found an object\)/,
    ],
    [
      'no timestamp',
      { ...base, timestamp: undefined },
      /field "timestamp" must be a number \(found nothing\)/,
    ],
    [
      'a string timestamp',
      { ...base, timestamp: '1700000000' },
      /field "timestamp" must be a number \(found "1700000000"\)/,
    ],
    [
      'a version newer than 1',
      { ...base, v: 2 },
      /format version 2 is newer than this app reads \(1\)/,
    ],
    ['version 0', { ...base, v: 0 }, /field "v" must be a positive integer/],
    ['a fractional version', { ...base, v: 1.5 }, /field "v" must be a positive integer/],
    ['a string version', { ...base, v: '1' }, /field "v" must be a positive integer \(found "1"\)/],
    [
      'a `to` naming another inbox',
      { ...base, to: 'bob' },
      /addressed to "bob" but found in the inbox of "alice"/,
    ],
    ['an empty id', { ...base, id: '' }, /field "id" must be a string of 1-128 characters/],
    [
      'an id of 129 characters',
      { ...base, id: 'x'.repeat(129) },
      /field "id" must be a string of 1-128/,
    ],
    ['a number as id', { ...base, id: 7 }, /field "id" must be a string/],
    [
      'a __proto__ key',
      '{"__proto__": {"x": 1}, "type": "message", "from": "lead", "content": "hi", "timestamp": 1}',
      /"__proto__" is not allowed/,
    ],
    [
      'a nested __proto__ key',
      '{"type": "message", "from": "lead", "content": "hi", "timestamp": 1, "meta": {"a": [{"__proto__": 1}]}}',
      /"__proto__" is not allowed/,
    ],
    [
      'a unicode-escaped __proto__ key',
      '{"\\u005f_proto__": {}, "type": "message", "from": "lead", "content": "hi", "timestamp": 1}',
      /"__proto__" is not allowed/,
    ],
    [
      'a fully escaped __proto__ key',
      '{"type": "message", "from": "lead", "content": "hi", "timestamp": 1, "\\u005f\\u005fproto\\u005f\\u005f": 1}',
      /"__proto__" is not allowed/,
    ],
  ])('rejects %s', (_what, record, reason) => {
    expect(reasonOf(record)).toMatch(reason)
  })

  it('accepts "__proto__" and unicode escapes inside string values', () => {
    const result = verdict({ ...base, content: '__proto__ \u00e9\u{1f600}', note: '__proto__' })
    expect(result.ok && result.message.content).toBe('__proto__ é😀')
    const escaped = verdict('{"type":"message","from":"lead","content":"caf\\u00e9","timestamp":1}')
    expect(escaped.ok && escaped.message.content).toBe('café')
  })

  it('never lets a line change the prototype of what it produces', () => {
    const result = verdict(
      '{"type":"message","from":"lead","content":"x","timestamp":1,"constructor":{"prototype":{"polluted":1}}}',
    )
    expect(result.ok).toBe(true)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe('messageToLine', () => {
  const message: MailMessage = {
    id: 'm-1',
    type: 'shutdown_request',
    from: 'lead',
    to: 'bob',
    content: 'please stop',
    timestamp: 1700000000.25,
    extra: { request_id: 'req-1', approve: true },
  }

  it('writes the version, the id, the recipient and the extras beside the four s09 fields', () => {
    expect(JSON.parse(messageToLine(message))).toEqual({
      v: 1,
      id: 'm-1',
      type: 'shutdown_request',
      from: 'lead',
      to: 'bob',
      content: 'please stop',
      timestamp: 1700000000.25,
      request_id: 'req-1',
      approve: true,
    })
  })

  it('is one line, even when the content has newlines', () => {
    const line = messageToLine({ ...message, content: 'a\nb\r\nc' })
    expect(line).not.toMatch(/[\r\n]/)
  })

  it('round-trips through parseMessageLine', () => {
    const result = parseMessageLine(messageToLine(message), 'bob', 'p1-0')
    expect(result).toEqual({ ok: true, message })
  })

  it('lets no extra field override a core one', () => {
    const line = messageToLine({ ...message, extra: { from: 'alice', v: 9, id: 'evil' } })
    expect(JSON.parse(line)).toMatchObject({ from: 'lead', v: 1, id: 'm-1' })
  })
})
