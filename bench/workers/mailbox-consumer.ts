// The consumer of the mailbox benchmark, as an agent consumes: poll, record the batch durably
// (a journal line per message and the batch's end, fsynced), then commit the cursor. Exits once
// `expected` messages are in, or when the stop file exists and nothing is pending, or at the
// time limit; reports when deliveries began and ended.
import { setTimeout as sleep } from 'node:timers/promises'
import { existsSync } from 'node:fs'
import { Mailbox } from '../../src/runtime/mailbox/mailbox'
import { TeamPaths } from '../../src/runtime/team/paths'
import { appendBatch } from '../../tests/stress/workers/journal'
import { now, report } from '../lib/common'

const [workspace, name, journal, expectedText, stopFile, limitText] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string,
]
const expected = Number(expectedText)
const deadline = now() + Number(limitText)
const mailbox = new Mailbox(new TeamPaths(workspace), { members: () => [name] })
const consumer = mailbox.openConsumer(name)
let delivered = 0
let batches = 0
let first = 0
let last = 0
const cpu = process.cpuUsage()
report({ type: 'ready' })
const start = now()
while (delivered < expected && now() < deadline) {
  const stopping = existsSync(stopFile)
  const batch = await consumer.poll()
  if (batch.deliveries.length > 0 || batch.rejections.length > 0) {
    const lines = batch.deliveries.map((delivery) =>
      JSON.stringify({ id: delivery.message.id, content: delivery.message.content }),
    )
    appendBatch(journal, lines, batch.end)
    consumer.commit(batch)
    if (first === 0) first = now()
    delivered += batch.deliveries.length
    batches++
    last = now()
    continue
  }
  if (stopping) break
  await sleep(2)
}
consumer.close()
const used = process.cpuUsage(cpu)
report({
  type: 'done',
  start,
  delivered,
  batches,
  first,
  last,
  timedOut: delivered < expected && now() >= deadline,
  cpuMs: (used.user + used.system) / 1000,
})
