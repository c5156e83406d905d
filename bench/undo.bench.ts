// Undo's checkpoints (issue 28): a checkpoint of a 10,000-file worktree after a 1 MB change
// (target ≤ 50 ms, and only the changed blob with its trees and the commit added), against
// `git status` in the same worktree; then a 100-turn session of a teammate in such a worktree
// against the offline model: the checkpoints' time per turn against the runtime's own CPU per
// turn, and how much the repository and the app's data grow. Environment: BENCH_UNDO_RUNS
// (default 20 checkpoints), BENCH_UNDO_TURNS (default 100).
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { OfflineModelServer } from '../src/offline-model/offline-server'
import { workspaceDataFolder } from '../src/runtime/fs/app-folders'
import { text, toolCall, type Script } from '../src/offline-model/script'
import type { RosterFile } from '../src/shared/roster'
import type { MemberWorktree } from '../src/shared/worktree'
import { TeamWorktrees } from '../src/runtime/git/team-worktrees'
import { TeamHost } from '../src/runtime/host/host'
import { TeamCheckpoints } from '../src/runtime/undo/team-checkpoints'
import {
  log,
  median,
  now,
  removeDirectory,
  round,
  row,
  tempDirectory,
  type BenchResult,
  type Row,
} from './lib/common'

const FILES = 10_000
const RUNS = Number(process.env.BENCH_UNDO_RUNS ?? 20)
const TURNS = Number(process.env.BENCH_UNDO_TURNS ?? 100)

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).trim()
}

/** A repository of FILES small files in 100 folders, one commit. */
function bigRepository(): string {
  const workspace = tempDirectory('undo')
  for (let folder = 0; folder < 100; folder++) {
    mkdirSync(join(workspace, 'src', `part-${folder}`), { recursive: true })
    for (let file = 0; file < FILES / 100; file++)
      writeFileSync(
        join(workspace, 'src', `part-${folder}`, `module-${file}.ts`),
        `export const value${folder}_${file} = ${file}\n`,
      )
  }
  git(workspace, 'init', '-q', '-b', 'main')
  git(workspace, 'add', '-A')
  git(workspace, '-c', 'user.name=Bench', '-c', 'user.email=b@x', 'commit', '-qm', 'Start')
  return workspace
}

function objectCount(workspace: string): number {
  const line = git(workspace, 'count-objects', '-v')
    .split('\n')
    .find((entry) => entry.startsWith('count:'))
  return Number(line?.split(' ')[1] ?? 0)
}

function folderBytes(folder: string): number {
  let total = 0
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true }))
    if (entry.isFile())
      // git's temporary object files come and go while a checkpoint is written.
      total += statSync(join(entry.parentPath, entry.name), { throwIfNoEntry: false })?.size ?? 0
  return total
}

async function checkpointOfBigChange(): Promise<{ rows: Row[]; details: Record<string, unknown> }> {
  const workspace = bigRepository()
  const dataFolder = tempDirectory('undo-data')
  try {
    let record: MemberWorktree | null = null
    const roster = (): RosterFile =>
      ({
        team_name: 'bench',
        members: [{ name: 'alice', role: 'coder', status: 'idle', worktree: record }],
      }) as unknown as RosterFile
    const worktrees = new TeamWorktrees({
      workspace,
      dataFolder,
      roster,
      sendToTeammate: () => undefined,
    })
    record = await worktrees.git.create('alice')
    const folder = worktrees.git.record('alice')?.folder ?? ''
    const checkpoints = new TeamCheckpoints({
      worktrees,
      dataFolder,
      taskOf: () => null,
      now: () => Date.now() / 1000,
    })
    let seq = 1
    const take = () => checkpoints.takeNow('alice', { kind: 'turn', turnSeq: seq++ })
    const firstStart = now()
    await take()
    const firstMs = now() - firstStart
    const times: number[] = []
    const statusTimes: number[] = []
    const added: number[] = []
    for (let run = 0; run < RUNS; run++) {
      writeFileSync(join(folder, 'src', 'part-7', 'big.bin'), randomBytes(1024 * 1024))
      const before = objectCount(workspace)
      const start = now()
      await take()
      times.push(now() - start)
      added.push(objectCount(workspace) - before)
      const statusStart = now()
      git(folder, 'status', '--porcelain')
      statusTimes.push(now() - statusStart)
    }
    log(`undo: checkpoint of ${FILES} files after a 1 MB change: ${round(median(times))} ms`)
    return {
      rows: [
        row({
          bench: 'undo',
          figure: `checkpoint of a ${FILES.toLocaleString('en')}-file worktree after a 1 MB change`,
          value: median(times),
          unit: 'ms',
          reference: { label: '`git status` in the same worktree', value: median(statusTimes) },
          target: '≤ 50 ms',
          pass: median(times) <= 50,
          note: `median of ${RUNS}; the first one (index built from HEAD) ${round(firstMs)} ms; load average ${loadavg()[0]?.toFixed(1) ?? '?'} on ${cpus().length} cores`,
        }),
        row({
          bench: 'undo',
          figure: 'objects a checkpoint adds after a 1 MB change',
          value: median(added),
          unit: 'objects',
          target: 'the changed blob, its 2 trees, the root tree and the commit (5)',
          pass: median(added) <= 5,
        }),
      ],
      details: { firstMs, times, statusTimes, added },
    }
  } finally {
    removeDirectory(workspace)
    removeDirectory(dataFolder)
  }
}

/** Each activation: one write_file of a 4 KB file (a new one every turn), then an answer. */
function writerScript(): Script {
  let turn = 0
  return (request) => {
    const messages = request.messages as { content: unknown }[]
    const last = messages.at(-1)
    const afterTool =
      Array.isArray(last?.content) &&
      (last.content as { type: string }[]).some((block) => block.type === 'tool_result')
    if (afterTool) return text('Written.')
    turn++
    return toolCall('write_file', {
      path: `notes/turn-${turn}.md`,
      content: `# Turn ${turn}\n${'x'.repeat(4096)}\n`,
    })
  }
}

async function session(): Promise<{ rows: Row[]; details: Record<string, unknown> }> {
  const workspace = bigRepository()
  const dataFolder = tempDirectory('undo-session-data')
  const server = await OfflineModelServer.start({ script: writerScript(), apiKey: 'bench-key' })
  const host = await TeamHost.open({
    workspace,
    watch: false,
    dataFolder,
    trust: { store: null, forRun: true },
    endpoint: { apiKey: 'bench-key', baseURL: server.url, model: 'offline-bench', maxRetries: 0 },
  })
  try {
    let checkpointMs = 0
    const takeNow = host.checkpoints.takeNow.bind(host.checkpoints)
    host.checkpoints.takeNow = async (name, request) => {
      const start = now()
      try {
        return await takeNow(name, request)
      } finally {
        checkpointMs += now() - start
      }
    }
    await host.spawn({ name: 'alice', role: 'writer', prompt: 'Write turn 1.', worktree: true })
    await host.whenIdle()
    await host.worktrees.settled('alice')
    // The first turns build the app's index: the session is measured from here.
    checkpointMs = 0
    const objectsBefore = folderBytes(join(workspace, '.git', 'objects'))
    const records = join(workspaceDataFolder(dataFolder, workspace), 'checkpoints')
    const dataBefore = folderBytes(records)
    const cpuBefore = process.cpuUsage()
    for (let turn = 2; turn <= TURNS + 1; turn++) {
      host.send({ to: 'alice', content: `Write turn ${turn}.` })
      await host.whenIdle()
      // The checkpoint at rest is queued as the activation ends: the turn ends with it.
      await host.worktrees.settled('alice')
    }
    const cpu = process.cpuUsage(cpuBefore)
    const cpuMsPerTurn = (cpu.user + cpu.system) / 1000 / TURNS
    const checkpointMsPerTurn = checkpointMs / TURNS
    const objectsGrowth = folderBytes(join(workspace, '.git', 'objects')) - objectsBefore
    const dataGrowth = folderBytes(records) - dataBefore
    const written = TURNS * 4200
    log(
      `undo: ${TURNS} turns: checkpoints ${round(checkpointMsPerTurn)} ms a turn, runtime CPU ${round(cpuMsPerTurn)} ms a turn; +${objectsGrowth} B objects, +${dataGrowth} B data`,
    )
    return {
      rows: [
        row({
          bench: 'undo',
          figure: `checkpoints per turn (before each of its 2 model calls, and a repeat of the second at rest), ${FILES.toLocaleString('en')}-file worktree`,
          value: checkpointMsPerTurn,
          unit: 'ms',
          reference: { label: "the turn's own runtime CPU", value: cpuMsPerTurn },
          note: `wall time, taken while the model answers; git runs in its own processes; load average ${loadavg()[0]?.toFixed(1) ?? '?'} on ${cpus().length} cores`,
        }),
        row({
          bench: 'undo',
          figure: `disk growth over a ${TURNS}-turn session (git objects + the app's records)`,
          value: (objectsGrowth + dataGrowth) / 1024,
          unit: 'KiB',
          reference: { label: 'what the agent wrote', value: written / 1024 },
          note: `objects ${Math.round(objectsGrowth / 1024)} KiB (loose, blobs uncompressed, before any gc), records and index ${Math.round(dataGrowth / 1024)} KiB`,
        }),
      ],
      details: { checkpointMs, cpu, objectsGrowth, dataGrowth },
    }
  } finally {
    await host.close()
    await server.close()
    removeDirectory(workspace)
    removeDirectory(dataFolder)
  }
}

export async function run(): Promise<BenchResult> {
  const big = await checkpointOfBigChange()
  const long = await session()
  return {
    name: 'undo',
    rows: [...big.rows, ...long.rows],
    details: { ...big.details, ...long.details },
    notes: [],
  }
}
