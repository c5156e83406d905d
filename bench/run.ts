// `npm run bench`: every benchmark of issues 6 and 12 on this machine, each figure next to a
// reference measured in the same run. Prints the table and the diagnosis notes, writes
// bench/results.json (the table's rows, the notes and the machine: small, committed) and
// bench/tmp/details.json (every other figure and the profiles: large, ignored by git).
//   npm run bench                       all of them (about 6 minutes on 2 cores)
//   npm run bench -- mailbox runtime    some of them (search: query time on 20 × 10,000 records;
//                                       timeline: opening it on 20 × 10,000 records); the
//                                       others' rows are kept from bench/results.json
//   npm run bench -- --readme           also replace the table in README.md's "## Benchmarks"
// Environment: BENCH_STREAM_SECONDS (default 60), BENCH_MAILBOX_ROUNDS (3),
// BENCH_RUNTIME_SIZES (1,10,50,200), BENCH_RUNTIME_TURNS (20).
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { arch, cpus, loadavg, platform, release, totalmem } from 'node:os'
import { join } from 'node:path'
import * as prettier from 'prettier'
import { CHROMIUM, ownRenderer, type BrowserContext } from './lib/browser'
import { BENCH, ROOT, log, within, type BenchResult, type Row } from './lib/common'
import * as cli from './cli.bench'
import * as engines from './engines.bench'
import * as inboxScreen from './inbox-screen.bench'
import * as longSession from './long-session.bench'
import * as longTranscripts from './long-transcripts.bench'
import * as mailbox from './mailbox.bench'
import * as replay from './replay.bench'
import * as runtime from './runtime.bench'
import * as sandbox from './sandbox.bench'
import * as search from './search.bench'
import * as start from './start.bench'
import * as timeline from './timeline.bench'
import * as undo from './undo.bench'

type Bench = { run(context?: BrowserContext): Promise<BenchResult> }
const BENCHES: Record<string, { module: Bench; browser: boolean; limitMs: number }> = {
  mailbox: { module: mailbox, browser: false, limitMs: 6 * 60_000 },
  runtime: { module: runtime, browser: false, limitMs: 8 * 60_000 },
  'inbox-screen': { module: inboxScreen, browser: true, limitMs: 5 * 60_000 },
  'long-transcripts': { module: longTranscripts, browser: true, limitMs: 6 * 60_000 },
  start: { module: start, browser: true, limitMs: 4 * 60_000 },
  'long-session': { module: longSession, browser: false, limitMs: 6 * 60_000 },
  search: { module: search, browser: false, limitMs: 4 * 60_000 },
  cli: { module: cli, browser: false, limitMs: 5 * 60_000 },
  sandbox: { module: sandbox, browser: false, limitMs: 4 * 60_000 },
  engines: { module: engines, browser: false, limitMs: 4 * 60_000 },
  timeline: { module: timeline, browser: false, limitMs: 4 * 60_000 },
  undo: { module: undo, browser: false, limitMs: 5 * 60_000 },
  replay: { module: replay, browser: true, limitMs: 5 * 60_000 },
}

const args = process.argv.slice(2)
const updateReadme = args.includes('--readme')
const chosen = args.filter((arg) => !arg.startsWith('--'))
for (const name of chosen)
  if (!(name in BENCHES))
    throw new Error(`unknown benchmark "${name}"; choose from ${Object.keys(BENCHES).join(', ')}`)
const names = chosen.length > 0 ? chosen : Object.keys(BENCHES)

/** A benchmark's place in BENCHES (its rows' place in the table). */
function benchOrder(name: string): number {
  const index = Object.keys(BENCHES).indexOf(name)
  return index === -1 ? Number.MAX_SAFE_INTEGER : index
}

/**
 * What bench/results.json holds of the benchmarks not run now: their rows, entries and notes
 * (a note is a benchmark's when it starts with its name), so that running some of them keeps
 * the others' last figures, in results.json and in README's table.
 */
function keptFromLastRun(ran: readonly string[]): {
  rows: Row[]
  benchmarks: { name: string; seconds: number; error?: string }[]
  notes: string[]
} {
  const none = { rows: [], benchmarks: [], notes: [] }
  if (chosen.length === 0) return none
  let last: { rows?: Row[]; benchmarks?: { name: string; seconds: number }[]; notes?: string[] }
  try {
    last = JSON.parse(readFileSync(join(BENCH, 'results.json'), 'utf8')) as typeof last
  } catch {
    return none
  }
  const isRan = (name: string): boolean => ran.includes(name)
  return {
    rows: (last.rows ?? []).filter((entry) => !isRan(entry.bench)),
    benchmarks: (last.benchmarks ?? []).filter((entry) => !isRan(entry.name)),
    notes: (last.notes ?? []).filter((note) => !ran.some((name) => note.startsWith(name))),
  }
}

function chromiumVersion(): string {
  const result = spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8', timeout: 10_000 })
  return (result.stdout || result.stderr || 'unknown').trim()
}

function machine(): Record<string, unknown> {
  const list = cpus()
  return {
    cpus: list.length,
    cpuModel: list[0]?.model ?? 'unknown',
    memoryGB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${platform()} ${release()} ${arch()}`,
    chromium: chromiumVersion(),
    loadAverageAtStart: loadavg().map((value) => Math.round(value * 100) / 100),
  }
}

function number(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return 'n/a'
  const magnitude = Math.abs(value)
  if (magnitude >= 100 || Number.isInteger(value)) return Math.round(value).toLocaleString('en')
  if (magnitude >= 10) return value.toFixed(1)
  return value.toFixed(2)
}

function cells(entry: Row): string[] {
  const reference = entry.reference
    ? `${number(entry.reference.value)} ${entry.reference.unit} (${entry.reference.label})`
    : ''
  const result = entry.pass === undefined ? '' : entry.pass ? 'pass' : 'MISS'
  return [
    entry.bench,
    entry.figure + (entry.note ? ` [${entry.note}]` : ''),
    `${number(entry.value)} ${entry.unit}`,
    reference,
    entry.ratio === undefined || !Number.isFinite(entry.ratio) ? '' : `${number(entry.ratio)} x`,
    entry.target ?? '',
    result,
  ]
}

const HEADER = ['Benchmark', 'Figure', 'Value', 'Reference (same run)', 'Ratio', 'Target', 'Result']

function markdownTable(rows: readonly Row[]): string {
  const escape = (text: string) => text.replace(/\|/g, '\\|')
  return [
    `| ${HEADER.join(' | ')} |`,
    `| ${HEADER.map(() => '---').join(' | ')} |`,
    ...rows.map((entry) => `| ${cells(entry).map(escape).join(' | ')} |`),
  ].join('\n')
}

function textTable(rows: readonly Row[]): string {
  const body = rows.map(cells)
  const widths = HEADER.map((title, column) =>
    Math.min(
      column === 1 ? 70 : 60,
      Math.max(title.length, ...body.map((line) => (line[column] ?? '').length)),
    ),
  )
  const clip = (text: string, width: number) =>
    text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width)
  const line = (values: readonly string[]) =>
    values.map((value, column) => clip(value, widths[column] ?? 10)).join('  ')
  return [
    line(HEADER),
    widths.map((width) => '-'.repeat(width)).join('  '),
    ...body.map(line),
  ].join('\n')
}

const started = Date.now()
const info = machine()
log(`machine: ${JSON.stringify(info)}`)
let context: BrowserContext | undefined
if (names.some((name) => BENCHES[name]?.browser)) {
  log('building the renderer (npx electron-vite build --sourcemap)')
  const renderer = ownRenderer()
  context = { renderer }
}
const results: (BenchResult & { seconds: number; error?: string })[] = []
try {
  for (const name of names) {
    const bench = BENCHES[name]
    if (!bench) continue
    log(`== ${name}`)
    const begin = Date.now()
    try {
      const result = await within(bench.module.run(context), bench.limitMs, `benchmark ${name}`)
      results.push({ ...result, seconds: (Date.now() - begin) / 1000 })
    } catch (error) {
      const message = (error as Error).stack ?? String(error)
      log(`${name} failed: ${message}`)
      results.push({
        name,
        rows: [],
        details: {},
        notes: [],
        seconds: (Date.now() - begin) / 1000,
        error: message,
      })
    }
  }
} finally {
  context?.renderer.dispose()
}

const kept = keptFromLastRun(results.map((result) => result.name))
const rows = [...kept.rows, ...results.flatMap((result) => result.rows)].sort(
  (a, b) => benchOrder(a.bench) - benchOrder(b.bench),
)
const notes = [...kept.notes, ...results.flatMap((result) => result.notes)]
const seconds = (Date.now() - started) / 1000
const markdown = markdownTable(rows)
const machineAtEnd = {
  ...info,
  loadAverageAtEnd: loadavg().map((value) => Math.round(value * 100) / 100),
}
const date = new Date().toISOString()
const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`
// What a reader of the history needs to compare runs: kept in git, a few hundred lines.
writeFileSync(
  join(BENCH, 'results.json'),
  json({
    date,
    durationSeconds: Math.round(seconds),
    machine: machineAtEnd,
    benchmarks: [
      ...kept.benchmarks,
      ...results.map((result) => ({
        name: result.name,
        seconds: Math.round(result.seconds),
        ...(result.error === undefined ? {} : { error: result.error.split('\n')[0] }),
      })),
    ].sort((a, b) => benchOrder(a.name) - benchOrder(b.name)),
    rows,
    notes,
  }),
)
// Distributions, breakdowns, traces and profiles: thousands of lines that change every run.
mkdirSync(join(BENCH, 'tmp'), { recursive: true })
writeFileSync(join(BENCH, 'tmp', 'details.json'), json({ date, machine: machineAtEnd, results }))

if (updateReadme) {
  const readme = join(ROOT, 'README.md')
  const text = readFileSync(readme, 'utf8')
  const begin = '<!-- bench:begin -->'
  const end = '<!-- bench:end -->'
  const first = text.indexOf(begin)
  const last = text.indexOf(end)
  if (first !== -1 && last > first) {
    const stamp = `Measured ${new Date().toISOString().slice(0, 10)} on ${String(info.cpus)} × ${String(info.cpuModel)}, ${String(info.memoryGB)} GB, Node ${process.version}, ${String(info.chromium)}; load average at start ${(info.loadAverageAtStart as number[]).join(' ')}.`
    const updated = `${text.slice(0, first + begin.length)}\n${stamp}\n\n${markdown}\n\n${text.slice(last)}`
    // Formatted as `prettier --check .` (part of npm test) expects it.
    const options = (await prettier.resolveConfig(readme)) ?? {}
    writeFileSync(readme, await prettier.format(updated, { ...options, filepath: readme }))
  } else log('README.md has no <!-- bench:begin --> / <!-- bench:end --> markers; left as is')
}

process.stdout.write(`\n${textTable(rows)}\n\n`)
if (notes.length > 0)
  process.stdout.write(`What holds the misses back:\n- ${notes.join('\n- ')}\n\n`)
const failed = results.filter((result) => result.error)
for (const result of failed)
  process.stdout.write(`${result.name} FAILED: ${result.error?.split('\n')[0] ?? ''}\n`)
const met = rows.filter((entry) => entry.pass === true).length
const missed = rows.filter((entry) => entry.pass === false).length
process.stdout.write(
  `${met} targets met, ${missed} missed, ${failed.length} benchmarks failed; ${Math.round(seconds)} s; bench/results.json and bench/tmp/details.json written\n`,
)
// Handles (the esbuild service, sockets) may linger; the results are written.
process.exit(failed.length > 0 ? 1 : 0)
