// The runtime benchmark's team: a TeamHost with N teammates against an offline model server in
// another process (argv: serverUrl N turnsPerActivation). Run with --expose-gc. Talks to the
// benchmark over IPC so the benchmark can read the server's CPU time at the same moments:
//   -> {phase:'warm'}         after a warm-up teammate did one activation (JIT warm)
//   -> {phase:'idle', ...}    after spawning N teammates that went idle: memory per teammate
//   <- {go:true}
//   -> {phase:'turns', ...}   after every teammate was woken by mail and made T model calls
//                             (T-1 tool calls, read_inbox and read_file in turn, then an answer)
//   -> {phase:'bare', ...}    bare HTTP round-trips to the same server (the reference)
import { setTimeout as sleep } from 'node:timers/promises'
import { writeFileSync } from 'node:fs'
import { Agent, request as httpRequest } from 'node:http'
import { Session } from 'node:inspector'
import { join } from 'node:path'
import type { MessageParam, Tool as ApiTool } from '@anthropic-ai/sdk/resources/messages'
import { TeamHost } from '../../src/runtime/host/host'
import { ModelClient } from '../../src/runtime/model/client'
import { now, removeDirectory, tempDirectory } from '../lib/common'

const [url, countText, turnsText, profilePath] = process.argv.slice(2) as [
  string,
  string,
  string,
  string | undefined,
]
const N = Number(countText)
const T = Number(turnsText)
const LIMIT_MS = 180_000
const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('run with --expose-gc')

function send(message: Record<string, unknown>): void {
  process.send?.(message)
}
function nextMessage(): Promise<Record<string, unknown>> {
  return new Promise((resolve) => process.once('message', resolve))
}
/** A CPU profile of the turns phase only, when a path is given (a separate, slower run). */
const session = profilePath ? new Session() : null
function inspector(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
  return new Promise((resolve, reject) =>
    session?.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
  )
}
function settle(): void {
  for (let round = 0; round < 4; round++) gc?.()
}

const workspace = tempDirectory('runtime')
// What read_file reads: about a kilobyte of notes.
writeFileSync(
  join(workspace, 'README.md'),
  Array.from({ length: 20 }, (_, line) => `${line + 1}. a line of notes for the team to read`).join(
    '\n',
  ),
)
const host = await TeamHost.open({
  workspace,
  // The bench's own team: trusted for the run, nothing remembered.
  trust: { store: null, forRun: true },
  endpoint: { apiKey: 'bench-key', baseURL: url, model: 'offline', maxRetries: 0 },
})
let assistantTurns = 0
host.subscribe((event) => {
  if (event.type === 'transcript-appended' && event.record.kind === 'assistant') assistantTurns++
})

async function turnsReached(target: number, what: string): Promise<void> {
  const deadline = now() + LIMIT_MS
  while (assistantTurns < target) {
    if (now() > deadline) throw new Error(`${what}: ${assistantTurns} of ${target} turns`)
    await host.whenIdle()
    if (assistantTurns < target) await sleep(1)
  }
  await host.whenIdle()
}

// Warm-up: one teammate through a whole activation, so the JIT is warm and lazy modules are in.
await host.spawn({ name: 'warmup', role: 'worker', prompt: 'Stand by.' })
await turnsReached(1, 'warm-up spawn')
host.send({ to: 'warmup', content: 'GO' })
await turnsReached(1 + T, 'warm-up turns')
await sleep(200)
send({ phase: 'warm' })

// Memory per idle teammate: spawned, answered once, idle (transcript, consumer, agent objects).
settle()
const before = process.memoryUsage()
const baseTurns = assistantTurns
const names = Array.from({ length: N }, (_, index) => `t${String(index).padStart(3, '0')}`)
const spawnStart = now()
for (const name of names) await host.spawn({ name, role: 'worker', prompt: 'Stand by.' })
await turnsReached(baseTurns + N, 'spawn')
const spawnMs = now() - spawnStart
await sleep(300)
settle()
const after = process.memoryUsage()
send({
  phase: 'idle',
  spawnMs,
  heapPerTeammateKB: (after.heapUsed - before.heapUsed) / 1024 / N,
  rssPerTeammateKB: (after.rss - before.rss) / 1024 / N,
  externalPerTeammateKB:
    (after.external + after.arrayBuffers - before.external - before.arrayBuffers) / 1024 / N,
  heapUsedMB: after.heapUsed / 1048576,
  rssMB: after.rss / 1048576,
})
await nextMessage()

// Turns: every teammate woken by a message makes T model calls (T-1 read_inbox, then an answer).
const startTurns = assistantTurns
if (session) {
  session.connect()
  await inspector('Profiler.enable')
  await inspector('Profiler.setSamplingInterval', { interval: 200 })
  await inspector('Profiler.start')
}
const cpu = process.cpuUsage()
const start = now()
for (const name of names) host.send({ to: name, content: 'GO' })
await turnsReached(startTurns + N * T, 'turns')
const wallMs = now() - start
const used = process.cpuUsage(cpu)
if (session && profilePath) {
  const { profile } = (await inspector('Profiler.stop')) as { profile: unknown }
  writeFileSync(profilePath, JSON.stringify(profile))
  session.disconnect()
}
const turns = assistantTurns - startTurns
send({
  phase: 'turns',
  turns,
  wallMs,
  turnsPerSecond: turns / (wallMs / 1000),
  cpuMsPerTurn: (used.user + used.system) / 1000 / turns,
  userMsPerTurn: used.user / 1000 / turns,
})
// The go comes with a request the warm-up teammate sent mid-activation (kept by the server).
const middle = (await nextMessage()).body as string | undefined

// The reference: bare round-trips with fetch (the transport the SDK uses) to the same server,
// as many at once as there are teammates (at most 50), each reading the whole SSE stream.
const BARE = Math.max(200, Math.min(2000, N * T))
const concurrency = Math.min(50, N)
const body = JSON.stringify({
  model: 'offline',
  max_tokens: 64,
  stream: true,
  messages: [{ role: 'user', content: 'hi' }],
})
let done = 0
const bareCpu = process.cpuUsage()
const bareStart = now()
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (done < BARE) {
      done++
      const response = await fetch(`${url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'bench-key' },
        body,
      })
      await response.text()
    }
  }),
)
const bareWall = now() - bareStart
const bareUsed = process.cpuUsage(bareCpu)

// And with node:http on keep-alive sockets: what a round-trip costs without fetch (undici).
const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
const target = new URL(`${url}/v1/messages`)
const httpRoundTrip = () =>
  new Promise<void>((resolve, reject) => {
    const request = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-api-key': 'bench-key',
        },
      },
      (response) => {
        response.on('data', () => undefined)
        response.on('end', () => resolve())
        response.on('error', reject)
      },
    )
    request.on('error', reject)
    request.end(body)
  })
let httpDone = 0
const httpCpu = process.cpuUsage()
const httpStart = now()
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (httpDone < BARE) {
      httpDone++
      await httpRoundTrip()
    }
  }),
)
const httpWall = now() - httpStart
const httpUsed = process.cpuUsage(httpCpu)
agent.destroy()

// The SDK alone (ModelClient.turn, as an agent calls it) with a real mid-activation request of
// one teammate: what the model call costs the runtime before any of our own code.
let sdk: { calls: number; perSecond: number; cpuMsPerCall: number; bodyBytes: number } | null = null
if (middle) {
  const request = JSON.parse(middle) as {
    // As sent: text blocks carrying the cache mark.
    system: { text: string }[]
    messages: MessageParam[]
    tools: ApiTool[]
  }
  const client = new ModelClient({
    apiKey: 'bench-key',
    baseURL: url,
    model: 'offline',
    maxRetries: 0,
  })
  const SDK_CALLS = Math.min(1000, Math.max(200, N * T))
  let sdkDone = 0
  const sdkCpu = process.cpuUsage()
  const sdkStart = now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (sdkDone < SDK_CALLS) {
        sdkDone++
        await client.turn({
          agent: 'bare-sdk',
          system: request.system.map((block) => block.text).join(''),
          messages: request.messages,
          tools: request.tools,
          observer: { onText: () => undefined },
        })
      }
    }),
  )
  const sdkUsed = process.cpuUsage(sdkCpu)
  sdk = {
    calls: sdkDone,
    perSecond: sdkDone / ((now() - sdkStart) / 1000),
    cpuMsPerCall: (sdkUsed.user + sdkUsed.system) / 1000 / sdkDone,
    bodyBytes: Buffer.byteLength(middle),
  }
}
send({
  phase: 'bare',
  requests: done,
  perSecond: done / (bareWall / 1000),
  cpuMsPerRequest: (bareUsed.user + bareUsed.system) / 1000 / done,
  sdk,
  http: {
    requests: httpDone,
    perSecond: httpDone / (httpWall / 1000),
    cpuMsPerRequest: (httpUsed.user + httpUsed.system) / 1000 / httpDone,
  },
})
await nextMessage()
await host.close()
removeDirectory(workspace)
process.exit(0)
