// 5. Start: `agent-teams serve` from spawn to the printed address (empty workspace, and a team
// of 20 with 2,000-record transcripts), next to `node -e 0`; and the first paint of that team
// in Chromium (navigation -> every roster item and the lead's latest row painted), next to a
// plain page from a bare server; and when the app has taken over from the server's first view
// (src/shared/first-view.ts), the point from which the window answers clicks and keys.
import { spawn, spawnSync } from 'node:child_process'
import { cpSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import {
  closePage,
  launchChromium,
  openPage,
  ownRenderer,
  pollUntil,
  startServe,
  describeTrace,
  summarizeTrace,
  traceCpuProfile,
  TRACE_CATEGORIES_WITH_JS,
  type TraceSummary,
  type BrowserContext,
  type Served,
} from './lib/browser'
import {
  ROOT,
  bundleWorkers,
  log,
  median,
  now,
  removeDirectory,
  row,
  startNode,
  tempDirectory,
  within,
  type BenchResult,
} from './lib/common'
import { longTranscript, writeRoster, writeTranscript } from './lib/team-files'
import {
  describeFunctions,
  describeOwners,
  readProfileDirectory,
  summarizeProfile,
  type ProfileSummary,
} from './lib/profile'

const REPEATS = 3
/**
 * BENCH_START_FIRST_VIEW=off serves the page without the server's first view (the app draws
 * the team itself once its chunk has run), to measure what the first view still buys; see
 * docs/decisions/first-view.md.
 */
const FIRST_VIEW = process.env.BENCH_START_FIRST_VIEW !== 'off'
const TEAM = 20
const RECORDS = 2000
const LEAD_MARKER = 'END-OF-LEAD-MARKER'

/** A copy of the built page without the first-view bundle beside it: served as built. */
function withoutFirstView(staticDirectory: string, scratch: string): string {
  const copy = join(scratch, 'renderer')
  cpSync(staticDirectory, copy, { recursive: true })
  return copy
}

async function nodeStartup(): Promise<number> {
  const start = now()
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' })
  await within(
    new Promise<void>((resolve) => child.once('exit', () => resolve())),
    30_000,
    'node -e 0',
  )
  return now() - start
}

/** The CLI needs out/renderer to start; build it the usual way when it is missing. */
function ensureBuilt(): string | null {
  if (existsSync(join(ROOT, 'out', 'renderer', 'index.html'))) return null
  const result = spawnSync('npx', ['electron-vite', 'build'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 180_000,
  })
  if (result.status !== 0) throw new Error(`npx electron-vite build failed:\n${result.stderr}`)
  return 'built out/renderer first (npx electron-vite build), as agent-teams serve needs it'
}

/**
 * The command as an install runs it: bundled from the current sources (out/cli, as `npm
 * install` and `npm run build` make it). Without this, an edit since the last build would have
 * bin/agent-teams.mjs fall back to compiling the sources, and the figure would measure tsx.
 * Done right before each start measured, as other work on this machine may edit src/.
 */
function buildCli(): void {
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-cli.mjs')], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  })
  if (result.status !== 0) throw new Error(`node scripts/build-cli.mjs failed:\n${result.stderr}`)
}

/** serve started once under --cpu-prof, to the printed address: where its start-up goes. */
async function profiledStartup(workspace: string): Promise<ProfileSummary | null> {
  const directory = tempDirectory('start-prof')
  try {
    buildCli()
    const served = await startServe({
      workspace,
      timeoutMs: 60_000,
      nodeArgs: ['--cpu-prof', '--cpu-prof-dir', directory],
    })
    await served.stop()
    const [profile] = readProfileDirectory(directory)
    return profile ? summarizeProfile(profile, { top: 15 }) : null
  } finally {
    removeDirectory(directory)
  }
}

async function serveReady(workspace: string): Promise<number> {
  buildCli()
  const served = await startServe({ workspace, timeoutMs: 60_000 })
  await served.stop()
  return served.readyMs
}

function writeTeam(workspace: string): void {
  writeRoster(
    workspace,
    Array.from({ length: TEAM }, (_, index) => ({
      name: `m${String(index + 1).padStart(2, '0')}`,
      role: 'teammate',
      status: 'idle' as const,
    })),
  )
  for (let index = 1; index <= TEAM; index++)
    writeTranscript(
      workspace,
      `m${String(index).padStart(2, '0')}`,
      longTranscript(RECORDS, `END-OF-M${index}`),
    )
  writeTranscript(workspace, 'lead', longTranscript(RECORDS, LEAD_MARKER))
}

export async function run(context?: BrowserContext): Promise<BenchResult> {
  const notes: string[] = []
  const built = ensureBuilt()
  if (built) notes.push(`start: ${built}`)
  const renderer = context?.renderer ?? ownRenderer()
  const empty = tempDirectory('start-empty')
  const team = tempDirectory('start-team')
  const workers = await bundleWorkers(['plain-relay', 'offline-model'])
  const browser = await launchChromium()
  try {
    writeTeam(team)
    const nodeMs: number[] = []
    const emptyMs: number[] = []
    const teamMs: number[] = []
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      log(`start: round ${repeat + 1}/${REPEATS}`)
      nodeMs.push(await nodeStartup())
      emptyMs.push(await serveReady(empty))
      teamMs.push(await serveReady(team))
    }

    // First paint: from navigation to all 21 roster items and the lead's latest row painted.
    log('start: first paint')
    const paints: number[] = []
    const takeovers: number[] = []
    let firstPaintTrace: TraceSummary | null = null
    let firstPaintProfile: ProfileSummary | null = null
    const plainPaints: number[] = []
    const relayDirectory = tempDirectory('start-relay')
    const relay = startNode(workers.path('plain-relay'), ['file', join(relayDirectory, 'x.jsonl')])
    // A model endpoint, so the app opens on the team rather than on the first-run screen.
    const model = startNode(workers.path('offline-model'), [JSON.stringify({ mode: 'ui' })], {
      ipc: true,
    })
    let served: Served | null = null
    try {
      const { url: plainUrl } = await relay.message<{ url: string }>('listening', 30_000)
      const { url: modelUrl } = await model.message<{ url: string }>('listening', 30_000)
      served = await startServe({
        workspace: team,
        modelUrl,
        staticDirectory: FIRST_VIEW
          ? renderer.staticDirectory
          : withoutFirstView(renderer.staticDirectory, relayDirectory),
      })
      for (let repeat = 0; repeat < REPEATS; repeat++) {
        const page = await openPage(browser, {
          firstPaint: {
            selector: '[data-testid^="roster-item-"]',
            count: TEAM + 1,
            scope: '[data-testid="transcript"]',
            marker: LEAD_MARKER,
          },
        })
        await page.goto(served.url)
        if (await pollUntil(page, 'window.__bench.firstPaint?.paint > 0', 60_000))
          paints.push((await page.evaluate('window.__bench.firstPaint.paint')) as number)
        // The app has drawn the team itself (it removes the first view in that commit); without
        // a first view, its first paint is that moment.
        if (!FIRST_VIEW) takeovers.push(paints.at(-1) ?? Number.NaN)
        else if (await pollUntil(page, 'window.__bench.handedOver > 0', 60_000))
          takeovers.push((await page.evaluate('window.__bench.handedOver')) as number)
        await closePage(page)
        const plain = await openPage(browser, { firstPaint: { selector: '#out', count: 1 } })
        await plain.goto(plainUrl)
        if (await pollUntil(plain, 'window.__bench.firstPaint?.paint > 0', 30_000))
          plainPaints.push((await plain.evaluate('window.__bench.firstPaint.paint')) as number)
        await closePage(plain)
      }
      // Once more, traced with JS samples: what the first paint is made of.
      const traced = await openPage(browser, {
        firstPaint: {
          selector: '[data-testid^="roster-item-"]',
          count: TEAM + 1,
          scope: '[data-testid="transcript"]',
          marker: LEAD_MARKER,
        },
      })
      await browser.startTracing(traced, { categories: TRACE_CATEGORIES_WITH_JS })
      await traced.goto(served.url)
      await pollUntil(traced, 'window.__bench.firstPaint?.paint > 0', 60_000)
      const paintAt = (await traced.evaluate('window.__bench.firstPaint.paint')) as number
      const buffer = await browser.stopTracing()
      firstPaintTrace = summarizeTrace(buffer, paintAt)
      const js = traceCpuProfile(buffer, new Map())
      if (js) firstPaintProfile = summarizeProfile(js, { resolve: renderer.resolve, top: 15 })
      await closePage(traced)
    } finally {
      await served?.stop()
      await relay.stop()
      await model.stop()
      removeDirectory(relayDirectory)
    }

    log('start: profiled start-up')
    const startup = await profiledStartup(empty)
    const node = median(nodeMs)
    const rows = [
      row({
        bench: 'start',
        figure: 'agent-teams serve ready (spawn -> printed URL), empty workspace',
        value: median(emptyMs),
        unit: 'ms',
        reference: { label: 'node -e 0 (spawn -> exit)', value: node },
        note: `median of ${REPEATS}`,
      }),
      row({
        bench: 'start',
        figure: `agent-teams serve ready, team of ${TEAM} x ${RECORDS.toLocaleString('en')} records`,
        value: median(teamMs),
        unit: 'ms',
        reference: { label: 'the empty workspace, same run', value: median(emptyMs) },
        target: '<= 1.5 x the empty workspace',
        pass: median(teamMs) <= 1.5 * median(emptyMs),
        note: `median of ${REPEATS}; node -e 0 took ${Math.round(node)} ms`,
      }),
      row({
        bench: 'start',
        figure: `first paint of the team of ${TEAM} (navigation -> roster and lead's last row painted)`,
        value: median(paints),
        unit: 'ms',
        reference: { label: 'a plain page from a bare server', value: median(plainPaints) },
        target: '<= 3 x the plain page',
        pass: median(paints) <= 3 * median(plainPaints),
        note: `median of ${paints.length}; ${FIRST_VIEW ? "painted from the server's first view" : 'without the first view: painted by the app'}`,
      }),
      row({
        bench: 'start',
        figure: `the app takes over from the first view (navigation -> the window answers input)`,
        value: median(takeovers),
        unit: 'ms',
        reference: { label: 'the first paint, same run', value: median(paints) },
        note: `median of ${takeovers.length}`,
      }),
    ]
    return {
      name: 'start',
      rows,
      details: {
        nodeMs,
        emptyMs,
        teamMs,
        paints,
        takeovers,
        plainPaints,
        team: TEAM,
        records: RECORDS,
        startup,
        firstPaintTrace,
        firstPaintProfile,
      },
      notes: [
        ...notes,
        ...(startup
          ? [
              `start: serve's start-up (empty workspace, ${startup.busyMs} ms on the main thread) by owner: ${describeOwners(startup, 8)}`,
            ]
          : []),
        ...(firstPaintTrace
          ? [`start: first paint, the page's trace: ${describeTrace(firstPaintTrace)}`]
          : []),
        ...(firstPaintProfile
          ? [
              `start: first paint, JS by owner: ${describeOwners(firstPaintProfile, 8)}; top functions ${describeFunctions(firstPaintProfile, 6)}`,
            ]
          : []),
      ],
    }
  } finally {
    await browser.close()
    workers.dispose()
    removeDirectory(empty)
    removeDirectory(team)
    if (!context) renderer.dispose()
  }
}
