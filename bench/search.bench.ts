// 7. Search across the team: query time on a team of 20 agents × 10,000 transcript records,
// through the runtime's TeamHistory (what the searchHistory command and `agent-teams search`
// run), next to a plain scan of the same text in the same run (what searching without an index,
// on each keystroke, would cost). Also: building the index once, and a record appended after it.
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { documentText, transcriptDocuments } from '../src/runtime/history/documents'
import { TeamHistory, type HistorySource } from '../src/runtime/history/team-history'
import type { SearchQuery } from '../src/shared/history'
import type { TranscriptRecord } from '../src/shared/transcript'
import { log, median, now, round, row, type BenchResult } from './lib/common'
import { longTranscript } from './lib/team-files'

const AGENTS = 20
const RECORDS = 10_000
const REPEATS = 7
/** A word said once, early in one transcript (the needle a person looks for). */
const NEEDLE = 'quetzalcoatl'

const QUERIES: { label: string; query: SearchQuery }[] = [
  { label: 'a rare word', query: { text: NEEDLE } },
  { label: 'two common words', query: { text: 'blank lines' } },
  { label: 'a word being typed (prefix)', query: { text: 'curs' } },
  {
    label: 'a word, one agent and a tool',
    query: { text: 'scan', agent: 'agent-7', tool: 'read_file' },
  },
]

/** What a search without an index does: every document's text, lowercased, looked through. */
function scan(transcripts: ReadonlyMap<string, TranscriptRecord[]>, text: string): number {
  const words = text.toLowerCase().split(/\s+/)
  let found = 0
  for (const [agent, records] of transcripts)
    for (const record of records)
      for (const document of transcriptDocuments(agent, record)) {
        const content = documentText(document).toLowerCase()
        if (words.every((word) => content.includes(word))) found++
      }
  return found
}

/** The heap in use once garbage is collected, in MB: what the index keeps alive. */
function heapMB(): number {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  gc()
  gc()
  return process.memoryUsage().heapUsed / 1024 ** 2
}

function timed<T>(work: () => T): { value: T; ms: number } {
  const start = now()
  const value = work()
  return { value, ms: now() - start }
}

export async function run(): Promise<BenchResult> {
  const empty = heapMB()
  const transcripts = new Map<string, TranscriptRecord[]>()
  for (let agent = 0; agent < AGENTS; agent++) {
    const records = longTranscript(RECORDS, `END-${agent}`)
    if (agent === 3) {
      const early = records[40]
      if (early?.kind === 'user') records[40] = { ...early, text: `${early.text} ${NEEDLE}` }
    }
    transcripts.set(`agent-${agent}`, records)
  }
  const source: HistorySource = {
    agents: () => [...transcripts.keys()],
    transcriptFrom: (agent, from) => transcripts.get(agent)?.slice(from) ?? [],
    inboxPage: async () => ({ entries: [], next: null }),
  }
  const beforeIndex = heapMB()
  const history = new TeamHistory(source)
  log(`search: building the index of ${AGENTS} × ${RECORDS} records`)
  const buildStart = now()
  await history.update()
  const buildMs = now() - buildStart
  const indexMB = heapMB() - beforeIndex
  log(
    `search: built in ${round(buildMs / 1000, 1)} s, ${history.size} documents, ${round(indexMB)} MB`,
  )

  const rows = []
  const details: Record<string, unknown> = {
    documents: history.size,
    buildMs: round(buildMs),
    indexMB: round(indexMB),
  }
  let slowest = 0
  let slowestScan = 0
  for (const { label, query } of QUERIES) {
    const times: number[] = []
    let total = 0
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      const start = now()
      total = (await history.search(query)).total
      times.push(now() - start)
    }
    const scans = [0, 1, 2].map(() => timed(() => scan(transcripts, query.text)).ms)
    const queryMs = median(times)
    const scanMs = median(scans)
    details[label] = {
      matches: total,
      queryMs: times.map((time) => round(time)),
      scanMs: scans.map((time) => round(time)),
    }
    if (queryMs > slowest) {
      slowest = queryMs
      slowestScan = scanMs
    }
    rows.push(
      row({
        bench: 'search',
        figure: `query, ${label} (${total.toLocaleString('en')} matches), ${AGENTS} × ${RECORDS.toLocaleString('en')} records`,
        value: queryMs,
        unit: 'ms',
        reference: { label: 'a plain scan of the same text', value: scanMs },
      }),
    )
  }
  rows.push(
    row({
      bench: 'search',
      figure: 'slowest query (median of its repeats)',
      value: slowest,
      unit: 'ms',
      reference: { label: 'a plain scan of the same text', value: slowestScan },
      target: '<= 100 ms and <= 0.25 x scan',
      pass: slowest <= 100 && slowest <= 0.25 * slowestScan,
    }),
  )

  rows.push(
    row({
      bench: 'search',
      figure: `index memory, ${AGENTS} × ${RECORDS.toLocaleString('en')} records (heap after GC)`,
      value: indexMB,
      unit: 'MB',
      reference: { label: 'the transcripts it indexes', value: beforeIndex - empty },
    }),
  )

  // One record appended after the index was built: it is added, not the whole team again.
  const appended = longTranscript(1, `appended-${NEEDLE}`)[0] as TranscriptRecord
  transcripts.get('agent-0')?.push({ ...appended, seq: RECORDS + 1 })
  const start = now()
  history.observe({ type: 'transcript-appended', agent: 'agent-0', record: appended })
  const found = (await history.search({ text: `appended ${NEEDLE}` })).total
  const appendMs = now() - start
  rows.push(
    row({
      bench: 'search',
      figure: 'a record appended, then found',
      value: appendMs,
      unit: 'ms',
      reference: { label: 'building the whole index', value: buildMs },
      note: found === 1 ? undefined : `found ${found} times`,
    }),
  )
  return { name: 'search', rows, details, notes: [] }
}
