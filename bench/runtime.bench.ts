// 4. Runtime: N teammates against the offline model with zero latency, the model server in a
// process of its own: turns per second, the runtime's own CPU time per turn, memory per idle
// teammate, and how each grows from 1 to 10 to 50 to 200 teammates.
import { join } from 'node:path'
import {
  bundleWorkers,
  log,
  removeDirectory,
  row,
  startNode,
  tempDirectory,
  within,
  type BenchResult,
  type Child,
} from './lib/common'
import {
  describeFunctions,
  describeOwners,
  describePlaces,
  summarizeProfile,
  type CpuProfile,
  type ProfileSummary,
} from './lib/profile'
import { readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'

const SIZES = (process.env.BENCH_RUNTIME_SIZES ?? '1,10,50,200').split(',').map(Number)
/** Model calls per activation: T-1 read_inbox calls and a final answer (the round cap is 50). */
const TURNS = Number(process.env.BENCH_RUNTIME_TURNS ?? 20)
const MAIN = 50
const PHASE_LIMIT_MS = 240_000

type Workers = Awaited<ReturnType<typeof bundleWorkers>>

interface ServerStats {
  cpuMs: number
  calls: number
}
interface Scale {
  teammates: number
  turns: number
  wallMs: number
  turnsPerSecond: number
  cpuMsPerTurn: number
  serverCpuMsPerTurn: number
  heapPerTeammateKB: number
  rssPerTeammateKB: number
  externalPerTeammateKB: number
  spawnMs: number
  bare: { perSecond: number; cpuMsPerRequest: number; serverCpuMsPerRequest: number }
  http: { perSecond: number; cpuMsPerRequest: number }
  sdk: { calls: number; perSecond: number; cpuMsPerCall: number; bodyBytes: number } | null
}

function ipcMessage(child: Child, phase: string): Promise<Record<string, unknown>> {
  return within(
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const onMessage = (message: Record<string, unknown>) => {
        if (message.phase !== phase && message.type !== phase) return
        child.process.off('message', onMessage)
        resolve(message)
      }
      child.process.on('message', onMessage)
      void child.exited.then((code) =>
        reject(new Error(`worker exited (${code}) before ${phase}: ${child.stderr()}`)),
      )
    }),
    PHASE_LIMIT_MS,
    `runtime phase ${phase}`,
  )
}

async function serverStats(server: Child): Promise<ServerStats> {
  const reply = ipcMessage(server, 'stats')
  server.process.send?.({ cmd: 'stats' })
  return (await reply) as unknown as ServerStats
}

async function startServer(workers: Workers): Promise<{ server: Child; url: string }> {
  const server = startNode(
    workers.path('offline-model'),
    [JSON.stringify({ mode: 'runtime', turns: TURNS })],
    { ipc: true },
  )
  const { url } = await server.message<{ url: string }>('listening', 30_000)
  return { server, url }
}

async function measure(workers: Workers, teammates: number, profilePath?: string): Promise<Scale> {
  const { server, url } = await startServer(workers)
  const team = startNode(
    workers.path('runtime-team'),
    [url, String(teammates), String(TURNS), ...(profilePath ? [profilePath] : [])],
    { ipc: true, nodeArgs: ['--expose-gc'] },
  )
  try {
    await ipcMessage(team, 'warm')
    const idle = await ipcMessage(team, 'idle')
    const s0 = await serverStats(server)
    team.process.send?.({ go: true })
    const turns = await ipcMessage(team, 'turns')
    const s1 = await serverStats(server)
    const bodyReply = ipcMessage(server, 'body')
    server.process.send?.({ cmd: 'body' })
    const { body } = await bodyReply
    team.process.send?.({ go: true, body })
    const bare = await ipcMessage(team, 'bare')
    const s2 = await serverStats(server)
    team.process.send?.({ go: true })
    await within(team.exited, 60_000, 'runtime worker exit')
    const count = turns.turns as number
    return {
      teammates,
      turns: count,
      wallMs: turns.wallMs as number,
      turnsPerSecond: turns.turnsPerSecond as number,
      cpuMsPerTurn: turns.cpuMsPerTurn as number,
      serverCpuMsPerTurn: (s1.cpuMs - s0.cpuMs) / count,
      heapPerTeammateKB: idle.heapPerTeammateKB as number,
      rssPerTeammateKB: idle.rssPerTeammateKB as number,
      externalPerTeammateKB: idle.externalPerTeammateKB as number,
      spawnMs: idle.spawnMs as number,
      bare: {
        perSecond: bare.perSecond as number,
        cpuMsPerRequest: bare.cpuMsPerRequest as number,
        serverCpuMsPerRequest:
          (s2.cpuMs - s1.cpuMs) /
          ((bare.requests as number) +
            (bare.http as Scale['http'] & { requests: number }).requests +
            ((bare.sdk as Scale['sdk'])?.calls ?? 0)),
      },
      http: bare.http as Scale['http'],
      sdk: (bare.sdk as Scale['sdk']) ?? null,
    }
  } finally {
    await team.stop()
    await server.stop()
  }
}

export async function run(): Promise<BenchResult> {
  const workers = await bundleWorkers(['offline-model', 'runtime-team'])
  const scales: Scale[] = []
  let profile: ProfileSummary | null
  const profileDir = tempDirectory('runtime-prof')
  try {
    for (const size of SIZES) {
      log(`runtime: ${size} teammate(s) x ${TURNS} turns`)
      scales.push(await measure(workers, size))
    }
    log(`runtime: CPU profile of the turns of ${MAIN} teammates`)
    const path = join(profileDir, 'turns.cpuprofile')
    await measure(workers, MAIN, path)
    profile = summarizeProfile(JSON.parse(readFileSync(path, 'utf8')) as CpuProfile, {
      bundles: [workers.path('runtime-team')],
      top: 20,
    })
  } finally {
    workers.dispose()
    removeDirectory(profileDir)
  }

  const at = (size: number) => scales.find((scale) => scale.teammates === size)
  const main = at(MAIN) ?? scales[scales.length - 1]
  if (!main) throw new Error('no runtime measurement')
  const small = at(10) ?? scales[0]
  const large = at(200) ?? scales[scales.length - 1]
  const growth = (pick: (scale: Scale) => number) =>
    small && large ? pick(large) / pick(small) : Number.NaN
  const cpuGrowth = growth((scale) => scale.cpuMsPerTurn)
  const memoryGrowth = growth((scale) => scale.heapPerTeammateKB)
  const rateGrowth = growth((scale) => scale.turnsPerSecond)
  const span = small && large ? `${small.teammates} -> ${large.teammates}` : ''
  const own = main.sdk ? main.cpuMsPerTurn - main.sdk.cpuMsPerCall : Number.NaN
  const cores = availableParallelism()
  const ceiling = (cores * 1000) / (main.cpuMsPerTurn + main.serverCpuMsPerTurn)
  const rows = [
    row({
      bench: 'runtime',
      figure: `turns per second, ${main.teammates} teammates, zero-latency model`,
      value: main.turnsPerSecond,
      unit: 'turns/s',
      reference: {
        label: 'bare fetch round-trips to the same server',
        value: main.bare.perSecond,
        unit: 'req/s',
      },
      // The 1,000 turns/s target against a zero-latency model is withdrawn (issue 12): real
      // turns take seconds, so what matters is the runtime's share of one (below).
      note: 'informative',
    }),
    row({
      bench: 'runtime',
      figure: `ceiling on ${cores} cores: ${cores} x 1000 ms / (runtime + model server CPU per turn)`,
      value: ceiling,
      unit: 'turns/s',
      reference: {
        label: 'the same with a bare node:http client and the server as measured',
        value: (cores * 1000) / (main.http.cpuMsPerRequest + main.bare.serverCpuMsPerRequest),
        unit: 'req/s',
      },
      note: `informative: runtime ${main.cpuMsPerTurn.toFixed(2)} ms + server ${main.serverCpuMsPerTurn.toFixed(2)} ms of CPU per turn`,
    }),
    row({
      bench: 'runtime',
      figure: "runtime's own CPU time per turn (its whole CPU - the model call alone)",
      value: own,
      unit: 'ms',
      reference: {
        label: 'the model call alone (below)',
        value: main.sdk?.cpuMsPerCall ?? Number.NaN,
      },
      // Under 2 % of a realistic 2-second model turn.
      target: '<= 40 ms (2 % of a 2 s turn)',
      pass: own <= 40,
    }),
    ...(main.sdk
      ? [
          row({
            bench: 'runtime',
            figure: `the model call alone (ModelClient.turn: SDK + transport, a real ${Math.round(main.sdk.bodyBytes / 1024)} KB request)`,
            value: main.sdk.cpuMsPerCall,
            unit: 'ms',
            reference: {
              label: 'client CPU of a bare node:http round-trip',
              value: main.http.cpuMsPerRequest,
            },
            note: `informative: the SDK's own work over the wire; a bare fetch round-trip: ${main.bare.cpuMsPerRequest.toFixed(2)} ms`,
          }),
        ]
      : []),
    row({
      bench: 'runtime',
      figure: 'runtime process CPU time per turn, all of it (server in another process)',
      value: main.cpuMsPerTurn,
      unit: 'ms',
      reference: {
        label: 'client CPU of a bare fetch round-trip',
        value: main.bare.cpuMsPerRequest,
      },
      note: `informative: the model server's own CPU: ${main.serverCpuMsPerTurn.toFixed(2)} ms per turn`,
    }),
    row({
      bench: 'runtime',
      figure: 'runtime process CPU time per turn, against node:http',
      value: main.cpuMsPerTurn,
      unit: 'ms',
      reference: {
        label: 'client CPU of a bare node:http round-trip',
        value: main.http.cpuMsPerRequest,
      },
      note: `bare node:http: ${Math.round(main.http.perSecond)} req/s`,
    }),
    row({
      bench: 'runtime',
      figure: 'memory per idle teammate (JS heap)',
      value: main.heapPerTeammateKB / 1024,
      unit: 'MB',
      reference: { label: 'RSS growth per teammate', value: main.rssPerTeammateKB / 1024 },
      target: '<= 1 MB',
      pass: main.heapPerTeammateKB <= 1024,
    }),
    row({
      bench: 'runtime',
      figure: `growth of CPU per turn, ${span} teammates`,
      value: cpuGrowth,
      unit: 'x',
      reference: { label: 'constant (linear total)', value: 1 },
      target: 'linear (<= 1.5 x)',
      pass: cpuGrowth <= 1.5,
      note: scales
        .map((scale) => `${scale.teammates}: ${scale.cpuMsPerTurn.toFixed(2)} ms`)
        .join(', '),
    }),
    row({
      bench: 'runtime',
      figure: `growth of heap per idle teammate, ${span} teammates`,
      value: memoryGrowth,
      unit: 'x',
      reference: { label: 'constant (linear total)', value: 1 },
      target: 'linear (<= 1.5 x)',
      pass: memoryGrowth <= 1.5,
      note: scales
        .map((scale) => `${scale.teammates}: ${Math.round(scale.heapPerTeammateKB)} KB`)
        .join(', '),
    }),
    row({
      bench: 'runtime',
      figure: `turns per second, ${span} teammates`,
      value: rateGrowth,
      unit: 'x',
      reference: { label: 'flat', value: 1 },
      note: scales
        .map((scale) => `${scale.teammates}: ${Math.round(scale.turnsPerSecond)}/s`)
        .join(', '),
    }),
  ]
  const notes: string[] = []
  if (profile)
    notes.push(
      `runtime profile (turns of ${MAIN} teammates, main-thread time): by owner ${describeOwners(profile, 8)}; by place ${describePlaces(profile, 6)}; top functions ${describeFunctions(profile, 6)}.`,
    )
  return {
    name: 'runtime',
    rows,
    details: { turnsPerActivation: TURNS, scales, profile },
    notes,
  }
}
