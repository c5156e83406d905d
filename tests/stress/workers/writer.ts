// A stress writer: sends `count` messages to one inbox, and after each send returns appends the
// message's tag to its ack file. Killed and restarted at random by the test.
import { appendFileSync } from 'node:fs'
import { Mailbox } from '../../../src/runtime/mailbox/mailbox'
import { TeamPaths } from '../../../src/runtime/team/paths'
import { contentFor } from './content'

const [workspace, to, prefix, countText, ackFile] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
]
const mailbox = new Mailbox(new TeamPaths(workspace), { members: () => [to] })
const count = Number(countText)
process.stdout.write('ready\n')
for (let seq = 0; seq < count; seq++) {
  const tag = `${prefix}-${seq}`
  mailbox.send({ from: 'user', to, content: contentFor(tag) })
  appendFileSync(ackFile, `${tag}\n`)
}
