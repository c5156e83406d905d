// 1. Mailbox: 4 writer processes x 25,000 messages of about 200 bytes into one inbox with one
// consumer, for our mailbox, the tutorial's drain, and raw appends (the physical limit).
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { randomIds } from '../src/runtime/system/clock'
import { appendOnceSync, writeFileAtomicSync } from '../src/runtime/fs/durable'
import { Mailbox } from '../src/runtime/mailbox/mailbox'
import { TeamPaths } from '../src/runtime/team/paths'
import { messageToLine, type MailMessage } from '../src/shared/messages'
import { appendBatch } from '../tests/stress/workers/journal'
import { contentFor, tagOf } from '../tests/stress/workers/content'
import {
  describeFunctions,
  readProfileDirectory,
  summarizeProfile,
  type ProfileSummary,
} from './lib/profile'
import {
  bundleWorkers,
  log,
  median,
  removeDirectory,
  row,
  startNode,
  tempDirectory,
  type BenchResult,
  within,
  type Child,
} from './lib/common'

const WRITERS = 4
const PER_WRITER = 25_000
const TOTAL = WRITERS * PER_WRITER
const ROUNDS = Number(process.env.BENCH_MAILBOX_ROUNDS ?? 3)
const INBOX = 'bob'
/** Bounds every process of a run. */
const RUN_LIMIT_MS = 120_000

type Workers = Awaited<ReturnType<typeof bundleWorkers>>

interface WriterDone {
  start: number
  end: number
  count: number
  cpuMs: number
}
interface ConsumerDone {
  start: number
  batches?: number
  delivered: number
  first: number
  last: number
  cpuMs: number
  duplicated?: number
  corrupt?: number
  timedOut?: boolean
}

interface RunFigures {
  sendRate: number
  consumeRate?: number
  delivered?: number
  lost?: number
  duplicated?: number
  corrupt?: number
  writerCpuUsPerMessage: number
  consumerCpuUsPerMessage?: number
  messagesPerBatch?: number
}

function tallyJournal(journal: string): { counts: Map<string, number>; corrupt: number } {
  const counts = new Map<string, number>()
  let corrupt = 0
  if (!existsSync(journal)) return { counts, corrupt }
  for (const line of readFileSync(journal, 'utf8').split('\n')) {
    if (line.length === 0) continue
    const record = JSON.parse(line) as { content?: string }
    if (record.content === undefined) continue
    const tag = tagOf(record.content)
    if (tag === null) corrupt++
    else counts.set(tag, (counts.get(tag) ?? 0) + 1)
  }
  return { counts, corrupt }
}

function lostAndDuplicated(counts: Map<string, number>): { lost: number; duplicated: number } {
  let lost = 0
  for (let writer = 0; writer < WRITERS; writer++)
    for (let seq = 0; seq < PER_WRITER; seq++) if (!counts.has(`w${writer}-${seq}`)) lost++
  let duplicated = 0
  for (const times of counts.values()) if (times > 1) duplicated += times - 1
  return { lost, duplicated }
}

async function startWriters(
  workers: Workers,
  mode: 'mailbox' | 'raw',
  workspace: string,
): Promise<Child[]> {
  const writers = Array.from({ length: WRITERS }, (_, index) =>
    startNode(workers.path('mailbox-writer'), [
      mode,
      workspace,
      INBOX,
      `w${index}`,
      String(PER_WRITER),
    ]),
  )
  await Promise.all(writers.map((writer) => writer.message('ready', 30_000)))
  return writers
}

async function finishWriters(writers: Child[]): Promise<WriterDone[]> {
  for (const writer of writers) {
    writer.send('go\n')
    writer.process.stdin?.end()
  }
  return Promise.all(writers.map((writer) => writer.message<WriterDone>('done', RUN_LIMIT_MS)))
}

function sendFigures(done: WriterDone[]): { start: number; rate: number; cpuUs: number } {
  const start = Math.min(...done.map((writer) => writer.start))
  const end = Math.max(...done.map((writer) => writer.end))
  const cpuMs = done.reduce((sum, writer) => sum + writer.cpuMs, 0)
  return { start, rate: TOTAL / ((end - start) / 1000), cpuUs: (cpuMs * 1000) / TOTAL }
}

/** One run: `sender` writers, and `consumer` reading the inbox meanwhile (or none). */
async function runOnce(
  workers: Workers,
  sender: 'mailbox' | 'raw',
  consumer: 'mailbox' | 'tutorial' | 'raw' | 'none',
  keep?: (inbox: string) => void,
): Promise<RunFigures> {
  // Every process of the run is bounded: writers and consumer by RUN_LIMIT_MS, exits by 30 s.
  const workspace = tempDirectory('mailbox')
  try {
    const paths = new TeamPaths(workspace)
    const journal = join(workspace, 'journal.jsonl')
    const stop = join(workspace, 'stop')
    let reader: Child | null = null
    if (consumer === 'mailbox')
      reader = startNode(workers.path('mailbox-consumer'), [
        workspace,
        INBOX,
        journal,
        String(TOTAL),
        stop,
        String(RUN_LIMIT_MS),
      ])
    else if (consumer === 'tutorial')
      reader = startNode(workers.path('tutorial-drain'), [
        paths.inbox(INBOX),
        journal,
        stop,
        String(RUN_LIMIT_MS),
      ])
    else if (consumer === 'raw')
      reader = startNode(workers.path('raw-reader'), [
        paths.inbox(INBOX),
        String(TOTAL),
        String(RUN_LIMIT_MS),
      ])
    await reader?.message('ready', 30_000)
    const writers = await startWriters(workers, sender, workspace)
    const sent = sendFigures(await finishWriters(writers))
    await within(Promise.all(writers.map((writer) => writer.exited)), 30_000, 'writers exit')
    writeFileSync(stop, '')
    const figures: RunFigures = { sendRate: sent.rate, writerCpuUsPerMessage: sent.cpuUs }
    if (reader !== null) {
      const done = await reader.message<ConsumerDone>('done', RUN_LIMIT_MS)
      await within(reader.exited, 30_000, 'consumer exit')
      figures.delivered = done.delivered
      figures.consumeRate = done.delivered / ((done.last - sent.start) / 1000)
      figures.consumerCpuUsPerMessage = (done.cpuMs * 1000) / Math.max(1, done.delivered)
      if (done.batches) figures.messagesPerBatch = done.delivered / done.batches
      if (consumer === 'raw') {
        figures.lost = TOTAL - (done.delivered - (done.duplicated ?? 0))
        figures.duplicated = done.duplicated ?? 0
        figures.corrupt = done.corrupt ?? 0
      } else {
        const { counts, corrupt } = tallyJournal(journal)
        Object.assign(figures, lostAndDuplicated(counts), { corrupt })
      }
    }
    keep?.(paths.inbox(INBOX))
    return figures
  } finally {
    removeDirectory(workspace)
  }
}

/** Consumes a full inbox of TOTAL lines that is already there: the consumer's own speed. */
async function drainBacklog(
  workers: Workers,
  inboxFile: string,
  consumer: 'mailbox' | 'raw',
): Promise<{ rate: number; cpuUsPerMessage: number; delivered: number }> {
  const workspace = tempDirectory('backlog')
  try {
    const paths = new TeamPaths(workspace)
    mkdirSync(paths.inboxDirectory, { recursive: true })
    copyFileSync(inboxFile, paths.inbox(INBOX))
    const journal = join(workspace, 'journal.jsonl')
    const reader =
      consumer === 'mailbox'
        ? startNode(workers.path('mailbox-consumer'), [
            workspace,
            INBOX,
            journal,
            String(TOTAL),
            join(workspace, 'stop'),
            String(RUN_LIMIT_MS),
          ])
        : startNode(workers.path('raw-reader'), [
            paths.inbox(INBOX),
            String(TOTAL),
            String(RUN_LIMIT_MS),
          ])
    await reader.message('ready', 30_000)
    const done = await reader.message<ConsumerDone & { first: number }>('done', RUN_LIMIT_MS)
    await within(reader.exited, 30_000, 'consumer exit')
    // From the consumer's start (opened, locked) to the last message recorded.
    return {
      rate: done.delivered / ((done.last - done.start) / 1000),
      cpuUsPerMessage: (done.cpuMs * 1000) / Math.max(1, done.delivered),
      delivered: done.delivered,
    }
  } finally {
    removeDirectory(workspace)
  }
}

/** Microseconds per call of `operation`, after a warm-up, in this process. */
function microsPerCall(operation: (index: number) => void, calls: number): number {
  for (let index = 0; index < Math.min(2000, calls); index++) operation(index)
  const start = performance.now()
  for (let index = 0; index < calls; index++) operation(index)
  return ((performance.now() - start) * 1000) / calls
}

/**
 * Where a send's and a commit's time goes, one writer, one process: each step of
 * Mailbox.send measured alone next to the whole send and a raw append.
 */
function decompose(): Record<string, number> {
  const workspace = tempDirectory('decompose')
  try {
    const paths = new TeamPaths(workspace)
    const mailbox = new Mailbox(paths, { members: () => [INBOX] })
    mkdirSync(paths.inboxDirectory, { recursive: true })
    const ids = randomIds()
    const message = (index: number): MailMessage => ({
      id: `m-${index}`,
      type: 'message',
      from: 'user',
      to: INBOX,
      content: contentFor(`d-${index}`),
      timestamp: Date.now() / 1000,
      extra: {},
    })
    const line = `${messageToLine(message(0))}\n`
    const calls = 20_000
    const raw = join(workspace, 'raw.jsonl')
    const cursor = join(workspace, 'cursor.json')
    const journal = join(workspace, 'journal.jsonl')
    return {
      rawAppendFileSyncUs: microsPerCall(() => appendFileSync(raw, line), calls),
      mailboxSendUs: microsPerCall(
        (index) => mailbox.send({ from: 'user', to: INBOX, content: contentFor(`s-${index}`) }),
        calls,
      ),
      randomIdUs: microsPerCall(() => ids.next('m'), calls),
      messageToLineUs: microsPerCall((index) => `${messageToLine(message(index))}\n`, calls),
      appendLineUs: microsPerCall(
        () => appendOnceSync(paths.inbox('carol'), line, { bytes: line.length }),
        calls,
      ),
      cursorWriteFileAtomicSyncUs: microsPerCall(
        (index) => writeFileAtomicSync(cursor, `{"v":1,"segment":1,"offset":${index}}\n`),
        200,
      ),
      journalAppendFsyncUs: microsPerCall(
        (index) => appendBatch(journal, [`{"id":"m-${index}"}`], { segment: 1, offset: index }),
        200,
      ),
    }
  } finally {
    removeDirectory(workspace)
  }
}

/** CPU profiles of one writer (25,000 sends) and of a backlog drain, read by source file. */
async function profiles(workers: Workers, backlogInbox: string): Promise<Record<string, unknown>> {
  const directory = tempDirectory('mailbox-prof')
  const workspace = tempDirectory('mailbox-prof-ws')
  try {
    const writerDir = join(directory, 'writer')
    const writer = startNode(
      workers.path('mailbox-writer'),
      ['mailbox', workspace, INBOX, 'w0', String(PER_WRITER)],
      { nodeArgs: ['--cpu-prof', '--cpu-prof-dir', writerDir] },
    )
    await writer.message('ready', 30_000)
    writer.send('go\n')
    writer.process.stdin?.end()
    await writer.message('done', RUN_LIMIT_MS)
    await within(writer.exited, 30_000, 'profiled writer exit')
    const consumerDir = join(directory, 'consumer')
    const drainSpace = tempDirectory('mailbox-prof-drain')
    try {
      const paths = new TeamPaths(drainSpace)
      mkdirSync(paths.inboxDirectory, { recursive: true })
      copyFileSync(backlogInbox, paths.inbox(INBOX))
      const consumer = startNode(
        workers.path('mailbox-consumer'),
        [
          drainSpace,
          INBOX,
          join(drainSpace, 'journal.jsonl'),
          String(TOTAL),
          join(drainSpace, 'stop'),
          String(RUN_LIMIT_MS),
        ],
        { nodeArgs: ['--cpu-prof', '--cpu-prof-dir', consumerDir] },
      )
      await consumer.message('done', RUN_LIMIT_MS)
      await within(consumer.exited, 30_000, 'profiled consumer exit')
    } finally {
      removeDirectory(drainSpace)
    }
    const summarize = (dir: string, worker: string) => {
      const [profile] = readProfileDirectory(dir)
      return profile ? summarizeProfile(profile, { bundles: [workers.path(worker)] }) : null
    }
    return {
      writer: summarize(writerDir, 'mailbox-writer'),
      consumer: summarize(consumerDir, 'mailbox-consumer'),
    }
  } finally {
    removeDirectory(directory)
    removeDirectory(workspace)
  }
}

export async function run(): Promise<BenchResult> {
  const workers = await bundleWorkers([
    'mailbox-writer',
    'mailbox-consumer',
    'tutorial-drain',
    'raw-reader',
  ])
  const runs: Record<string, RunFigures[]> = {
    rawWithReader: [],
    mailboxWithConsumer: [],
    tutorialDrain: [],
    rawSendOnly: [],
    mailboxSendOnly: [],
    mailboxWithRawReader: [],
  }
  let decomposition: Record<string, number>
  let profile: Record<string, unknown>
  const backlog: Record<string, { rate: number; cpuUsPerMessage: number; delivered: number }[]> = {
    mailbox: [],
    raw: [],
  }
  const keptInbox = join(tempDirectory('kept'), 'inbox.jsonl')
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      log(`mailbox: round ${round}/${ROUNDS}`)
      // Alternated, so that drift in the machine's speed hits every variant alike.
      runs.rawSendOnly?.push(await runOnce(workers, 'raw', 'none'))
      runs.mailboxSendOnly?.push(
        await runOnce(workers, 'mailbox', 'none', (inbox) => copyFileSync(inbox, keptInbox)),
      )
      backlog.mailbox?.push(await drainBacklog(workers, keptInbox, 'mailbox'))
      backlog.raw?.push(await drainBacklog(workers, keptInbox, 'raw'))
      runs.rawWithReader?.push(await runOnce(workers, 'raw', 'raw'))
      runs.mailboxWithConsumer?.push(await runOnce(workers, 'mailbox', 'mailbox'))
      runs.tutorialDrain?.push(await runOnce(workers, 'mailbox', 'tutorial'))
      runs.mailboxWithRawReader?.push(await runOnce(workers, 'mailbox', 'raw'))
    }
    log('mailbox: decomposition and profiles')
    decomposition = decompose()
    profile = await profiles(workers, keptInbox)
  } finally {
    workers.dispose()
    removeDirectory(join(keptInbox, '..'))
  }

  const med = (list: RunFigures[] | undefined, pick: (figures: RunFigures) => number | undefined) =>
    median((list ?? []).map((figures) => pick(figures) ?? Number.NaN))
  const sum = (list: RunFigures[] | undefined, pick: (figures: RunFigures) => number | undefined) =>
    (list ?? []).reduce((total, figures) => total + (pick(figures) ?? 0), 0)

  const rawSend = med(runs.rawWithReader, (f) => f.sendRate)
  const oursSend = med(runs.mailboxWithConsumer, (f) => f.sendRate)
  const tutorialSend = med(runs.tutorialDrain, (f) => f.sendRate)
  const rawConsume = med(runs.rawWithReader, (f) => f.consumeRate)
  const oursConsume = med(runs.mailboxWithConsumer, (f) => f.consumeRate)
  const tutorialConsume = med(runs.tutorialDrain, (f) => f.consumeRate)
  const rawAlone = med(runs.rawSendOnly, (f) => f.sendRate)
  const oursAlone = med(runs.mailboxSendOnly, (f) => f.sendRate)
  const backlogOurs = median((backlog.mailbox ?? []).map((b) => b.rate))
  const backlogRaw = median((backlog.raw ?? []).map((b) => b.rate))
  const oursLost = sum(runs.mailboxWithConsumer, (f) => f.lost)
  const oursDup = sum(runs.mailboxWithConsumer, (f) => f.duplicated)
  const tutorialLost = sum(runs.tutorialDrain, (f) => f.lost)
  const tutorialDup = sum(runs.tutorialDrain, (f) => f.duplicated)
  const rawLost = sum(runs.rawWithReader, (f) => f.lost)
  const rawDup = sum(runs.rawWithReader, (f) => f.duplicated)
  const sent = ROUNDS * TOTAL
  const rawRef = { label: 'raw appendFileSync, same lines', value: rawSend }

  const rows = [
    row({
      bench: 'mailbox',
      figure: 'send rate, 4 writers, consumer running',
      value: oursSend,
      unit: 'msg/s',
      reference: rawRef,
      target: '>= 0.80 x raw',
      pass: oursSend >= 0.8 * rawSend,
    }),
    row({
      bench: 'mailbox',
      figure: 'send rate, 4 writers, no consumer',
      value: oursAlone,
      unit: 'msg/s',
      reference: { label: 'raw appendFileSync, no reader', value: rawAlone },
      target: '>= 0.80 x raw',
      pass: oursAlone >= 0.8 * rawAlone,
    }),
    row({
      bench: 'mailbox',
      figure: 'consume rate while 4 writers send (first send to last recorded)',
      value: oursConsume,
      unit: 'msg/s',
      reference: { label: 'raw reader (read, split, JSON.parse)', value: rawConsume },
      target: '>= 0.80 x raw',
      pass: oursConsume >= 0.8 * rawConsume,
    }),
    row({
      bench: 'mailbox',
      figure: 'consume rate, 100,000-line backlog (poll, fsynced record, commit)',
      value: backlogOurs,
      unit: 'msg/s',
      reference: { label: 'raw reader on the same file', value: backlogRaw },
      note: 'informative: the consumer alone, without writers',
    }),
    row({
      bench: 'mailbox',
      figure: `lost / duplicated (of ${sent.toLocaleString('en')} sent)`,
      value: oursLost + oursDup,
      unit: 'msgs',
      reference: { label: `raw: lost ${rawLost}, duplicated ${rawDup}`, value: rawLost + rawDup },
      target: '0 lost, 0 duplicated',
      pass: oursLost === 0 && oursDup === 0,
      note: `ours: lost ${oursLost}, duplicated ${oursDup}`,
    }),
    row({
      bench: 'mailbox',
      figure: "tutorial's drain: send rate",
      value: tutorialSend,
      unit: 'msg/s',
      reference: rawRef,
    }),
    row({
      bench: 'mailbox',
      figure: "tutorial's drain: consume rate",
      value: tutorialConsume,
      unit: 'msg/s',
      reference: { label: 'raw reader', value: rawConsume },
    }),
    row({
      bench: 'mailbox',
      figure: "tutorial's drain: lost (duplicated)",
      value: tutorialLost,
      unit: 'msgs',
      reference: { label: 'ours: lost', value: oursLost },
      note: `${((100 * tutorialLost) / sent).toFixed(1)} % of ${sent.toLocaleString('en')} lost, ${tutorialDup} duplicated`,
    }),
  ]
  return {
    name: 'mailbox',
    rows,
    details: {
      writers: WRITERS,
      perWriter: PER_WRITER,
      rounds: ROUNDS,
      runs,
      backlog,
      decomposition,
      profile,
      sendWithRawReader: med(runs.mailboxWithRawReader, (f) => f.sendRate),
      writerCpuUsPerMessage: {
        mailbox: med(runs.mailboxSendOnly, (f) => f.writerCpuUsPerMessage),
        raw: med(runs.rawSendOnly, (f) => f.writerCpuUsPerMessage),
      },
    },
    notes: mailboxNotes(decomposition, profile),
  }
}

function mailboxNotes(parts: Record<string, number>, profile: Record<string, unknown>): string[] {
  const us = (key: string) => (parts[key] ?? Number.NaN).toFixed(1)
  const notes = [
    `mailbox: one send, alone in one process: Mailbox.send ${us('mailboxSendUs')} µs vs appendFileSync ${us('rawAppendFileSyncUs')} µs; inside it an id ${us('randomIdUs')} µs, the line (JSON.stringify of the record) ${us('messageToLineUs')} µs, the O_APPEND open/write/close ${us('appendLineUs')} µs; a consumer commit's cursor writeFileAtomicSync ${us('cursorWriteFileAtomicSyncUs')} µs (two fsyncs), a journal append + fsync ${us('journalAppendFsyncUs')} µs`,
  ]
  const writer = profile.writer as ProfileSummary | null | undefined
  const consumer = profile.consumer as ProfileSummary | null | undefined
  if (writer)
    notes.push(`mailbox: a writer process's CPU (25,000 sends): ${describeFunctions(writer, 7)}`)
  if (consumer)
    notes.push(
      `mailbox: the consumer's CPU (100,000-line backlog): ${describeFunctions(consumer, 7)}`,
    )
  return notes
}
