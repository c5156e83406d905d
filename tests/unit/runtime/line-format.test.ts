import { describe, expect, it } from 'vitest'
import { formatLine } from '../../../src/main/runtime/mailbox/line-format'
import { messageToLine, type MailMessage } from '../../../src/shared/messages'

function message(fields: Partial<MailMessage> = {}): MailMessage {
  return {
    id: 'm-mi8x2k3lq0001a1b2c3d4e5',
    type: 'message',
    from: 'lead',
    to: 'alice',
    content: 'Please review auth.py',
    timestamp: 1796223784.123,
    extra: {},
    ...fields,
  }
}

const CONTENTS = [
  '',
  "plain ascii, with punctuation: {}[]:,.!?~`'",
  'a "quoted" word',
  'back\\slash',
  'line\nbreak and\ttab and \r return',
  '\u0000\u0001\u001f control',
  'del \u007f',
  'café ☕ 你好 😀',
  'line separators \u2028 \u2029',
  'lone surrogates \ud800 and \udfff',
  '</script><!--',
  'x'.repeat(10_000),
]

describe('formatLine', () => {
  it.each(CONTENTS)(
    'writes exactly what messageToLine writes, and counts its bytes (%#)',
    (content) => {
      const line = formatLine(message({ content }))
      expect(line.text).toBe(`${messageToLine(message({ content }))}\n`)
      expect(line.bytes).toBe(Buffer.byteLength(line.text))
    },
  )

  it.each([
    ['an id that needs escaping', { id: 'id "with" quotes\\' }],
    ['a non-ASCII id', { id: 'm-é' }],
    ['extras', { extra: { request_id: 'req-1', approve: true, nested: { a: [1, 'é'] } } }],
    ['an extra that is undefined', { extra: { gone: undefined } }],
    ['a whole-second timestamp', { timestamp: 1796223784 }],
    ['a tiny timestamp', { timestamp: 1e-7 }],
    ['a negative timestamp', { timestamp: -1.5 }],
    ['a NaN timestamp', { timestamp: Number.NaN }],
    ['another type', { type: 'shutdown_request' as const }],
    ['a sender that is not a name', { from: 'x", "to": "mallory' }],
  ])('writes what messageToLine writes for %s', (_what, fields) => {
    const line = formatLine(message(fields))
    expect(line.text).toBe(`${messageToLine(message(fields))}\n`)
    expect(line.bytes).toBe(Buffer.byteLength(line.text))
  })

  it('gives each timestamp its own text when they alternate', () => {
    const times = [1.5, 2.25, 1.5, 3]
    expect(times.map((timestamp) => JSON.parse(formatLine(message({ timestamp })).text))).toEqual(
      times.map((timestamp) => expect.objectContaining({ timestamp })),
    )
  })
})
