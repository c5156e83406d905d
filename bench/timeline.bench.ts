// The team's timeline (issue 27): opening it on a team of 20 agents × 10,000 transcript records
// (and an inbox of 500 messages each, and a board of 100 tasks), through readTimeline, the code
// the window's getTimeline and `agent-teams timeline` run. Nothing is cached between queries: each
// one opens and reads the files again (the operating system's page cache is warm, as it is for a
// team the app has just written). Figures: the window's first view (the newest 2,000 entries,
// the rest on scroll; and 5,000), the newest six hours, and the whole record, next to a plain read of the
// same files (read, split, JSON.parse), the floor of any reader that checks every line.
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { Mailbox } from '../src/runtime/mailbox/mailbox'
import { TaskBoard } from '../src/runtime/tasks/task-board'
import { TeamPaths } from '../src/runtime/team/paths'
import { readTimeline, type TimelineFiles } from '../src/runtime/timeline/read-timeline'
import type { TimelineQuery } from '../src/shared/timeline'
import {
  log,
  median,
  now,
  removeDirectory,
  round,
  row,
  tempDirectory,
  type BenchResult,
} from './lib/common'
import { longTranscript, writeRoster, writeTranscript } from './lib/team-files'

const AGENTS = 20
const RECORDS = 10_000
const MESSAGES = 500
const TASKS = 100
const REPEATS = 5
const TARGET_MS = 300
/** What the window asks for first: the newest entries, older ones as the person scrolls. */
const FIRST_VIEW = 2000

function makeTeam(workspace: string): TeamPaths {
  const names = Array.from({ length: AGENTS - 1 }, (_, index) => `agent-${index + 1}`)
  writeRoster(
    workspace,
    names.map((name) => ({ name, role: 'coder', status: 'idle' as const })),
  )
  const paths = new TeamPaths(workspace)
  for (const name of ['lead', ...names])
    writeTranscript(workspace, name, longTranscript(RECORDS, name))
  const mailbox = new Mailbox(paths, { members: () => names })
  for (const to of ['lead', ...names])
    for (let index = 0; index < MESSAGES; index++)
      mailbox.send({
        from: to === 'lead' ? 'agent-1' : 'lead',
        to,
        content: `Step ${index}: read the parser and report.`,
      })
  const board = new TaskBoard(paths.root)
  for (let index = 0; index < TASKS; index++) {
    const task = board.create({ subject: `Task ${index}`, by: 'lead' })
    board.claim(task.id, names[index % names.length] ?? 'agent-1', { exclusive: false })
  }
  return paths
}

/** Every line of every transcript and inbox read, split and parsed: the floor of a reader. */
function plainRead(paths: TeamPaths): number {
  let lines = 0
  for (const folder of [join(paths.root, 'transcripts'), paths.inboxDirectory])
    for (const file of readdirSync(folder)) {
      if (!file.endsWith('.jsonl')) continue
      for (const line of readFileSync(join(folder, file), 'utf8').split('\n'))
        if (line !== '') {
          JSON.parse(line)
          lines++
        }
    }
  return lines
}

async function timed(files: TimelineFiles, query: TimelineQuery) {
  const times: number[] = []
  let entries = 0
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    const start = now()
    entries = (await readTimeline(files, query)).entries.length
    times.push(now() - start)
  }
  return { ms: median(times), times: times.map((time) => round(time)), entries }
}

export async function run(): Promise<BenchResult> {
  const workspace = tempDirectory('timeline')
  try {
    log(`timeline: writing ${AGENTS} × ${RECORDS} records`)
    const paths = makeTeam(workspace)
    const files: TimelineFiles = {
      paths,
      prices: {},
      worktrees: () => {
        throw new Error('the bench team has no worktrees')
      },
    }
    const plainTimes: number[] = []
    let lines = 0
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      const start = now()
      lines = plainRead(paths)
      plainTimes.push(now() - start)
    }
    const plain = median(plainTimes)
    const newestAt = Date.now() / 1000
    const first = await timed(files, { limit: FIRST_VIEW })
    const larger = await timed(files, { limit: 5000 })
    const hours = await timed(files, { since: newestAt - 6 * 3600, limit: 250_000 })
    const whole = await timed(files, {})
    log(
      `timeline: first view ${round(first.ms)} ms, whole ${round(whole.ms)} ms, plain read ${round(plain)} ms`,
    )
    const reference = {
      label: `a plain read of the same files (${lines.toLocaleString('en')} lines parsed)`,
      value: plain,
    }
    const scale = `${AGENTS} × ${RECORDS.toLocaleString('en')} records`
    return {
      name: 'timeline',
      rows: [
        row({
          bench: 'timeline',
          figure: `open: the window's first view (the newest ${FIRST_VIEW.toLocaleString('en')} entries), ${scale}`,
          value: first.ms,
          unit: 'ms',
          reference,
          target: `<= ${TARGET_MS} ms`,
          pass: first.ms <= TARGET_MS,
        }),
        row({
          bench: 'timeline',
          figure: `open with the newest 5,000 entries, ${scale} [informative]`,
          value: larger.ms,
          unit: 'ms',
          reference,
        }),
        row({
          bench: 'timeline',
          figure: `the whole timeline (${whole.entries.toLocaleString('en')} entries), ${scale} [informative: the CLI without --since]`,
          value: whole.ms,
          unit: 'ms',
          reference,
        }),
        row({
          bench: 'timeline',
          figure: `the newest six hours (${hours.entries.toLocaleString('en')} entries: the whole run), ${scale} [informative]`,
          value: hours.ms,
          unit: 'ms',
          reference,
        }),
      ],
      details: {
        firstView: first,
        newestHours: hours,
        whole,
        plainReadMs: plainTimes.map((time) => round(time)),
      },
      notes: [],
    }
  } finally {
    removeDirectory(workspace)
  }
}
