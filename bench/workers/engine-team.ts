// The engines benchmark's team: a TeamHost whose roster holds two idle teammates of one engine,
// `warmup` and `subject`, against the offline model server in the benchmark's process
// (argv: serverUrl engine model). Run with --expose-gc, and through tsx rather than bundled: the
// Claude Code SDK finds its binary from where it is installed, which a bundle in a temporary
// folder cannot. Talks to the benchmark over IPC, one command and one reply at a time:
//   -> {phase:'warm', sentAt, pid}  warm-up worked 3 times (modules in, sandbox up, JIT warm);
//                                   sentAt: when the first mail, which woke a cold host, was sent
//   -> {phase:'baseline', memory}   the host's memory before the subject ever worked
//   <- {cmd:'work'}   -> {phase:'sent', sentAt}    mail sent to the subject, which starts work
//   <- {cmd:'memory'} -> {phase:'memory', memory}  the host's memory now
//   <- {cmd:'finish'} -> {phase:'idle', memory}    the subject went idle (its call was answered)
//   <- {cmd:'wake'}   -> {phase:'woken', sentAt}   mail to the idle subject, which went idle again
//   <- {cmd:'close'}  the host closes and the worker exits
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { TeamHost } from '../../src/runtime/host/host'
import { now, removeDirectory, tempDirectory } from '../lib/common'

const [url, engine, model] = process.argv.slice(2) as [string, string, string]
/** Activations of the warm-up teammate before anything is measured. */
const WARM_UPS = 3
const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('run with --expose-gc')

interface Memory {
  readonly rss: number
  readonly heapUsed: number
}

function send(message: Record<string, unknown>): void {
  process.send?.(message)
}

/** Collected, then read: what the host holds, not garbage waiting for the next collection. */
async function memory(): Promise<Memory> {
  for (let round = 0; round < 4; round++) gc?.()
  await sleep(200)
  gc?.()
  const usage = process.memoryUsage()
  return { rss: usage.rss, heapUsed: usage.heapUsed }
}

const workspace = tempDirectory('engines')
const dataFolder = tempDirectory('engines-data')
mkdirSync(join(workspace, '.team'))
writeFileSync(
  join(workspace, '.team', 'config.json'),
  JSON.stringify({
    team_name: 'bench',
    members: ['warmup', 'subject'].map((name) => ({
      name,
      role: 'engineer',
      status: 'idle',
      ...(engine === 'builtin' ? {} : { engine }),
    })),
  }),
)
const host = await TeamHost.open({
  workspace,
  dataFolder,
  // The bench's own team: trusted for the run, nothing remembered.
  trust: { store: null, forRun: true },
  // The lead stays asleep: only the subject's work is measured.
  leadWakesOnMessages: false,
  endpoint: { apiKey: 'bench-key', baseURL: url, model, maxRetries: 0 },
  // As root, Claude Code takes the prompts it is given only when told it is in a sandbox.
  ...(process.getuid?.() === 0 ? { claudeCodeEnvironment: { IS_SANDBOX: '1' } } : {}),
})

/** Mail from the person to `name`; resolves with when it was sent. */
function mail(name: string, content: string): number {
  const sentAt = now()
  host.send({ to: name, content })
  return sentAt
}

// One activation leaves the JIT cold: the second and third grew the host's RSS by some 9 MB of
// compiled code and allocator arenas (built-in engine), which no later activation repeats.
const warmSentAt = mail('warmup', 'Say that you are ready.')
await host.whenIdle()
for (let round = 1; round < WARM_UPS; round++) {
  mail('warmup', 'Say it again.')
  await host.whenIdle()
}
send({ phase: 'warm', sentAt: warmSentAt, pid: process.pid })
await sleep(500)
send({ phase: 'baseline', memory: await memory() })

process.on('message', (message: { cmd?: string }) => {
  void (async () => {
    switch (message.cmd) {
      case 'work':
        return send({ phase: 'sent', sentAt: mail('subject', 'Work on the first task.') })
      case 'memory':
        return send({ phase: 'memory', memory: await memory() })
      case 'finish':
        await host.whenIdle()
        return send({ phase: 'idle', memory: await memory() })
      case 'wake': {
        const sentAt = mail('subject', 'One more thing.')
        await host.whenIdle()
        return send({ phase: 'woken', sentAt })
      }
      case 'close':
        await host.close()
        removeDirectory(workspace)
        removeDirectory(dataFolder)
        return process.exit(0)
      default:
        throw new Error(`engine-team: unknown command ${JSON.stringify(message)}`)
    }
  })()
})
