// 11. Replay without dropped frames: the Timeline view of 20 agents × 10,000 transcript records
// (about 150,000 timeline entries) opened in the window, then replayed at 100× for some seconds
// in Chromium. A frame is dropped when its work (moving the replay's cursor over the entries and
// rendering the roster, board and activity as they were) takes over 16 ms: the replay's clock
// counts them itself (window.__agentTeamsReplay, present when the bench's probes are). Beside
// it, the gaps between the page's own frames (rAF), and the scrubber: a seek anywhere.
import type { Page } from '@playwright/test'
import {
  closePage,
  frameStats,
  launchChromium,
  openPage,
  ownRenderer,
  pollUntil,
  startServe,
  type BrowserContext,
  type Served,
} from './lib/browser'
import {
  log,
  median,
  now,
  percentile,
  removeDirectory,
  row,
  sleep,
  tempDirectory,
  type BenchResult,
} from './lib/common'
import { longTranscript, writeRoster, writeTranscript } from './lib/team-files'

const AGENTS = 20
const RECORDS = 10_000
const PLAY_SECONDS = Number(process.env.BENCH_REPLAY_SECONDS ?? 10)
const SEEKS = 20

interface ReplayStats {
  frames: number
  dropped: number
  worstMs: number
  totalMs: number
}

async function replayStats(page: Page): Promise<ReplayStats> {
  return (await page.evaluate(
    'window.__agentTeamsReplay ?? { frames: 0, dropped: 0, worstMs: 0, totalMs: 0 }',
  )) as ReplayStats
}

export async function run(context?: BrowserContext): Promise<BenchResult> {
  const renderer = context?.renderer ?? ownRenderer()
  const workspace = tempDirectory('replay')
  const browser = await launchChromium()
  let served: Served | null = null
  try {
    const names = Array.from({ length: AGENTS - 1 }, (_, index) => `agent${index + 1}`)
    writeRoster(
      workspace,
      names.map((name) => ({ name, role: 'worker', status: 'idle' as const })),
    )
    for (const name of ['lead', ...names])
      writeTranscript(workspace, name, longTranscript(RECORDS, `END-${name}`))
    // A key in the environment (never used: nobody is woken) opens the team, not the first run.
    served = await startServe({
      workspace,
      modelUrl: 'http://127.0.0.1:9',
      staticDirectory: renderer.staticDirectory,
    })
    const page = await openPage(browser)
    await page.goto(served.url)
    await page.locator('[data-testid="roster-item-agent1"]').waitFor({ timeout: 60_000 })
    // The app has taken over from the server's first view (which hears no clicks).
    await page.locator('#first-view').waitFor({ state: 'detached', timeout: 60_000 })
    // "While you were away" sums up the run first (the team is new to this browser): read.
    await page
      .getByTestId('away-digest')
      .getByRole('button', { name: 'Dismiss' })
      .click({ timeout: 60_000 })

    log(`replay: opening the Timeline of ${AGENTS} × ${RECORDS.toLocaleString('en')} records`)
    const openStart = now()
    await page.getByRole('tab', { name: 'Timeline' }).click()
    const opened = await pollUntil(
      page,
      `document.querySelector('[data-testid="timeline-canvas"]') !== null`,
      120_000,
    )
    const openMs = now() - openStart
    if (!opened)
      throw new Error(
        `the Timeline view did not open within 120 s; the main area says: ${(await page.locator('main').textContent())?.slice(0, 300)}`,
      )
    // The newest page draws first; the older ones follow until the whole run is in.
    const whole = await pollUntil(
      page,
      `!document.querySelector('[data-testid="timeline-count"]')?.textContent?.includes('older')`,
      180_000,
      200,
    )
    const wholeMs = now() - openStart
    if (!whole) throw new Error('the older entries were not all read within 180 s')
    const countText = (await page.getByTestId('timeline-count').textContent()) ?? ''
    const entries = Number(/of (\d+) entries/.exec(countText)?.[1] ?? Number.NaN)

    await page.getByRole('button', { name: 'Replay', exact: true }).click()
    const replay = page.getByTestId('replay')
    await replay.waitFor()
    const scrubber = replay.getByRole('slider', { name: 'Moment of the replay' })

    // Seeks: to a random place, forward and backward (a backward one restores a checkpoint).
    const seekMs: number[] = []
    for (let seek = 0; seek < SEEKS; seek++) {
      const target = String(Math.floor(((seek * 7919) % 1000) + 0.5))
      const started = now()
      await scrubber.fill(target)
      seekMs.push(now() - started)
    }
    await scrubber.fill('0')

    log(`replay: playing at 100× for ${PLAY_SECONDS} s`)
    await replay.getByRole('combobox', { name: 'Speed' }).selectOption('100')
    const before = await replayStats(page)
    await page.evaluate('window.__bench.recordFrames()')
    await replay.getByRole('button', { name: 'Play', exact: true }).click()
    await sleep(PLAY_SECONDS * 1000)
    await replay.getByRole('button', { name: 'Pause', exact: true }).click()
    const frames = frameStats((await page.evaluate('window.__bench.frames.stop()')) as number[])
    const after = await replayStats(page)
    const played = after.frames - before.frames
    const dropped = after.dropped - before.dropped
    const meanWork = (after.totalMs - before.totalMs) / Math.max(1, played)
    const applied = (await replay.textContent())?.match(/(\d+) entries in/)?.[1] ?? '?'
    await closePage(page)

    const rows = [
      row({
        bench: 'replay',
        figure: `replay at 100× of ${AGENTS} × ${RECORDS.toLocaleString('en')} records: frames whose work > 16 ms`,
        value: dropped,
        unit: 'frames',
        reference: { label: 'frames played', value: played, unit: 'frames' },
        target: '0 dropped',
        pass: dropped === 0,
        note: `mean work ${meanWork.toFixed(2)} ms a frame, worst ${after.worstMs.toFixed(1)} ms; ${entries.toLocaleString('en')} entries, ${applied} replayed`,
      }),
      row({
        bench: 'replay',
        figure: 'replay at 100×: frames the page missed (rAF gaps over 1/60 s)',
        value: frames.dropped,
        unit: 'frames',
        reference: { label: 'frames produced', value: frames.frames, unit: 'frames' },
        note: `longest gap ${frames.longestFrameMs.toFixed(1)} ms, ${frames.fps.toFixed(1)} fps`,
      }),
      row({
        bench: 'replay',
        figure: 'scrubbing: a seek anywhere in the run, median (p95)',
        value: median(seekMs),
        unit: 'ms',
        note: `p95 ${percentile(seekMs, 95).toFixed(0)} ms, Playwright's fill included`,
      }),
      row({
        bench: 'replay',
        figure: `open the Timeline view of ${AGENTS} × ${RECORDS.toLocaleString('en')} records in the window`,
        value: openMs,
        unit: 'ms',
        note: 'tab click to the newest page drawn: read, sent over the socket, parsed, indexed',
      }),
      row({
        bench: 'replay',
        figure: `the whole run in the view (every older page read and merged)`,
        value: wholeMs,
        unit: 'ms',
      }),
    ]
    return {
      name: 'replay',
      rows,
      details: { seekMs, frames, replay: { before, after }, openMs, wholeMs, entries },
      notes: [],
    }
  } finally {
    await served?.stop()
    await browser.close()
    if (context === undefined) renderer.dispose()
    removeDirectory(workspace)
  }
}
