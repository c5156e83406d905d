// 2. Inbox to screen: a line appended to .team/inbox/<name>.jsonl by another process until it
// is painted in the inbox view (browser mode, Chromium); and a streamed text delta from the
// offline model until it is painted. Each next to a plain page fed the same way in the same
// browser (fs.watch or the SSE stream, relayed over a bare WebSocket).
import type { Browser, Page } from '@playwright/test'
import {
  ContractClient,
  describeTrace,
  ownRenderer,
  profilePage,
  summarizeTrace,
  TRACE_CATEGORIES,
  type TraceSummary,
  type BrowserContext,
  type RendererBuild,
  closePage,
  launchChromium,
  openPage,
  pollUntil,
  startServe,
  type Served,
} from './lib/browser'
import {
  bundleWorkers,
  log,
  median,
  now,
  percentile,
  removeDirectory,
  row,
  sleep,
  startNode,
  tempDirectory,
  type BenchResult,
  type Child,
  type Row,
} from './lib/common'
import { writeRoster } from './lib/team-files'
import {
  describeFunctions,
  describeOwners,
  readProfileDirectory,
  summarizeProfile,
  type CpuProfile,
  type ProfileSummary,
} from './lib/profile'
import { TeamPaths } from '../src/runtime/team/paths'

const MESSAGES = 200
const WARM_UP = 10
const INTERVAL_MS = 50
const DELTA_EVENT_DELAY_MS = 25
/** `[iii|<13 digits>] `: one stamped chunk a delta. */
const CHUNK_CHARACTERS = 20
const INBOX_PATTERN = 'S(\\d+)@(\\d{13})'
const DELTA_PATTERN = '\\[(\\d{3})\\|(\\d{13})\\]'
const WAIT_MS = 60_000
const PROFILED_MESSAGES = 100

type Workers = Awaited<ReturnType<typeof bundleWorkers>>

interface Stamp {
  key: string
  id: string
  sent: number
  dom: number
  paint: number
}
interface Frame {
  at: number
  text: string
}

async function watch(page: Page, scope: string, pattern: string): Promise<void> {
  // A string, not a function: what tsx compiles a function into may not run in the page.
  await page.evaluate(
    `window.__bench.watchStamps(${JSON.stringify(scope)}, ${JSON.stringify(pattern)})`,
  )
}

/** Waits until `count` new stamps are painted (or the time is up); returns every one seen. */
async function collect(page: Page, count: number): Promise<Stamp[]> {
  await pollUntil(page, `window.__bench.stamps.painted() >= ${count}`, WAIT_MS, 100)
  await sleep(100)
  return (await page.evaluate('window.__bench.stamps.stop()')) as Stamp[]
}

async function recordSocket(
  page: Page,
  on: boolean,
): Promise<{ received: Frame[]; sent: Frame[] }> {
  return (await page.evaluate(
    `(() => { const s = window.__bench.socket; s.recording = ${on}; const out = { received: s.received, sent: s.sent }; if (${on}) { s.received = []; s.sent = [] } return out })()`,
  )) as { received: Frame[]; sent: Frame[] }
}

function latencies(stamps: readonly Stamp[], minimumId = 0): { paint: number[]; dom: number[] } {
  const measured = stamps.filter((stamp) => Number(stamp.id) >= minimumId && stamp.paint > 0)
  return {
    paint: measured.map((stamp) => stamp.paint - stamp.sent),
    dom: measured.map((stamp) => stamp.dom - stamp.sent),
  }
}

function summary(values: readonly number[]): { p50: number; p95: number; p99: number; n: number } {
  return {
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    p99: percentile(values, 99),
    n: values.length,
  }
}

function firstAfter(
  frames: readonly Frame[],
  at: number,
  test: (text: string) => boolean,
): number | null {
  for (const frame of frames) if (frame.at >= at && test(frame.text)) return frame.at
  return null
}

/** The inbox latency split into its legs, from the page's WebSocket log. */
function inboxLegs(stamps: readonly Stamp[], socket: { received: Frame[]; sent: Frame[] }) {
  const legs = {
    event: [] as number[],
    request: [] as number[],
    response: [] as number[],
    render: [] as number[],
    paint: [] as number[],
  }
  for (const stamp of stamps) {
    if (Number(stamp.id) < WARM_UP || stamp.paint === 0) continue
    const event = firstAfter(socket.received, stamp.sent - 1, (text) =>
      text.includes('"inbox-changed"'),
    )
    if (event === null) continue
    const request = firstAfter(socket.sent, event, (text) => text.includes('"getInbox"'))
    if (request === null) continue
    const response = firstAfter(socket.received, request, (text) => text.includes(stamp.key))
    if (response === null || response > stamp.dom) continue
    legs.event.push(event - stamp.sent)
    legs.request.push(request - event)
    legs.response.push(response - request)
    legs.render.push(stamp.dom - response)
    legs.paint.push(stamp.paint - stamp.dom)
  }
  return Object.fromEntries(
    Object.entries(legs).map(([leg, values]) => [leg, { p50: median(values), n: values.length }]),
  )
}

function deltaLegs(stamps: readonly Stamp[], socket: { received: Frame[] }) {
  const legs = { socket: [] as number[], render: [] as number[], paint: [] as number[] }
  for (const stamp of stamps) {
    if (stamp.paint === 0) continue
    const frame = firstAfter(socket.received, stamp.sent - 1, (text) => text.includes(stamp.key))
    if (frame === null || frame > stamp.dom) continue
    legs.socket.push(frame - stamp.sent)
    legs.render.push(stamp.dom - frame)
    legs.paint.push(stamp.paint - stamp.dom)
  }
  return Object.fromEntries(
    Object.entries(legs).map(([leg, values]) => [leg, { p50: median(values), n: values.length }]),
  )
}

async function startWriter(workers: Workers, file: string): Promise<Child> {
  const writer = startNode(workers.path('inbox-writer'), [
    file,
    String(MESSAGES + WARM_UP),
    String(INTERVAL_MS),
  ])
  await writer.message('ready', 30_000)
  return writer
}

async function inboxToScreen(workers: Workers, page: Page, served: Served, workspace: string) {
  const inbox = new TeamPaths(workspace).inbox('reader')
  await page
    .locator('[data-testid="roster-item-reader"]')
    .getByRole('button', { name: 'Message' })
    .click()
  await page.getByText('No messages yet').waitFor({ timeout: 30_000 })
  void served
  await watch(page, '.inbox-list', INBOX_PATTERN)
  await recordSocket(page, true)
  const writer = await startWriter(workers, inbox)
  writer.send('go\n')
  writer.process.stdin?.end()
  const stamps = await collect(page, MESSAGES + WARM_UP)
  const socket = await recordSocket(page, false)
  await writer.stop()
  return { stamps, socket }
}

async function deltaToScreen(page: Page, client: ContractClient) {
  // A short warm-up turn first, then the measured one: 200 deltas, DELTA_EVENT_DELAY_MS apart.
  await watch(page, '[data-testid="transcript"]', DELTA_PATTERN)
  await client.request('chat', { text: `STAMPS ${WARM_UP}` })
  await collect(page, WARM_UP)
  await sleep(500)
  await watch(page, '[data-testid="transcript"]', DELTA_PATTERN)
  await recordSocket(page, true)
  await client.request('chat', { text: `STAMPS ${MESSAGES}` })
  const stamps = await collect(page, MESSAGES)
  const socket = await recordSocket(page, false)
  return { stamps, socket }
}

/**
 * What one timestamp and one token count cost to format in this Chromium: with a new Intl
 * formatter inside every toLocale*String call (what src/renderer/ui/format.ts did before
 * it kept its formatters) next to a formatter made once.
 */
async function formattingCost(page: Page): Promise<Record<string, number>> {
  return (await page.evaluate(`(() => {
    const calls = 2000
    const options = { hour: '2-digit', minute: '2-digit', second: '2-digit' }
    const time = (run) => { const start = performance.now(); for (let i = 0; i < calls; i++) run(i); return ((performance.now() - start) * 1000) / calls }
    const formatMillis = (millis) => { const date = new Date(millis); return date.toDateString() === new Date().toDateString() ? date.toLocaleTimeString(undefined, options) : date.toLocaleString() }
    const cached = new Intl.DateTimeFormat(undefined, options)
    const numbers = new Intl.NumberFormat()
    return {
      formatMillisUs: time((i) => formatMillis(Date.now() - i)),
      cachedDateTimeFormatUs: time((i) => cached.format(Date.now() - i)),
      numberToLocaleStringUs: time((i) => (123456 + i).toLocaleString()),
      cachedNumberFormatUs: time((i) => numbers.format(123456 + i)),
    }
  })()`)) as Record<string, number>
}

async function plainReferences(workers: Workers, page: Page, modelUrl: string) {
  const directory = tempDirectory('relay')
  const file = `${directory}/inbox.jsonl`
  const fileRelay = startNode(workers.path('plain-relay'), ['file', file])
  const sseRelay = startNode(workers.path('plain-relay'), ['sse', modelUrl])
  try {
    const { url: fileUrl } = await fileRelay.message<{ url: string }>('listening', 30_000)
    await page.goto(fileUrl)
    await pollUntil(page, 'document.title === "connected"', 30_000)
    await watch(page, '#out', INBOX_PATTERN)
    const writer = await startWriter(workers, file)
    writer.send('go\n')
    writer.process.stdin?.end()
    const inbox = await collect(page, MESSAGES + WARM_UP)
    await writer.stop()

    const { url: sseUrl } = await sseRelay.message<{ url: string }>('listening', 30_000)
    await page.goto(sseUrl)
    await pollUntil(page, 'document.title === "connected"', 30_000)
    await watch(page, '#out', DELTA_PATTERN)
    sseRelay.send(`go ${WARM_UP}\n`)
    await collect(page, WARM_UP)
    await watch(page, '#out', DELTA_PATTERN)
    sseRelay.send(`go ${MESSAGES}\n`)
    const deltas = await collect(page, MESSAGES)
    return { inbox, deltas }
  } finally {
    await fileRelay.stop()
    await sseRelay.stop()
    removeDirectory(directory)
  }
}

/**
 * The same inbox run again (fewer lines) with both sides profiled: the server with
 * --cpu-prof, the page with Chromium's profiler; read by source file (source maps).
 */
async function profiledInboxPass(
  workers: Workers,
  browser: Browser,
  modelUrl: string,
  renderer: RendererBuild,
): Promise<{
  server: ProfileSummary | null
  page: ProfileSummary | null
  trace: TraceSummary | null
}> {
  const workspace = tempDirectory('inbox-prof')
  const profileDir = tempDirectory('inbox-prof-out')
  let served: Served | null = null
  try {
    writeRoster(workspace, [{ name: 'reader', role: 'listener', status: 'idle' }])
    const spawnedAt = now()
    served = await startServe({
      workspace,
      modelUrl,
      staticDirectory: renderer.staticDirectory,
      nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profileDir],
    })
    const page = await openPage(browser)
    await page.goto(served.url)
    await page
      .locator('[data-testid="roster-item-reader"]')
      .getByRole('button', { name: 'Message' })
      .click()
    await page.getByText('No messages yet').waitFor({ timeout: 30_000 })
    await watch(page, '.inbox-list', INBOX_PATTERN)
    const writer = startNode(workers.path('inbox-writer'), [
      new TeamPaths(workspace).inbox('reader'),
      String(PROFILED_MESSAGES),
      String(INTERVAL_MS),
    ])
    await writer.message('ready', 30_000)
    await browser.startTracing(page, { categories: TRACE_CATEGORIES })
    const startedAt = now()
    const { profile } = await profilePage(page, async () => {
      writer.send('go\n')
      writer.process.stdin?.end()
      return collect(page, PROFILED_MESSAGES)
    })
    const trace = summarizeTrace(await browser.stopTracing())
    await writer.stop()
    await closePage(page)
    await served.stop()
    served = null
    const [serverProfile] = readProfileDirectory(profileDir)
    return {
      server: serverProfile
        ? summarizeProfile(serverProfile, { top: 20, skipFirstMs: startedAt - spawnedAt })
        : null,
      page: summarizeProfile(profile as CpuProfile, { resolve: renderer.resolve, top: 20 }),
      trace,
    }
  } finally {
    await served?.stop()
    removeDirectory(workspace)
    removeDirectory(profileDir)
  }
}

export async function run(context?: BrowserContext): Promise<BenchResult> {
  const renderer = context?.renderer ?? ownRenderer()
  const workers = await bundleWorkers(['offline-model', 'inbox-writer', 'plain-relay'])
  const model = startNode(
    workers.path('offline-model'),
    [
      JSON.stringify({
        mode: 'ui',
        eventDelayMs: DELTA_EVENT_DELAY_MS,
        chunkCharacters: CHUNK_CHARACTERS,
      }),
    ],
    { ipc: true },
  )
  const workspace = tempDirectory('inbox-screen')
  const browser = await launchChromium()
  let served: Served | null = null
  const pageErrors: string[] = []
  try {
    const { url: modelUrl } = await model.message<{ url: string }>('listening', 30_000)
    writeRoster(workspace, [{ name: 'reader', role: 'listener', status: 'idle' }])
    served = await startServe({ workspace, modelUrl, staticDirectory: renderer.staticDirectory })
    const page = await openPage(browser)
    page.on('pageerror', (error) => pageErrors.push(error.message))
    await page.goto(served.url)
    await page.locator('[data-testid="roster-item-reader"]').waitFor({ timeout: 30_000 })
    const client = await ContractClient.connect(served)
    log('inbox-screen: streamed deltas')
    const deltas = await deltaToScreen(page, client)
    log('inbox-screen: inbox lines')
    const inbox = await inboxToScreen(workers, page, served, workspace)
    client.close()
    const formatting = await formattingCost(page)
    await closePage(page)
    log('inbox-screen: plain-page references')
    const referencePage = await openPage(browser)
    const reference = await plainReferences(workers, referencePage, modelUrl)
    await closePage(referencePage)
    log('inbox-screen: profiled pass')
    const profiles = await profiledInboxPass(workers, browser, modelUrl, renderer)

    const ours = {
      inbox: latencies(inbox.stamps, WARM_UP),
      deltas: latencies(deltas.stamps),
    }
    const plain = {
      inbox: latencies(reference.inbox, WARM_UP),
      deltas: latencies(reference.deltas),
    }
    const inboxSummary = summary(ours.inbox.paint)
    const deltaSummary = summary(ours.deltas.paint)
    const plainInbox = summary(plain.inbox.paint)
    const plainDeltas = summary(plain.deltas.paint)
    const rows: Row[] = []
    const add = (
      figure: string,
      value: number,
      referenceValue: number,
      referenceLabel: string,
      target?: number,
      note?: string,
    ) =>
      rows.push(
        row({
          bench: 'inbox-screen',
          figure,
          value,
          unit: 'ms',
          reference: { label: referenceLabel, value: referenceValue },
          ...(target !== undefined ? { target: `<= ${target} ms`, pass: value <= target } : {}),
          note,
        }),
      )
    const inboxRef = 'plain page: fs.watch -> WebSocket -> DOM'
    const deltaRef = 'plain page: SSE -> WebSocket -> DOM'
    const lostInbox = MESSAGES - inboxSummary.n
    const lostDeltas = MESSAGES - deltaSummary.n
    add(
      `inbox line -> painted, p50 (${inboxSummary.n} lines)`,
      inboxSummary.p50,
      plainInbox.p50,
      inboxRef,
      25,
      lostInbox > 0 ? `${lostInbox} not painted within ${WAIT_MS / 1000} s` : undefined,
    )
    add('inbox line -> painted, p95', inboxSummary.p95, plainInbox.p95, inboxRef)
    add('inbox line -> painted, p99', inboxSummary.p99, plainInbox.p99, inboxRef, 100)
    add(
      `text delta -> painted, p50 (${deltaSummary.n} deltas)`,
      deltaSummary.p50,
      plainDeltas.p50,
      deltaRef,
      25,
      lostDeltas > 0 ? `${lostDeltas} not painted within ${WAIT_MS / 1000} s` : undefined,
    )
    add('text delta -> painted, p95', deltaSummary.p95, plainDeltas.p95, deltaRef)
    add('text delta -> painted, p99', deltaSummary.p99, plainDeltas.p99, deltaRef, 100)
    const stats = await new Promise<Record<string, unknown>>((resolve) => {
      model.process.once('message', resolve)
      model.process.send?.({ cmd: 'stats' })
    })
    return {
      name: 'inbox-screen',
      rows,
      details: {
        messages: MESSAGES,
        intervalMs: INTERVAL_MS,
        deltaEventDelayMs: DELTA_EVENT_DELAY_MS,
        inbox: {
          paint: inboxSummary,
          dom: summary(ours.inbox.dom),
          legs: inboxLegs(inbox.stamps, inbox.socket),
        },
        deltas: {
          paint: deltaSummary,
          dom: summary(ours.deltas.dom),
          legs: deltaLegs(deltas.stamps, deltas.socket),
        },
        plain: { inbox: plainInbox, deltas: plainDeltas },
        modelServer: stats,
        pageErrors,
        profiles,
        formatting,
      },
      notes: [
        ...(pageErrors.length > 0
          ? [`inbox-screen: page errors: ${pageErrors.slice(0, 3).join('; ')}`]
          : []),
        ...(profiles.server
          ? [
              `inbox-screen: serve's main thread during inbox lines (profiled pass): ${describeOwners(profiles.server, 8)}`,
            ]
          : []),
        `inbox-screen: why src/renderer/ui/format.ts makes its Intl formatters once: in this Chromium a timestamp formatted with toLocaleTimeString(options) costs ${formatting.formatMillisUs?.toFixed(0)} µs, with an Intl.DateTimeFormat made once ${formatting.cachedDateTimeFormatUs?.toFixed(1)} µs; Number#toLocaleString ${formatting.numberToLocaleStringUs?.toFixed(0)} µs, a cached Intl.NumberFormat ${formatting.cachedNumberFormatUs?.toFixed(1)} µs`,
        ...(profiles.trace
          ? [`inbox-screen: the page's trace during inbox lines: ${describeTrace(profiles.trace)}`]
          : []),
        ...(profiles.page
          ? [
              `inbox-screen: the page's main thread during inbox lines: ${describeOwners(profiles.page, 8)}; top functions ${describeFunctions(profiles.page, 6)}`,
            ]
          : []),
      ],
    }
  } finally {
    await browser.close()
    await served?.stop()
    await model.stop()
    workers.dispose()
    removeDirectory(workspace)
    if (!context) renderer.dispose()
  }
}
