// The control: a faithful port of the tutorial's read_inbox (read every line, then write the
// file empty), draining the same inbox the writers append to.
import { setTimeout as sleep } from 'node:timers/promises'
import { existsSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs'

const [inbox, journal, stopFile] = process.argv.slice(2) as [string, string, string]
process.stdout.write('ready\n')
for (;;) {
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
    // as a corrupt delivery instead, so that the run can go on and be counted.
    const records = lines.map((line) => {
      try {
        return JSON.stringify({ content: (JSON.parse(line) as { content: string }).content })
      } catch {
        return JSON.stringify({ content: `torn:${line}` })
      }
    })
    appendFileSync(journal, `${records.join('\n')}\n`)
    continue
  }
  if (stopping) break
  await sleep(2)
}
