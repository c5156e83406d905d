// A writer process of the mailbox benchmark. Waits for "go" on stdin (so start-up is not
// timed), then sends `count` messages of about 200 bytes into one inbox, and reports its times.
//   mailbox: Mailbox.send (validation, one O_APPEND write per line)
//   raw:     the same lines, built beforehand, appended with appendFileSync (the physical limit)
import { appendFileSync, mkdirSync } from 'node:fs'
import { messageToLine } from '../../src/shared/messages'
import { Mailbox } from '../../src/runtime/mailbox/mailbox'
import { TeamPaths } from '../../src/runtime/team/paths'
import { randomIds } from '../../src/runtime/system/clock'
import { contentFor } from '../../tests/stress/workers/content'
import { firstStdinLine, now, report } from '../lib/common'

const [mode, workspace, to, prefix, countText] = process.argv.slice(2) as [
  'mailbox' | 'raw',
  string,
  string,
  string,
  string,
]
const count = Number(countText)
const paths = new TeamPaths(workspace)
const mailbox = new Mailbox(paths, { members: () => [to] })

let lines: string[] = []
if (mode === 'raw') {
  const ids = randomIds()
  lines = Array.from(
    { length: count },
    (_, seq) =>
      `${messageToLine({
        id: ids.next('m'),
        type: 'message',
        from: 'user',
        to,
        content: contentFor(`${prefix}-${seq}`),
        timestamp: Date.now() / 1000,
        extra: {},
      })}\n`,
  )
  mkdirSync(paths.inboxDirectory, { recursive: true })
}
const inbox = paths.inbox(to)
report({ type: 'ready' })
await firstStdinLine()
const cpu = process.cpuUsage()
const start = now()
if (mode === 'raw') {
  for (const line of lines) appendFileSync(inbox, line)
} else {
  for (let seq = 0; seq < count; seq++)
    mailbox.send({ from: 'user', to, content: contentFor(`${prefix}-${seq}`) })
}
const end = now()
const used = process.cpuUsage(cpu)
report({ type: 'done', start, end, count, cpuMs: (used.user + used.system) / 1000 })
