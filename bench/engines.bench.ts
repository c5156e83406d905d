// Engines: what a teammate costs on Claude Code against the built-in engine, in the same run.
// Each engine gets a host of its own in a worker process (workers/engine-team.ts) with two idle
// teammates of that engine; the offline model server runs here. The warm-up teammate works a few
// times first (modules loaded, the sandbox up, the JIT warm), then the subject is measured:
// - working: mail wakes it and the server holds its model call open while the memory is read:
//   the host's RSS growth over its RSS before the subject worked, plus, for Claude Code, the RSS
//   of the process tree it launched (bwrap, bash, the sandbox's socat relays, `claude`);
// - idle: the same once its call was answered and it went idle;
// - wake: from mail sent to the idle subject to its first model request reaching the server.
// Environment: BENCH_ENGINES_WAKES (default 5).
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { OfflineModelServer } from '../src/offline-model/offline-server'
import { text, type Script } from '../src/offline-model/script'
import { locateClaudeCode } from '../src/runtime/engines/claude-code/availability'
import { probeSandbox } from '../src/runtime/tools/bash-sandbox'
import {
  BENCH,
  log,
  median,
  now,
  round,
  row,
  sleep,
  startNode,
  within,
  type BenchResult,
  type Child,
  type Row,
} from './lib/common'

const WAKES = Number(process.env.BENCH_ENGINES_WAKES ?? 5)
/** A model id Claude Code knows (it warns of one it does not); the built-in engine uses it too. */
const MODEL = 'claude-sonnet-4-5'
const REPLY_LIMIT_MS = 120_000
/** How long a working subject runs before its memory is read, and how often it is read then. */
const SETTLE_MS = 1000
const SAMPLES = 5
const SAMPLE_EVERY_MS = 200
const MB = 1024 * 1024

type Engine = 'builtin' | 'claude-code'

interface Memory {
  readonly rss: number
  readonly heapUsed: number
}

interface ProcessEntry {
  readonly pid: number
  readonly ppid: number
  readonly pgid: number
  readonly name: string
  readonly rssKB: number
  readonly pssKB: number
}

/** A reading of the processes a host started: Claude Code launches apart from the rest. */
interface ProcessReading {
  /** Every process of every Claude Code launch (a detached child of the host and all below it). */
  readonly launched: ProcessEntry[]
  readonly launchedRssMB: number
  readonly launchedPssMB: number
  /** The host's other children (the sandbox's network relay, tsx's esbuild): not counted. */
  readonly others: ProcessEntry[]
}

interface EngineMeasure {
  readonly engine: Engine
  /** The warm-up's first wake: the host's first activation (modules and the sandbox cold). */
  readonly coldWakeMs: number
  /** The subject's first wake (its first activation; for Claude Code, a new session). */
  readonly firstWakeMs: number
  /** Later wakes of the idle subject (for Claude Code, its session resumed). */
  readonly wakeMs: number[]
  readonly baseline: Memory
  readonly working: {
    host: Memory
    samples: ProcessReading[]
    launchedRssMB: number
    launchedPssMB: number
  }
  readonly idle: { host: Memory; reading: ProcessReading }
}

function kilobytes(text: string, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)
  return match ? Number(match[1]) : 0
}

/** Every process on the machine, from /proc (a process that ends while read is left out). */
function processTable(): ProcessEntry[] {
  return readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return []
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // The name, in parentheses, may hold spaces: fields are counted after its end.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      const status = readFileSync(`/proc/${entry}/status`, 'utf8')
      let pssKB = 0
      try {
        pssKB = kilobytes(readFileSync(`/proc/${entry}/smaps_rollup`, 'utf8'), 'Pss')
      } catch {
        // Not readable by this user: RSS alone.
      }
      return [
        {
          pid: Number(entry),
          ppid: Number(fields[1]),
          pgid: Number(fields[2]),
          name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
          rssKB: kilobytes(status, 'VmRSS'),
          pssKB,
        },
      ]
    } catch {
      return []
    }
  })
}

function below(table: readonly ProcessEntry[], roots: readonly ProcessEntry[]): ProcessEntry[] {
  const found = [...roots]
  for (let index = 0; index < found.length; index++) {
    const parent = found[index]?.pid
    found.push(...table.filter((entry) => entry.ppid === parent))
  }
  return found
}

/**
 * The processes under the host `hostPid`. A Claude Code launch is a detached child (the leader
 * of its own process group, so that the app can end it whole) with everything it started.
 */
function readProcesses(hostPid: number): ProcessReading {
  const table = processTable()
  const children = table.filter((entry) => entry.ppid === hostPid)
  const launched = below(
    table,
    children.filter((entry) => entry.pgid === entry.pid),
  )
  const others = below(
    table,
    children.filter((entry) => entry.pgid !== entry.pid),
  )
  const sum = (pick: (entry: ProcessEntry) => number) =>
    launched.reduce((total, entry) => total + pick(entry), 0) / 1024
  return {
    launched,
    launchedRssMB: sum((entry) => entry.rssKB),
    launchedPssMB: sum((entry) => entry.pssKB),
    others,
  }
}

/** Sends `cmd` (if any) to the worker and resolves with its next reply of `phase`. */
function ask<T>(worker: Child, phase: string, cmd?: string): Promise<T> {
  const reply = within(
    new Promise<T>((resolve, reject) => {
      const onMessage = (message: { phase?: string } & T) => {
        if (message.phase !== phase) return
        worker.process.off('message', onMessage)
        resolve(message)
      }
      worker.process.on('message', onMessage)
      void worker.exited.then((code) =>
        reject(new Error(`engine worker exited (${code}) before ${phase}: ${worker.stderr()}`)),
      )
    }),
    REPLY_LIMIT_MS,
    `engine worker phase ${phase}`,
  )
  if (cmd !== undefined) worker.process.send?.({ cmd })
  return reply
}

/**
 * The offline server's script for one worker: every call answered "Done.", the subject's held
 * open while `hold` is set, and when each call reached the script, per agent.
 */
function recordingScript(): {
  script: Script
  hold: { release: (() => void) | null; promise: Promise<void> | null }
  arrival: (agent: string, after: number) => Promise<number>
} {
  const arrivals: { agent: string | null; at: number }[] = []
  const waiters = new Set<() => void>()
  const hold: { release: (() => void) | null; promise: Promise<void> | null } = {
    release: null,
    promise: null,
  }
  const script: Script = async (_request, context) => {
    arrivals.push({ agent: context.agent, at: now() })
    for (const waiter of waiters) waiter()
    if (context.agent === 'subject' && hold.promise) await hold.promise
    return text('Done.')
  }
  const arrival = (agent: string, after: number): Promise<number> => {
    const find = () => arrivals.find((entry) => entry.agent === agent && entry.at >= after)?.at
    return within(
      new Promise<number>((resolve) => {
        const check = () => {
          const at = find()
          if (at === undefined) return
          waiters.delete(check)
          resolve(at)
        }
        waiters.add(check)
        check()
      }),
      REPLY_LIMIT_MS,
      `the first model request of ${agent}`,
    )
  }
  return { script, hold, arrival }
}

async function measure(engine: Engine): Promise<EngineMeasure> {
  const { script, hold, arrival } = recordingScript()
  const server = await OfflineModelServer.start({ script, apiKey: 'bench-key' })
  const worker = startNode(join(BENCH, 'workers', 'engine-team.ts'), [server.url, engine, MODEL], {
    ipc: true,
    nodeArgs: ['--import', 'tsx', '--expose-gc'],
  })
  try {
    // The worker sends both by itself, one after the other.
    const baselineReply = ask<{ memory: Memory }>(worker, 'baseline')
    const warm = await ask<{ sentAt: number; pid: number }>(worker, 'warm')
    const coldWakeMs = (await arrival('warmup', warm.sentAt)) - warm.sentAt
    const baseline = (await baselineReply).memory

    hold.promise = new Promise((resolve) => (hold.release = resolve))
    const sent = await ask<{ sentAt: number }>(worker, 'sent', 'work')
    const firstWakeMs = (await arrival('subject', sent.sentAt)) - sent.sentAt
    await sleep(SETTLE_MS)
    const samples: ProcessReading[] = []
    for (let index = 0; index < SAMPLES; index++) {
      samples.push(readProcesses(warm.pid))
      await sleep(SAMPLE_EVERY_MS)
    }
    const working = (await ask<{ memory: Memory }>(worker, 'memory', 'memory')).memory
    hold.release?.()
    hold.promise = null
    const idle = (await ask<{ memory: Memory }>(worker, 'idle', 'finish')).memory
    const idleReading = readProcesses(warm.pid)

    const wakeMs: number[] = []
    for (let index = 0; index < WAKES; index++) {
      const woken = await ask<{ sentAt: number }>(worker, 'woken', 'wake')
      wakeMs.push((await arrival('subject', woken.sentAt)) - woken.sentAt)
    }
    worker.process.send?.({ cmd: 'close' })
    await within(worker.exited, 30_000, 'engine worker exit')
    return {
      engine,
      coldWakeMs,
      firstWakeMs,
      wakeMs,
      baseline,
      working: {
        host: working,
        samples,
        launchedRssMB: median(samples.map((sample) => sample.launchedRssMB)),
        launchedPssMB: median(samples.map((sample) => sample.launchedPssMB)),
      },
      idle: { host: idle, reading: idleReading },
    }
  } finally {
    hold.release?.()
    await worker.stop()
    await server.close()
  }
}

/** The host's RSS growth over its baseline, in MB. */
function growth(measured: EngineMeasure, memory: Memory): number {
  return (memory.rss - measured.baseline.rss) / MB
}

function heapGrowth(measured: EngineMeasure, memory: Memory): number {
  return (memory.heapUsed - measured.baseline.heapUsed) / MB
}

function describeProcesses(entries: readonly ProcessEntry[]): string {
  if (entries.length === 0) return 'none'
  return entries.map((entry) => `${entry.name} ${round(entry.rssKB / 1024, 1)}`).join(', ')
}

function describe(measured: EngineMeasure): string {
  const last = measured.working.samples.at(-1)
  return `${measured.engine}: cold wake ${round(measured.coldWakeMs)} ms, first ${round(measured.firstWakeMs)} ms, wakes ${measured.wakeMs.map((ms) => round(ms)).join(', ')} ms; working: host +${round(growth(measured, measured.working.host))} MB, launched ${round(measured.working.launchedRssMB)} MB (${describeProcesses(last?.launched ?? [])}); idle: host +${round(growth(measured, measured.idle.host))} MB, launched ${round(measured.idle.reading.launchedRssMB)} MB in ${measured.idle.reading.launched.length} processes`
}

function rows(builtin: EngineMeasure, claude: EngineMeasure | string): Row[] {
  const builtinWorking = growth(builtin, builtin.working.host)
  const builtinIdle = growth(builtin, builtin.idle.host)
  const builtinWake = median(builtin.wakeMs)
  const reference = {
    working: {
      label: "built-in teammate working: the app's RSS growth",
      value: builtinWorking,
      unit: 'MB',
    },
    idle: { label: "idle built-in teammate: the app's RSS growth", value: builtinIdle, unit: 'MB' },
    wake: { label: 'built-in teammate, same', value: builtinWake, unit: 'ms' },
  }
  const figures = {
    working: "working Claude Code teammate: its processes' RSS + the app's growth",
    idle: "idle Claude Code teammate: its processes' RSS + the app's growth",
    wake: `mail to an idle teammate -> its first model request, Claude Code (median of ${WAKES})`,
  }
  if (typeof claude === 'string') {
    const skipped = { bench: 'engines', value: Number.NaN, note: `skipped: ${claude}` }
    return [
      row({ ...skipped, figure: figures.working, unit: 'MB', reference: reference.working }),
      row({ ...skipped, figure: figures.idle, unit: 'MB', reference: reference.idle }),
      row({ ...skipped, figure: figures.wake, unit: 'ms', reference: reference.wake }),
    ]
  }
  const working = claude.working
  const workingSample = working.samples.at(-1)
  const appWorking = growth(claude, working.host)
  const idle = claude.idle.reading
  const appIdle = growth(claude, claude.idle.host)
  const heap = (measured: EngineMeasure, memory: Memory) =>
    `${round(heapGrowth(measured, memory), 1)} MB`
  return [
    row({
      bench: 'engines',
      figure: figures.working,
      value: working.launchedRssMB + appWorking,
      unit: 'MB',
      reference: reference.working,
      note: `while the server holds its model call open: VmRSS summed over the ${workingSample?.launched.length ?? 0} processes of its launch (MB: ${describeProcesses(workingSample?.launched ?? [])}), median of ${SAMPLES} readings, ${round(working.launchedRssMB, 1)} MB (PSS ${round(working.launchedPssMB, 1)} MB), + the app's RSS growth over its RSS before the teammate first worked, ${round(appWorking, 1)} MB (JS heap ${heap(claude, working.host)}; built-in: ${heap(builtin, builtin.working.host)}, ${builtin.working.samples.at(-1)?.launched.length ?? 0} processes launched); not counted: the sandbox's network relay, one per app, which built-in teammates' bash uses too (MB: ${describeProcesses(workingSample?.others ?? [])})`,
    }),
    row({
      bench: 'engines',
      figure: figures.idle,
      value: idle.launchedRssMB + appIdle,
      unit: 'MB',
      reference: reference.idle,
      note: `once its turn ended: ${idle.launched.length} processes of its launch left, ${round(idle.launchedRssMB, 1)} MB (read from /proc, as above), + the app's RSS growth over its RSS before the teammate first worked, ${round(appIdle, 1)} MB (JS heap ${heap(claude, claude.idle.host)}; built-in: ${heap(builtin, builtin.idle.host)})`,
    }),
    row({
      bench: 'engines',
      figure: figures.wake,
      value: median(claude.wakeMs),
      unit: 'ms',
      reference: reference.wake,
      note: `until the server's script has the request (read and checked); Claude Code starts a process and resumes its session each time: ${claude.wakeMs.map((ms) => Math.round(ms)).join(', ')} ms (built-in: ${builtin.wakeMs.map((ms) => round(ms, 1)).join(', ')}); a teammate's first wake: ${Math.round(claude.firstWakeMs)} ms (built-in ${Math.round(builtin.firstWakeMs)}), the host's first: ${Math.round(claude.coldWakeMs)} ms (built-in ${Math.round(builtin.coldWakeMs)})`,
    }),
  ]
}

/** Why Claude Code cannot run here (its SDK or binary, or the OS sandbox), or null. */
function claudeCodeMissing(): string | null {
  const found = locateClaudeCode()
  if ('problem' in found) return found.problem
  const sandbox = probeSandbox()
  return sandbox.available
    ? null
    : `Claude Code runs only in the OS sandbox: ${sandbox.reason ?? 'there is none here'}`
}

export async function run(): Promise<BenchResult> {
  log('engines: the built-in engine')
  const builtin = await measure('builtin')
  log(`engines: ${describe(builtin)}`)
  const missing = claudeCodeMissing()
  let claude: EngineMeasure | string
  if (missing === null) {
    log('engines: Claude Code')
    claude = await measure('claude-code')
    log(`engines: ${describe(claude)}`)
  } else {
    log(`engines: Claude Code skipped: ${missing}`)
    claude = missing
  }
  return {
    name: 'engines',
    rows: rows(builtin, claude),
    details: { model: MODEL, wakes: WAKES, builtin, claudeCode: claude },
    notes: [],
  }
}
