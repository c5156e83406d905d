// Browser mode for the benchmarks: `agent-teams serve` as a child process, Debian's Chromium
// through Playwright with the offline flags, the probes in every page, and a contract client
// over the server's WebSocket (to spawn and chat the way the UI does, without clicking).
import { setTimeout as sleep } from 'node:timers/promises'
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from '@playwright/test'
import { WebSocket } from 'ws'
import {
  BENCH,
  ROOT,
  now,
  removeDirectory,
  startNode,
  tempDirectory,
  within,
  type Child,
} from './common'
import type { CpuProfile, FrameResolver } from './profile'
import { SourceMap } from './sourcemap'

/** As in playwright.config.ts: only 127.0.0.1 and localhost resolve. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1, EXCLUDE localhost',
]
export const CHROMIUM = '/usr/bin/chromium'
const PROBES = join(BENCH, 'page', 'probes.js')

/**
 * Builds the renderer from the current sources, with source maps, into a folder of the
 * benchmark's own (out/ may be in use by other work); returns the folder to serve.
 */
export function buildRenderer(): { staticDirectory: string; dispose: () => void } {
  const directory = tempDirectory('renderer')
  const result = spawnSync(
    'npx',
    ['electron-vite', 'build', '--sourcemap', '--outDir', directory, '--logLevel', 'error'],
    { cwd: ROOT, encoding: 'utf8', timeout: 180_000 },
  )
  const staticDirectory = join(directory, 'renderer')
  if (result.status !== 0 || !existsSync(join(staticDirectory, 'index.html')))
    throw new Error(`npx electron-vite build failed:\n${result.stderr}${result.stdout}`)
  return { staticDirectory, dispose: () => removeDirectory(directory) }
}

export interface RendererBuild {
  readonly staticDirectory: string
  readonly resolve: FrameResolver
  dispose(): void
}

/** What the browser benchmarks share in one run: the renderer they serve. */
export interface BrowserContext {
  readonly renderer: RendererBuild
}

/** A renderer build of the benchmark's own (for a benchmark run alone). */
export function ownRenderer(): RendererBuild {
  const build = buildRenderer()
  return { ...build, resolve: rendererResolver(build.staticDirectory) }
}

/** Names the original file and function of a frame in the served (minified) renderer. */
export function rendererResolver(staticDirectory: string): FrameResolver {
  const maps = new Map<string, SourceMap | null>()
  return (url, line, column) => {
    const path = new URL(url).pathname
    if (!path.endsWith('.js')) return null
    let map = maps.get(path)
    if (map === undefined) {
      const file = join(staticDirectory, `${path}.map`)
      map = existsSync(file) ? new SourceMap(file) : null
      maps.set(path, map)
    }
    return map?.lookup(line, column) ?? null
  }
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true })
}

/** A page with the probes installed (and `config` as window.__benchConfig before them). */
export async function openPage(
  browser: Browser,
  config: Record<string, unknown> = {},
): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } })
  await context.addInitScript(`window.__benchConfig = ${JSON.stringify(config)};`)
  await context.addInitScript({ path: PROBES })
  return context.newPage()
}

export async function closePage(page: Page): Promise<void> {
  await page.context().close()
}

export interface Served {
  readonly url: string
  readonly origin: string
  readonly token: string
  readonly child: Child
  /** From spawn to the printed address, ms. */
  readonly readyMs: number
  stop(): Promise<void>
}

/**
 * `agent-teams serve --workspace DIR` as a person starts it, pointed at an offline model server
 * through the environment (ANTHROPIC_BASE_URL), with settings in a folder of its own.
 */
export async function startServe(options: {
  workspace: string
  modelUrl?: string
  timeoutMs?: number
  /** Serve this renderer through bench/serve.ts (default: the real CLI and out/renderer). */
  staticDirectory?: string
  nodeArgs?: readonly string[]
}): Promise<Served> {
  const configHome = tempDirectory('config')
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    XDG_CONFIG_HOME: configHome,
    XDG_DATA_HOME: join(configHome, 'data'),
  }
  for (const name of [
    'ANTHROPIC_API_KEY',
    'ANTHROPIC_AUTH_TOKEN',
    'ANTHROPIC_BASE_URL',
    'MODEL_ID',
  ])
    delete env[name]
  if (options.modelUrl) {
    env.ANTHROPIC_API_KEY = 'bench-key'
    env.ANTHROPIC_BASE_URL = options.modelUrl
    env.MODEL_ID = 'offline'
  }
  const start = now()
  const child = options.staticDirectory
    ? startNode(join(BENCH, 'serve.ts'), [options.workspace, options.staticDirectory], {
        env,
        nodeArgs: [...(options.nodeArgs ?? []), '--import', 'tsx'],
      })
    : // The benchmarks' teams are the person's own, written as an earlier run leaves them.
      startNode(
        join(ROOT, 'bin', 'agent-teams.mjs'),
        ['serve', '--workspace', options.workspace, '--trust-workspace'],
        { env, nodeArgs: options.nodeArgs },
      )
  const line = await child.line(
    (text) => text.includes('Agent Teams is running at'),
    options.timeoutMs ?? 60_000,
    'agent-teams serve',
  )
  const readyMs = now() - start
  const match = /(http:\/\/127\.0\.0\.1:(\d+)\/\?token=(\S+))/.exec(line)
  if (!match) throw new Error(`no address in: ${line}`)
  const [, url = '', port = '', token = ''] = match
  return {
    url,
    origin: `http://127.0.0.1:${port}`,
    token: decodeURIComponent(token),
    child,
    readyMs,
    stop: async () => {
      await child.stop(15_000)
      removeDirectory(configHome)
    },
  }
}

/** The contract over the server's WebSocket, as the page speaks it (src/shared/wire.ts). */
export class ContractClient {
  private nextId = 1
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >()

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as {
        kind: string
        id?: number
        ok?: boolean
        result?: unknown
        error?: { message: string }
      }
      if (frame.kind !== 'response' || frame.id === undefined) return
      const waiter = this.pending.get(frame.id)
      if (!waiter) return
      this.pending.delete(frame.id)
      if (frame.ok) waiter.resolve(frame.result)
      else waiter.reject(new Error(frame.error?.message ?? 'command failed'))
    })
  }

  static async connect(served: Served): Promise<ContractClient> {
    const socket = new WebSocket(
      `ws://${served.origin.slice('http://'.length)}/ws?token=${encodeURIComponent(served.token)}`,
      {
        origin: served.origin,
      },
    )
    await within(
      new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve())
        socket.once('error', reject)
      }),
      10_000,
      'contract WebSocket',
    )
    return new ContractClient(socket)
  }

  request<T = unknown>(command: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++
    const reply = new Promise<T>((resolve, reject) =>
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject }),
    )
    this.socket.send(JSON.stringify({ kind: 'request', id, command, params }))
    return within(reply, 30_000, `command ${command}`)
  }

  close(): void {
    this.socket.close()
  }
}

/**
 * Polls `expression` in the page until it is truthy (false at the time limit). Not
 * page.waitForFunction: with a string it evals inside the page, which the app's CSP refuses.
 */
export async function pollUntil(
  page: Page,
  expression: string,
  timeoutMs: number,
  everyMs = 50,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (await page.evaluate(expression)) return true
    if (Date.now() > deadline) return false
    await sleep(everyMs)
  }
}

/** JSHeapUsedSize of the page after a full GC, MB (Chromium's Performance domain). */
export async function pageHeapMB(page: Page): Promise<number> {
  const session = await page.context().newCDPSession(page)
  try {
    await session.send('HeapProfiler.enable')
    await session.send('HeapProfiler.collectGarbage')
    await session.send('Performance.enable')
    const { metrics } = await session.send('Performance.getMetrics')
    const used = metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? Number.NaN
    return used / 1048576
  } finally {
    await session.detach()
  }
}

/** Frames produced vs the 60 Hz frames that fit in the same time; long gaps count as drops. */
export function frameStats(frames: readonly number[]): {
  frames: number
  seconds: number
  fps: number
  dropped: number
  longestFrameMs: number
} {
  if (frames.length < 2)
    return { frames: frames.length, seconds: 0, fps: 0, dropped: 0, longestFrameMs: 0 }
  const interval = 1000 / 60
  let dropped = 0
  let longest = 0
  for (let index = 1; index < frames.length; index++) {
    const gap = (frames[index] as number) - (frames[index - 1] as number)
    longest = Math.max(longest, gap)
    dropped += Math.max(0, Math.round(gap / interval) - 1)
  }
  const seconds = ((frames[frames.length - 1] as number) - (frames[0] as number)) / 1000
  return {
    frames: frames.length,
    seconds,
    fps: (frames.length - 1) / seconds,
    dropped,
    longestFrameMs: longest,
  }
}

/** Long tasks (PerformanceObserver 'longtask') that started in [from, to] (page ms). */
export async function longTasksBetween(
  page: Page,
  from: number,
  to: number,
): Promise<{ count: number; longestMs: number; over50: number; totalMs: number }> {
  const tasks = (await page.evaluate('window.__bench.longTasks')) as {
    start: number
    duration: number
  }[]
  const inside = tasks.filter((task) => task.start >= from && task.start <= to)
  return {
    count: inside.length,
    longestMs: inside.reduce((longest, task) => Math.max(longest, task.duration), 0),
    over50: inside.filter((task) => task.duration > 50).length,
    totalMs: inside.reduce((sum, task) => sum + task.duration, 0),
  }
}

/** A JS CPU profile of the page (Chromium's Profiler domain) while `during` runs. */
export async function profilePage<T>(
  page: Page,
  during: () => Promise<T>,
): Promise<{ result: T; profile: unknown }> {
  const session = await page.context().newCDPSession(page)
  try {
    await session.send('Profiler.enable')
    await session.send('Profiler.setSamplingInterval', { interval: 250 })
    await session.send('Profiler.start')
    const result = await during()
    const { profile } = await session.send('Profiler.stop')
    return { result, profile }
  } finally {
    await session.detach()
  }
}

export interface TraceSummary {
  /** Main-thread time of the page's renderer by kind of work, ms (outermost events only). */
  readonly byKind: { kind: string; ms: number; share: number }[]
  readonly seconds: number
  readonly taskMs: number
  readonly tasksOver50: number
  readonly longestTaskMs: number
  /** The compositor's frames in the window, by what became of them (PipelineReporter). */
  readonly frames: { presented: number; dropped: number; noUpdate: number; other: number }
  /** DroppedFrame events: frames the renderer did not produce in time. */
  readonly droppedFrames: number
  /** Main-thread frames (BeginMainThreadFrame): how often the page could update at all. */
  readonly mainFrames: number
  /** Every Layout and style recalculation, nested ones (forced by script) included, ms. */
  readonly layoutAndStyleMs: number
  /** The longest tasks: when (s into the window) and what filled them, to say where they come from. */
  readonly longestTasks: LongTask[]
}

export interface LongTask {
  readonly atSeconds: number
  readonly ms: number
  /** Its time by kind of work (outermost events inside it), ms, largest first. */
  readonly kinds: { kind: string; ms: number }[]
}

/** How many of the longest tasks a summary describes. */
const LONGEST_KEPT = 3

const TRACE_KINDS: Record<string, string> = {
  FunctionCall: 'script',
  EvaluateScript: 'script',
  'v8.callFunction': 'script',
  TimerFire: 'script',
  FireAnimationFrame: 'script',
  EventDispatch: 'script',
  RunMicrotasks: 'script',
  BlinkScheduler_PerformMicrotaskCheckpoint: 'script',
  V8Execute: 'script',
  UpdateLayoutTree: 'style',
  RecalculateStyles: 'style',
  Layout: 'layout',
  PrePaint: 'paint',
  Paint: 'paint',
  Layerize: 'paint',
  UpdateLayer: 'paint',
  Commit: 'paint',
  ParseHTML: 'parse',
  MinorGC: 'gc',
  MajorGC: 'gc',
  'BlinkGC.AtomicPhase': 'gc',
}

function readTrace(buffer: Buffer): TraceEvent[] {
  return (JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents
}

/** The page's renderer main thread: the CrRendererMain with the most task time. */
function mainThread(events: readonly TraceEvent[]): { pid: number; tid: number } | null {
  const candidates = events
    .filter((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain')
    .map((event) => ({ pid: event.pid, tid: event.tid, busy: 0 }))
  for (const event of events) {
    if (event.name !== 'ThreadControllerImpl::RunTask' || event.dur === undefined) continue
    const candidate = candidates.find((each) => each.pid === event.pid && each.tid === event.tid)
    if (candidate) candidate.busy += event.dur
  }
  candidates.sort((a, b) => b.busy - a.busy)
  return candidates[0] ?? null
}

/**
 * Chromium's trace read the Performance panel's way, for the first `windowMs` of it: the
 * renderer's main-thread tasks (longest, over 50 ms), split into script, style, layout, paint
 * and GC; and what became of the compositor's frames. Works while the page is too busy to
 * answer anything itself.
 */
export function summarizeTrace(buffer: Buffer, windowMs = Number.POSITIVE_INFINITY): TraceSummary {
  const events = readTrace(buffer)
  const thread = mainThread(events)
  const mine = (event: TraceEvent) => thread !== null && event.pid === thread.pid
  const onMain = events
    .filter(
      (event) =>
        mine(event) && event.tid === thread?.tid && event.ph === 'X' && event.dur !== undefined,
    )
    // Outermost first when two begin together: a task before the events inside it.
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0))
  const start = onMain[0]?.ts ?? 0
  const end = start + windowMs * 1000
  const inside = (event: TraceEvent) => event.ts >= start && event.ts <= end
  const kinds = new Map<string, number>()
  let taskMs = 0
  let tasksOver50 = 0
  let longest = 0
  let coveredUntil = 0
  let last = start
  let layoutAndStyle = 0
  const tasks: { ts: number; end: number; ms: number; kinds: Map<string, number> }[] = []
  for (const event of onMain) {
    if (!inside(event)) continue
    const duration = (event.dur ?? 0) / 1000
    if (event.name === 'Layout' || event.name === 'UpdateLayoutTree') layoutAndStyle += duration
    last = Math.max(last, event.ts + (event.dur ?? 0))
    if (event.name === 'ThreadControllerImpl::RunTask' || event.name === 'RunTask') {
      taskMs += duration
      longest = Math.max(longest, duration)
      if (duration > 50) tasksOver50++
      tasks.push({ ts: event.ts, end: event.ts + (event.dur ?? 0), ms: duration, kinds: new Map() })
      continue
    }
    const kind = TRACE_KINDS[event.name]
    if (kind === undefined || event.ts < coveredUntil) continue
    coveredUntil = event.ts + (event.dur ?? 0)
    kinds.set(kind, (kinds.get(kind) ?? 0) + duration)
    // Events come sorted by start: the task that holds this one is the last one begun.
    const task = tasks[tasks.length - 1]
    if (task !== undefined && event.ts < task.end)
      task.kinds.set(kind, (task.kinds.get(kind) ?? 0) + duration)
  }
  const longestTasks = tasks
    .sort((a, b) => b.ms - a.ms)
    .slice(0, LONGEST_KEPT)
    .map((task) => ({
      atSeconds: Math.round((task.ts - start) / 1e5) / 10,
      ms: Math.round(task.ms),
      kinds: [...task.kinds]
        .sort((a, b) => b[1] - a[1])
        .map(([kind, ms]) => ({ kind, ms: Math.round(ms) })),
    }))
  const classified = [...kinds.values()].reduce((sum, ms) => sum + ms, 0)
  if (taskMs > classified) kinds.set('other (in tasks)', taskMs - classified)
  const frames = { presented: 0, dropped: 0, noUpdate: 0, other: 0 }
  let droppedFrames = 0
  let mainFrames = 0
  for (const event of events) {
    if (!mine(event) || !inside(event)) continue
    if (event.name === 'PipelineReporter' && event.ph === 'b') {
      const state = event.args?.frame_reporter?.state ?? ''
      if (state.startsWith('STATE_PRESENTED')) frames.presented++
      else if (state === 'STATE_DROPPED') frames.dropped++
      else if (state === 'STATE_NO_UPDATE_DESIRED') frames.noUpdate++
      else frames.other++
    } else if (event.name === 'DroppedFrame') droppedFrames++
    else if (event.name === 'BeginMainThreadFrame') mainFrames++
  }
  const total = Math.max(taskMs, classified)
  return {
    byKind: [...kinds]
      .sort((a, b) => b[1] - a[1])
      .map(([kind, ms]) => ({
        kind,
        ms: Math.round(ms),
        share: Math.round((1000 * ms) / total) / 10,
      })),
    seconds: (Math.min(end, last) - start) / 1e6,
    taskMs: Math.round(taskMs),
    tasksOver50,
    longestTaskMs: Math.round(longest),
    frames,
    droppedFrames,
    mainFrames,
    layoutAndStyleMs: Math.round(layoutAndStyle),
    longestTasks,
  }
}

/**
 * The JS samples of a trace taken with the v8.cpu_profiler category, as one CPU profile of the
 * page's main thread; `scripts` (scriptId -> URL, from the Debugger domain) names the files.
 */
export function traceCpuProfile(
  buffer: Buffer,
  scripts: ReadonlyMap<string, string>,
): CpuProfile | null {
  const events = readTrace(buffer)
  const thread = mainThread(events)
  if (thread === null) return null
  const nodes = new Map<
    number,
    { id: number; callFrame: CpuProfile['nodes'][number]['callFrame']; children: number[] }
  >()
  const parents = new Map<number, number>()
  const samples: number[] = []
  const timeDeltas: number[] = []
  // Scripts compiled while tracing name themselves in the trace.
  const known = new Map(scripts)
  for (const event of events) {
    const data = event.args?.data as { scriptId?: number | string; url?: string } | undefined
    if (event.pid === thread.pid && data?.scriptId !== undefined && data.url)
      known.set(String(data.scriptId), data.url)
  }
  for (const event of events) {
    if (event.name !== 'ProfileChunk' || event.pid !== thread.pid) continue
    const data = event.args?.data
    for (const node of data?.cpuProfile?.nodes ?? []) {
      const frame = node.callFrame
      nodes.set(node.id, {
        id: node.id,
        callFrame: {
          functionName: frame.functionName ?? '',
          url: frame.url ?? known.get(String(frame.scriptId)) ?? '',
          lineNumber: frame.lineNumber ?? -1,
          columnNumber: frame.columnNumber ?? -1,
        },
        children: [],
      })
      if (node.parent !== undefined) parents.set(node.id, node.parent)
    }
    samples.push(...(data?.cpuProfile?.samples ?? []))
    timeDeltas.push(...(data?.timeDeltas ?? []))
  }
  if (samples.length === 0) return null
  for (const [child, parent] of parents) nodes.get(parent)?.children.push(child)
  return { nodes: [...nodes.values()], samples, timeDeltas, startTime: 0, endTime: 0 }
}

/** scriptId -> URL of every script in the page (Debugger domain), to name a trace's samples. */
export async function scriptUrls(page: Page): Promise<Map<string, string>> {
  const session = await page.context().newCDPSession(page)
  const scripts = new Map<string, string>()
  session.on('Debugger.scriptParsed', (event) => scripts.set(event.scriptId, event.url))
  try {
    await session.send('Debugger.enable')
    await sleep(200)
    await session.send('Debugger.disable')
  } finally {
    await session.detach()
  }
  return scripts
}

interface TraceEvent {
  name: string
  ph: string
  ts: number
  dur?: number
  pid: number
  tid: number
  args?: {
    name?: string
    frame_reporter?: { state?: string }
    data?: {
      cpuProfile?: {
        nodes?: {
          id: number
          parent?: number
          callFrame: {
            functionName?: string
            url?: string
            scriptId?: number | string
            lineNumber?: number
            columnNumber?: number
          }
        }[]
        samples?: number[]
      }
      timeDeltas?: number[]
    }
  }
}

/** What the Performance panel records: tasks, frames, and (for attribution) JS samples. */
export const TRACE_CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
]
export const TRACE_CATEGORIES_WITH_JS = [...TRACE_CATEGORIES, 'disabled-by-default-v8.cpu_profiler']

export function describeTrace(summary: TraceSummary): string {
  const frames = summary.frames
  return `${summary.taskMs} ms of main-thread tasks in ${summary.seconds.toFixed(1)} s (longest ${summary.longestTaskMs} ms, ${summary.tasksOver50} over 50 ms): ${summary.byKind.map((entry) => `${entry.kind} ${entry.share} %`).join(', ')}; layout and style, forced ones included, ${summary.layoutAndStyleMs} ms; frames presented ${frames.presented}, dropped ${frames.dropped}; longest tasks ${summary.longestTasks.map(describeLongTask).join(', ')}`
}

function describeLongTask(task: LongTask): string {
  const inside = task.kinds.map((entry) => `${entry.kind} ${entry.ms}`).join(' + ')
  return `${task.ms} ms at ${task.atSeconds.toFixed(1)} s (${inside || 'unclassified'})`
}
