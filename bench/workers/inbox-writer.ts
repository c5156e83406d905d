// Another program writing to an inbox: after "go" on stdin, appends `count` s09-style lines to
// `file`, one every `intervalMs`, each carrying its key and the Date.now() of its append.
import { setTimeout as sleep } from 'node:timers/promises'
import { appendFileSync } from 'node:fs'
import { firstStdinLine, report } from '../lib/common'

const [file, countText, intervalText] = process.argv.slice(2) as [string, string, string]
const count = Number(countText)
const interval = Number(intervalText)
report({ type: 'ready' })
await firstStdinLine()
const start = performance.now()
for (let index = 0; index < count; index++) {
  // Paced from the start, so that a slow append does not push every later one back.
  const due = start + index * interval
  const wait = due - performance.now()
  if (wait > 0) await sleep(wait)
  const sent = Date.now()
  const line = {
    type: 'message',
    from: 'user',
    content: `S${index}@${sent} a line appended by another program`,
    timestamp: sent / 1000,
  }
  appendFileSync(file, `${JSON.stringify(line)}\n`)
}
report({ type: 'done', count })
