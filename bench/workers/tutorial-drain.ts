// The tutorial's read_inbox, ported faithfully (read every line, then write the file empty), as
// in tests/stress/workers/tutorial-drain.ts, with the times the benchmark needs. Drains until
// the stop file exists and the inbox is empty, or the time limit.
import { setTimeout as sleep } from 'node:timers/promises'
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { now, report } from '../lib/common'

const [inbox, journal, stopFile, limitText] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
]
const deadline = now() + Number(limitText)
let delivered = 0
let first = 0
let last = 0
const cpu = process.cpuUsage()
report({ type: 'ready' })
const start = now()
while (now() < deadline) {
  const stopping = existsSync(stopFile)
  let text = ''
  if (existsSync(inbox)) {
    text = readFileSync(inbox, 'utf8')
    writeFileSync(inbox, '')
  }
  const lines = text
    .trim()
    .split('\n')
    .filter((line) => line.length > 0)
  if (lines.length > 0) {
    // The tutorial's json.loads raises on a torn line and kills the teammate; here it counts
    // as a corrupt delivery, so that the run goes on and is counted.
    const records = lines.map((line) => {
      try {
        return JSON.stringify({ content: (JSON.parse(line) as { content: string }).content })
      } catch {
        return JSON.stringify({ content: `torn:${line}` })
      }
    })
    appendFileSync(journal, `${records.join('\n')}\n`)
    if (first === 0) first = now()
    delivered += records.length
    last = now()
    continue
  }
  if (stopping) break
  await sleep(2)
}
const used = process.cpuUsage(cpu)
report({ type: 'done', start, delivered, first, last, cpuMs: (used.user + used.system) / 1000 })
