import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { run } from '../../helpers/processes'
import { appendRaw, s09Line, tempTeam } from '../../helpers/workspace'

/** The tutorial's MessageBus.send (s09), verbatim, driven from the command line. */
const TUTORIAL_SEND = `
import json, sys, time
from pathlib import Path

class MessageBus:
    def __init__(self, inbox_dir):
        self.dir = Path(inbox_dir)
        self.dir.mkdir(parents=True, exist_ok=True)

    def send(self, sender, to, content, msg_type="message", extra=None):
        msg = {"type": msg_type, "from": sender,
               "content": content, "timestamp": time.time()}
        if extra:
            msg.update(extra)
        with open(self.dir / f"{to}.jsonl", "a") as f:
            f.write(json.dumps(msg) + "\\n")

bus = MessageBus(sys.argv[1])
bus.send("lead", "alice", "Please review auth.py")
bus.send("bob", "alice", "café ☕ 你好 😀", "broadcast")
bus.send("lead", "alice", "Please stop", "shutdown_request", {"request_id": "req-42"})
bus.send("lead", "alice", "Approved", "plan_approval_response", {"request_id": "req-43", "approve": True, "feedback": None})
`

describe('lines written by other programs', () => {
  it('s09-only lines get the stable id p<segment>-<offset>, the same on every peek and at delivery', async () => {
    const team = tempTeam()
    const first = s09Line('one')
    const second = s09Line('two', 'bob')
    appendRaw(team.paths, 'alice', first + second)
    const expected = ['p1-0', `p1-${Buffer.byteLength(first)}`]
    const ids = async () =>
      (await team.mailbox.peek('alice')).entries.map((entry) => entry.message?.id)
    expect(await ids()).toEqual(expected)
    team.mailbox.send({ from: 'lead', to: 'alice', content: 'three' })
    expect((await ids()).slice(0, 2)).toEqual(expected)
    const consumer = team.consumer('alice')
    const batch = await consumer.poll()
    expect(batch.deliveries.map((delivery) => delivery.message.id)).toEqual([...expected, 'm-1'])
    expect(batch.deliveries[1]?.message).toEqual({
      id: expected[1],
      type: 'message',
      from: 'bob',
      to: 'alice',
      content: 'two',
      timestamp: 1700000000.5,
      extra: {},
    })
    consumer.commit(batch)
    expect((await ids()).slice(0, 2)).toEqual(expected)
  })

  it("the tutorial's own Python send code (python3, open(path, 'a'), json.dumps) is delivered", async () => {
    const team = tempTeam()
    const result = await run('python3', ['-c', TUTORIAL_SEND, team.paths.inboxDirectory])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    // json.dumps escapes non-ASCII by default: the file itself is pure ASCII.
    expect(readFileSync(team.paths.inbox('alice'), 'utf8')).toMatch(/caf\\u00e9/)
    const consumer = team.consumer('alice')
    const batch = await consumer.poll()
    expect(batch.rejections).toEqual([])
    expect(
      batch.deliveries.map(({ message }) => [
        message.type,
        message.from,
        message.content,
        message.extra,
      ]),
    ).toEqual([
      ['message', 'lead', 'Please review auth.py', {}],
      ['broadcast', 'bob', 'café ☕ 你好 😀', {}],
      ['shutdown_request', 'lead', 'Please stop', { request_id: 'req-42' }],
      [
        'plan_approval_response',
        'lead',
        'Approved',
        { request_id: 'req-43', approve: true, feedback: null },
      ],
    ])
    for (const { message } of batch.deliveries) {
      expect(message.id).toMatch(/^p1-\d+$/)
      expect(message.to).toBe('alice')
      // time.time(): seconds (not milliseconds) since the epoch, with a fraction.
      expect(message.timestamp).toBeGreaterThan(1.6e9)
      expect(message.timestamp).toBeLessThan(1e11)
      expect(Number.isInteger(message.timestamp)).toBe(false)
    }
    consumer.commit(batch)
    expect((await consumer.poll()).deliveries).toEqual([])
  })

  it('a line appended by a shell `echo >>` is delivered', async () => {
    const team = tempTeam()
    team.mailbox.send({ from: 'lead', to: 'alice', content: 'first' })
    const result = await run('sh', [
      '-c',
      `echo '{"type":"message","from":"user","content":"from the shell","timestamp":1}' >> "$1"`,
      'sh',
      team.paths.inbox('alice'),
    ])
    expect(result.code).toBe(0)
    const consumer = team.consumer('alice')
    expect((await consumer.poll()).deliveries.map((delivery) => delivery.message.content)).toEqual([
      'first',
      'from the shell',
    ])
  })
})
