// The physical limit of consuming: read the file's new bytes, split the lines, JSON.parse each,
// and count tags (to check that raw appends lose nothing). No cursor, no journal, no fsync.
import { setTimeout as sleep } from 'node:timers/promises'
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs'
import { tagOf } from '../../tests/stress/workers/content'
import { now, report } from '../lib/common'

const [file, expectedText, limitText] = process.argv.slice(2) as [string, string, string]
const expected = Number(expectedText)
const deadline = now() + Number(limitText)
const tags = new Map<string, number>()
let delivered = 0
let corrupt = 0
let first = 0
let last = 0
let offset = 0
let pending = ''
const chunk = Buffer.alloc(8 * 1024 * 1024)
const cpu = process.cpuUsage()
report({ type: 'ready' })
const start = now()
while (delivered < expected && now() < deadline) {
  if (!existsSync(file)) {
    await sleep(2)
    continue
  }
  const fd = openSync(file, 'r')
  const size = fstatSync(fd).size
  let got = 0
  while (offset < size) {
    const bytes = readSync(fd, chunk, 0, Math.min(chunk.length, size - offset), offset)
    if (bytes === 0) break
    offset += bytes
    got += bytes
    const text = pending + chunk.toString('utf8', 0, bytes)
    const end = text.lastIndexOf('\n')
    pending = text.slice(end + 1)
    if (end === -1) continue
    for (const line of text.slice(0, end).split('\n')) {
      if (line.length === 0) continue
      const tag = tagOf((JSON.parse(line) as { content: string }).content)
      if (tag === null) corrupt++
      else tags.set(tag, (tags.get(tag) ?? 0) + 1)
      delivered++
    }
  }
  closeSync(fd)
  if (got > 0) {
    if (first === 0) first = now()
    last = now()
  } else await sleep(2)
}
let duplicated = 0
for (const times of tags.values()) if (times > 1) duplicated += times - 1
const used = process.cpuUsage(cpu)
report({
  type: 'done',
  start,
  delivered,
  distinct: tags.size,
  duplicated,
  corrupt,
  first,
  last,
  cpuMs: (used.user + used.system) / 1000,
})
