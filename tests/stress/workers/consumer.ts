// A stress consumer: drains one inbox exactly as an agent does (poll, record durably, commit)
// until the stop file exists and nothing is pending. Killed and restarted at random by the test.
import { setTimeout as sleep } from 'node:timers/promises'
import { existsSync } from 'node:fs'
import { Mailbox } from '../../../src/runtime/mailbox/mailbox'
import { TeamPaths } from '../../../src/runtime/team/paths'
import { appendBatch, loadJournal } from './journal'

const [workspace, name, journal, stopFile] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
]
const state = loadJournal(journal)
const mailbox = new Mailbox(new TeamPaths(workspace), { members: () => [name] })
const consumer = mailbox.openConsumer(name, {
  recordedUpTo: state.recordedUpTo,
  recentIds: state.ids.slice(-20_000),
})
process.stdout.write('ready\n')

for (;;) {
  const stopping = existsSync(stopFile)
  const batch = await consumer.poll()
  if (batch.deliveries.length > 0 || batch.rejections.length > 0) {
    const lines = batch.deliveries.map((delivery) =>
      JSON.stringify({ id: delivery.message.id, content: delivery.message.content }),
    )
    appendBatch(journal, lines, batch.end)
    consumer.commit(batch)
    continue
  }
  if (stopping) break
  await sleep(2)
}
consumer.close()
