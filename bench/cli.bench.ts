// The CLI on large teams. `tasks list` as text on a board of 10,000 tasks with dependencies,
// against the same board listed as JSON (the same read, no text made); and the peak memory of
// `agent-teams export` on a transcript of about 300 MB, against the transcript's own size.
// Environment: BENCH_EXPORT_MB (default 300).
import { spawn } from 'node:child_process'
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  writeSync,
} from 'node:fs'
import { dirname } from 'node:path'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { main } from '../src/cli/main'
import { TeamPaths } from '../src/runtime/team/paths'
import type { TranscriptRecord } from '../src/shared/transcript'
import {
  bundleWorkers,
  log,
  median,
  now,
  removeDirectory,
  round,
  row,
  sleep,
  tempDirectory,
  type BenchResult,
  type Row,
} from './lib/common'
import { writeBoard } from './lib/task-files'
import { longTranscript, writeRoster } from './lib/team-files'

const TASKS = 10_000
const LIST_REPEATS = 3
/** The size of the exported transcript (BENCH_EXPORT_MB, default 300). */
const TRANSCRIPT_BYTES = Number(process.env.BENCH_EXPORT_MB ?? 300) * 1024 * 1024

/** Standard output that keeps nothing: the listing is measured, not the terminal. */
function discard(): Writable {
  return new Writable({ write: (_chunk, _encoding, done) => done() })
}

async function listingMs(workspace: string, json: boolean): Promise<number> {
  const times: number[] = []
  for (let repeat = 0; repeat < LIST_REPEATS; repeat++) {
    const start = now()
    const code = await main(
      ['tasks', 'list', '--workspace', workspace, ...(json ? ['--json'] : [])],
      { stdout: discard(), stderr: process.stderr },
    )
    times.push(now() - start)
    if (code !== 0) throw new Error(`tasks list exited ${code}`)
  }
  return median(times)
}

async function tasksList(): Promise<Row> {
  const workspace = tempDirectory('tasks')
  try {
    log(`cli: writing a board of ${TASKS.toLocaleString('en')} tasks`)
    writeBoard(workspace, TASKS)
    const json = await listingMs(workspace, true)
    const text = await listingMs(workspace, false)
    log(`cli: tasks list ${round(text)} ms as text, ${round(json)} ms as JSON`)
    return row({
      bench: 'cli',
      figure: `tasks list, text, ${TASKS.toLocaleString('en')} tasks`,
      value: text,
      unit: 'ms',
      reference: { label: 'tasks list --json, same board', value: json },
    })
  } finally {
    removeDirectory(workspace)
  }
}

/** alice's transcript of about `bytes`, written in batches (the records of long-transcripts). */
function writeLongTranscript(workspace: string, bytes: number): number {
  writeRoster(workspace, [{ name: 'alice', role: 'coder', status: 'idle' }])
  const path = new TeamPaths(workspace).transcript('alice')
  mkdirSync(dirname(path), { recursive: true })
  const fd = openSync(path, 'w')
  let written = 0
  let seq = 0
  try {
    while (written < bytes) {
      const batch = longTranscript(4000, '').map((record): TranscriptRecord => ({
        ...record,
        seq: ++seq,
      }))
      written += writeSync(fd, batch.map((record) => `${JSON.stringify(record)}\n`).join(''))
    }
  } finally {
    closeSync(fd)
  }
  return written
}

/** The peak resident memory of a process, in MB: GNU time's report, or /proc's high-water mark. */
async function peakRssMB(command: string, args: readonly string[]): Promise<number> {
  const timed = existsSync('/usr/bin/time')
  const child = timed
    ? spawn('/usr/bin/time', ['-f', 'peak-rss-kb %M', command, ...args], {
        stdio: ['ignore', 'ignore', 'pipe'],
      })
    : spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  let polledKb = 0
  const exited = new Promise<number | null>((done) => child.once('exit', done))
  let running = true
  void exited.then(() => (running = false))
  while (!timed && running) {
    const status = /VmHWM:\s+(\d+) kB/.exec(safeRead(`/proc/${child.pid}/status`))
    if (status) polledKb = Math.max(polledKb, Number(status[1]))
    await sleep(10)
  }
  const code = await exited
  if (code !== 0) throw new Error(`${args.join(' ')} exited ${code}: ${stderr.slice(-2000)}`)
  const reported = /peak-rss-kb (\d+)/.exec(stderr)
  return (timed ? Number(reported?.[1] ?? Number.NaN) : polledKb) / 1024
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return ''
  }
}

async function exportMemory(): Promise<Row[]> {
  const workspace = tempDirectory('export')
  const workers = await bundleWorkers(['cli'])
  try {
    log(`cli: writing a transcript of ${TRANSCRIPT_BYTES / 1024 ** 2} MB`)
    const size = writeLongTranscript(workspace, TRANSCRIPT_BYTES) / 1024 ** 2
    const rows: Row[] = []
    for (const format of ['md', 'jsonl']) {
      const out = join(workspace, `alice.${format}`)
      const start = now()
      const peak = await peakRssMB(process.execPath, [
        workers.path('cli'),
        'export',
        '--agent',
        'alice',
        '--format',
        format,
        '--out',
        out,
        '--workspace',
        workspace,
      ])
      const seconds = (now() - start) / 1000
      log(
        `cli: export ${format}: peak ${round(peak)} MB, ${round(seconds, 1)} s, wrote ${round(statSync(out).size / 1024 ** 2)} MB`,
      )
      rows.push(
        row({
          bench: 'cli',
          figure: `export --agent --format ${format}, peak RSS, ${Math.round(size)} MB transcript`,
          value: peak,
          unit: 'MB',
          reference: { label: 'the transcript file', value: size },
        }),
      )
    }
    return rows
  } finally {
    workers.dispose()
    removeDirectory(workspace)
  }
}

export async function run(): Promise<BenchResult> {
  const rows = [await tasksList(), ...(await exportMemory())]
  return { name: 'cli', rows, details: {}, notes: [] }
}
