import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { Mailbox } from '../../../src/runtime/mailbox/mailbox'
import { messageToLine, parseMessageLine, type MailMessage } from '../../../src/shared/messages'
import { tempWorkspace } from '../../helpers/workspace'

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

/**
 * Lines exactly as the mailbox wrote them before it used JSON.stringify (a hand-built writer
 * for plain ASCII messages): the format on disk must not change, so these stay byte-equal to
 * what is written today and parse back to the same message.
 */
const GOLDEN: readonly (readonly [string, Partial<MailMessage>])[] = [
  [
    '{"v":1,"id":"m-mi8x2k3lq0001a1b2c3d4e5","type":"message","from":"lead","to":"alice","content":"Please review auth.py","timestamp":1796223784.123}',
    {},
  ],
  [
    '{"v":1,"id":"m-mi8x2k3lq0001a1b2c3d4e5","type":"message","from":"lead","to":"alice","content":"line\\nbreak \\"quoted\\" café ☕ \u2028","timestamp":1796223784.123}',
    { content: 'line\nbreak "quoted" café ☕ \u2028' },
  ],
  [
    '{"request_id":"req-1","v":1,"id":"m-mi8x2k3lq0001a1b2c3d4e5","type":"shutdown_request","from":"lead","to":"alice","content":"Please review auth.py","timestamp":1796223784.123}',
    { type: 'shutdown_request', extra: { request_id: 'req-1' } },
  ],
  [
    '{"v":1,"id":"m-mi8x2k3lq0001a1b2c3d4e5","type":"message","from":"lead","to":"alice","content":"Please review auth.py","timestamp":1796223784}',
    { timestamp: 1796223784 },
  ],
]

describe('the mailbox line format', () => {
  it.each(GOLDEN)('writes the same bytes as before and reads them back (%#)', (line, fields) => {
    expect(messageToLine(message(fields))).toBe(line)
    const verdict = parseMessageLine(line, 'alice', 'unused')
    expect(verdict).toEqual({ ok: true, message: message(fields) })
  })

  it('appends one such line, newline-terminated, for each send', () => {
    const { paths } = tempWorkspace('message-line-')
    let tick = 0
    const mailbox = new Mailbox(paths, {
      members: () => ['alice'],
      clock: { now: () => 1796223784123 },
      ids: { next: (prefix) => `${prefix}-${++tick}` },
    })
    mailbox.send({ from: 'lead', to: 'alice', content: 'a "quoted" café' })
    mailbox.send({ from: 'lead', to: 'alice', content: 'second' })
    const text = readFileSync(paths.inbox('alice'), 'utf8')
    expect(text).toBe(
      '{"v":1,"id":"m-1","type":"message","from":"lead","to":"alice","content":"a \\"quoted\\" café","timestamp":1796223784.123}\n' +
        '{"v":1,"id":"m-2","type":"message","from":"lead","to":"alice","content":"second","timestamp":1796223784.123}\n',
    )
  })
})
