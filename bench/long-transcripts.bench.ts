// 3. Long transcripts: a 10,000-entry transcript opened in the UI (click -> last row painted),
// scrolled (frame rate), the renderer's heap; then 50 teammates streaming about 50 tokens a
// second each into the activity panes: the longest main-thread task and dropped frames.
import type { Page } from '@playwright/test'
import {
  ContractClient,
  closePage,
  describeTrace,
  frameStats,
  launchChromium,
  longTasksBetween,
  openPage,
  ownRenderer,
  pageHeapMB,
  scriptUrls,
  startServe,
  summarizeTrace,
  traceCpuProfile,
  TRACE_CATEGORIES,
  TRACE_CATEGORIES_WITH_JS,
  type BrowserContext,
  type Served,
} from './lib/browser'
import {
  bundleWorkers,
  log,
  median,
  now,
  removeDirectory,
  row,
  sleep,
  startNode,
  tempDirectory,
  type BenchResult,
} from './lib/common'
import { describeFunctions, describeOwners, summarizeProfile } from './lib/profile'
import { longTranscript, writeRoster, writeTranscript } from './lib/team-files'

const LONG = 10_000
const SHORT = 12
const STREAMERS = 50
/** The issue asks for 60 s; BENCH_STREAM_SECONDS=30 shortens it (and says so in the output). */
const STREAM_SECONDS = Number(process.env.BENCH_STREAM_SECONDS ?? 60)
const TOKENS_PER_SECOND = 50
const OPEN_REPEATS = 3
const SCROLL_MS = 8000
const SCROLL_PIXELS = 100
const TRACED_SECONDS = 5
const MARKERS = {
  historian: 'END-OF-HISTORY-MARKER',
  brief: 'END-OF-BRIEF-MARKER',
  warmup: 'END-OF-WARMUP-MARKER',
}

interface Opened {
  dom: number
  paint: number
  start: number
}

function open(page: Page, name: keyof typeof MARKERS): Promise<Opened> {
  return page.evaluate(
    `window.__bench.clickUntil(${JSON.stringify(`[data-testid="roster-item-${name}"] .roster-open`)}, '[data-testid="transcript"]', ${JSON.stringify(MARKERS[name])}, 30000)`,
  ) as Promise<Opened>
}

async function pageNow(page: Page): Promise<number> {
  return (await page.evaluate('performance.now()')) as number
}

async function idleFrames(page: Page, milliseconds: number): Promise<number[]> {
  await page.evaluate('window.__bench.recordFrames()')
  await sleep(milliseconds)
  return (await page.evaluate('window.__bench.frames.stop()')) as number[]
}

export async function run(context?: BrowserContext): Promise<BenchResult> {
  const renderer = context?.renderer ?? ownRenderer()
  const workers = await bundleWorkers(['offline-model'])
  const streamChunks = (STREAM_SECONDS + TRACED_SECONDS + 30) * TOKENS_PER_SECOND
  const model = startNode(
    workers.path('offline-model'),
    [
      JSON.stringify({
        mode: 'ui',
        eventDelayMs: 1000 / TOKENS_PER_SECOND,
        chunkCharacters: 4,
        streamChunks,
      }),
    ],
    { ipc: true },
  )
  const workspace = tempDirectory('long-transcripts')
  const browser = await launchChromium()
  let served: Served | null = null
  const notes: string[] = []
  if (STREAM_SECONDS !== 60)
    notes.push(
      `long-transcripts: streaming measured for ${STREAM_SECONDS} s instead of 60 s (BENCH_STREAM_SECONDS)`,
    )
  try {
    const { url: modelUrl } = await model.message<{ url: string }>('listening', 30_000)
    writeRoster(workspace, [
      { name: 'warmup', role: 'warm-up', status: 'idle' },
      { name: 'brief', role: 'short transcript', status: 'idle' },
      { name: 'historian', role: 'long transcript', status: 'idle' },
    ])
    writeTranscript(workspace, 'historian', longTranscript(LONG, MARKERS.historian))
    writeTranscript(workspace, 'brief', longTranscript(SHORT, MARKERS.brief))
    writeTranscript(workspace, 'warmup', longTranscript(SHORT, MARKERS.warmup))
    served = await startServe({ workspace, modelUrl, staticDirectory: renderer.staticDirectory })
    const page = await openPage(browser)

    // Open: click the agent -> the last row painted; a short transcript is the reference.
    const opens: { long: Opened; short: Opened }[] = []
    let bootHeap = Number.NaN
    for (let repeat = 0; repeat < OPEN_REPEATS; repeat++) {
      log(`long-transcripts: open ${repeat + 1}/${OPEN_REPEATS}`)
      if (repeat === 0) await page.goto(served.url)
      else await page.reload()
      await page.locator('[data-testid="roster-item-historian"]').waitFor({ timeout: 30_000 })
      await sleep(500)
      if (repeat === 0) bootHeap = await pageHeapMB(page)
      await open(page, 'warmup')
      const short = await open(page, 'brief')
      await sleep(300)
      const long = await open(page, 'historian')
      opens.push({ long, short })
      await sleep(500)
    }
    const openLong = median(opens.map((each) => each.long.paint))
    const openShort = median(opens.map((each) => each.short.paint))
    const lastOpen = opens[opens.length - 1]?.long
    const openLongTasks = await longTasksBetween(
      page,
      lastOpen?.start ?? 0,
      (lastOpen?.start ?? 0) + (lastOpen?.paint ?? 0) + 100,
    )

    // Scroll: upwards by SCROLL_PIXELS a frame (earlier pages load as the top is reached).
    log('long-transcripts: scroll')
    const idle = frameStats(await idleFrames(page, 2000))
    const idleTo = await pageNow(page)
    const idleTasks = await longTasksBetween(page, idleTo - 2000, idleTo)
    await browser.startTracing(page, { categories: TRACE_CATEGORIES })
    await sleep(2000)
    const conversationIdleTrace = summarizeTrace(await browser.stopTracing())
    // Traced too (tasks and frames only, light), for the longest task whatever its length.
    await browser.startTracing(page, { categories: TRACE_CATEGORIES })
    const scrolled = (await page.evaluate(
      `window.__bench.scrollUp('[data-testid="transcript"]', ${SCROLL_PIXELS}, ${SCROLL_MS})`,
    )) as { frames: number[]; start: number; end: number; startTop: number; endTop: number }
    const measuredScrollTrace = summarizeTrace(await browser.stopTracing())
    const scroll = frameStats(scrolled.frames)
    const scrollTasks = await longTasksBetween(page, scrolled.start, scrolled.end)
    const rowsInDom = (await page.evaluate(
      `document.querySelectorAll('[data-testid="transcript"] .transcript-row').length`,
    )) as number
    const heap = await pageHeapMB(page)

    // The same scroll again, traced with JS samples, to name what the long tasks do.
    const scripts = await scriptUrls(page)
    await browser.startTracing(page, { categories: TRACE_CATEGORIES_WITH_JS })
    await page.evaluate(
      `window.__bench.scrollUp('[data-testid="transcript"]', ${SCROLL_PIXELS}, ${TRACED_SECONDS * 1000})`,
    )
    const scrollTraceBuffer = await browser.stopTracing()
    const scrollTrace = summarizeTrace(scrollTraceBuffer)
    const scrollJs = traceCpuProfile(scrollTraceBuffer, scripts)
    const scrollProfile = scrollJs
      ? summarizeProfile(scrollJs, { resolve: renderer.resolve, top: 20 })
      : null

    // 50 teammates stream into the activity panes. Measured from Chromium's trace: the page
    // may fall too far behind to answer anything itself until the streams end.
    log(`long-transcripts: ${STREAMERS} teammates streaming for ${STREAM_SECONDS} s`)
    await page.getByRole('tab', { name: 'Activity' }).click()
    await sleep(500)
    await browser.startTracing(page, { categories: TRACE_CATEGORIES })
    await sleep(3000)
    const idleTrace = summarizeTrace(await browser.stopTracing())
    const client = await ContractClient.connect(served)
    const names = Array.from(
      { length: STREAMERS },
      (_, index) => `s${String(index + 1).padStart(2, '0')}`,
    )
    const before = await modelStats(model)
    await browser.startTracing(page, { categories: TRACE_CATEGORIES })
    const streamStart = now()
    for (const name of names)
      await client.request('spawn', { name, role: 'streamer', prompt: 'STREAM' })
    await sleep(STREAM_SECONDS * 1000)
    const after = await modelStats(model)
    const windowMs = now() - streamStart
    const streamTrace = summarizeTrace(await browser.stopTracing(), windowMs)
    const tokensPerAgent = (after.textDeltas - before.textDeltas) / STREAMERS / (windowMs / 1000)
    log('long-transcripts: traced window with JS samples')
    await browser.startTracing(page, { categories: TRACE_CATEGORIES_WITH_JS })
    await sleep(TRACED_SECONDS * 1000)
    const streamJs = traceCpuProfile(await browser.stopTracing(), scripts)
    const pageProfile = streamJs
      ? summarizeProfile(streamJs, { resolve: renderer.resolve, top: 20 })
      : null
    // Still usable while they stream: open a short transcript from the roster, as before.
    log('long-transcripts: opening a transcript while the team streams')
    const openWhileStreaming = await open(page, 'brief')
    // Stop the streams and drop the page with whatever it has not processed yet.
    await Promise.all(
      names.map((name) => client.request('stopAgent', { name }).catch(() => undefined)),
    )
    client.close()
    log('long-transcripts: closing')
    await closePage(page)
    const busy = streamTrace.seconds > 0 ? streamTrace.taskMs / 1000 / streamTrace.seconds : 0
    const presentedFps = streamTrace.frames.presented / Math.max(streamTrace.seconds, 0.001)
    const droppedShare =
      streamTrace.frames.dropped /
      Math.max(1, streamTrace.frames.dropped + streamTrace.frames.presented)

    const rows = [
      row({
        bench: 'long-transcripts',
        figure: `open a ${LONG.toLocaleString('en')}-entry transcript (click -> last row painted)`,
        value: openLong,
        unit: 'ms',
        reference: { label: `open a ${SHORT}-entry transcript`, value: openShort },
        target: '<= 300 ms',
        pass: openLong <= 300,
        note:
          openLongTasks.count === 0
            ? `median of ${OPEN_REPEATS}; no task over 50 ms while opening`
            : `median of ${OPEN_REPEATS}; longest task while opening ${Math.round(openLongTasks.longestMs)} ms`,
      }),
      row({
        bench: 'long-transcripts',
        figure: `scroll frame rate (${SCROLL_PIXELS} px a frame for ${SCROLL_MS / 1000} s)`,
        value: scroll.fps,
        unit: 'fps',
        reference: { label: 'the idle app, same page', value: idle.fps, unit: 'fps' },
        note: `${scroll.dropped} frames dropped, longest frame ${Math.round(scroll.longestFrameMs)} ms, ${rowsInDom} rows in the DOM`,
      }),
      row({
        bench: 'long-transcripts',
        figure: 'longest main-thread task while scrolling (trace)',
        value: measuredScrollTrace.longestTaskMs,
        unit: 'ms',
        reference: { label: 'idle app, same view', value: conversationIdleTrace.longestTaskMs },
        target: '<= 50 ms',
        pass: measuredScrollTrace.longestTaskMs <= 50,
        note: `${measuredScrollTrace.tasksOver50} tasks over 50 ms (PerformanceObserver long tasks: ${scrollTasks.count})`,
      }),
      row({
        bench: 'long-transcripts',
        figure: 'renderer JS heap after opening and scrolling',
        value: heap,
        unit: 'MB',
        reference: { label: 'the app just started (empty lead chat)', value: bootHeap },
        target: '<= 150 MB',
        pass: heap <= 150,
      }),
      row({
        bench: 'long-transcripts',
        figure: `${STREAMERS} teammates streaming, longest main-thread task (${STREAM_SECONDS} s, trace)`,
        value: streamTrace.longestTaskMs,
        unit: 'ms',
        reference: { label: 'idle app, same trace', value: idleTrace.longestTaskMs },
        target: '<= 50 ms',
        pass: streamTrace.longestTaskMs <= 50,
        note: `${streamTrace.tasksOver50} tasks over 50 ms; main thread busy ${(100 * busy).toFixed(0)} % of the time; ${tokensPerAgent.toFixed(1)} tokens/s per teammate sent`,
      }),
      row({
        bench: 'long-transcripts',
        figure: `open a ${SHORT}-entry transcript while ${STREAMERS} teammates stream (click -> last row painted)`,
        value: openWhileStreaming.paint,
        unit: 'ms',
        reference: { label: 'the same with nothing streaming', value: openShort },
      }),
      row({
        bench: 'long-transcripts',
        figure: `${STREAMERS} teammates streaming, dropped frames (trace)`,
        value: streamTrace.frames.dropped,
        unit: 'frames',
        reference: {
          label: 'idle app, same length',
          value:
            (idleTrace.frames.dropped / Math.max(idleTrace.seconds, 0.001)) * streamTrace.seconds,
        },
        note: `${streamTrace.frames.presented} presented in ${streamTrace.seconds.toFixed(1)} s (${presentedFps.toFixed(1)} fps), ${(100 * droppedShare).toFixed(0)} % dropped`,
      }),
    ]
    notes.push(
      `long-transcripts: scrolling, the page's trace: ${describeTrace(scrollTrace)}`,
      `long-transcripts: ${STREAMERS} streaming, the page's trace: ${describeTrace(streamTrace)}`,
    )
    if (scrollProfile)
      notes.push(
        `long-transcripts: scrolling, JS by owner: ${describeOwners(scrollProfile, 8)}; top functions ${describeFunctions(scrollProfile, 6)}`,
      )
    if (pageProfile)
      notes.push(
        `long-transcripts: ${STREAMERS} streaming, JS by owner: ${describeOwners(pageProfile, 8)}; top functions ${describeFunctions(pageProfile, 6)}`,
      )
    return {
      name: 'long-transcripts',
      rows,
      details: {
        opens,
        openLongTasks,
        idle,
        idleTasks,
        scroll: {
          ...scroll,
          tasks: scrollTasks,
          startTop: scrolled.startTop,
          endTop: scrolled.endTop,
          rowsInDom,
        },
        heapMB: { boot: bootHeap, afterScroll: heap },
        conversationIdleTrace,
        measuredScrollTrace,
        scrollTrace,
        scrollProfile,
        idleTrace,
        streamTrace,
        stream: { tokensPerAgent, seconds: STREAM_SECONDS, windowMs, openWhileStreaming },
        pageProfile,
      },
      notes,
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

async function modelStats(
  model: ReturnType<typeof startNode>,
): Promise<{ textDeltas: number; calls: number }> {
  return new Promise((resolve) => {
    model.process.once('message', (message) =>
      resolve(message as { textDeltas: number; calls: number }),
    )
    model.process.send?.({ cmd: 'stats' })
  })
}
