import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isProcessAlive } from '../../src/runtime/fs/processes'
import { TaskBoard } from '../../src/runtime/tasks/task-board'
import type { Task } from '../../src/shared/tasks'
import { bundleWorkers, seededRandom, sleep, startWorker, type Worker } from './processes'

const CLAIMERS = 8
const TASKS = 200

let workers: Awaited<ReturnType<typeof bundleWorkers>>
const workspaces: string[] = []

beforeAll(async () => {
  workers = await bundleWorkers(['task-claimer'])
})
afterAll(() => {
  workers.dispose()
  for (const workspace of workspaces) rmSync(workspace, { recursive: true, force: true })
})

/** 200 tasks; about a third wait on one or two earlier ones (so the graph has no cycle). */
function fillBoard(random: () => number): { workspace: string; board: TaskBoard } {
  const workspace = mkdtempSync(join(tmpdir(), 'agent-teams-tasks-'))
  workspaces.push(workspace)
  const board = new TaskBoard(join(workspace, '.team'))
  for (let index = 1; index <= TASKS; index++) {
    const blockedBy: string[] = []
    if (index > 10 && random() < 0.35) {
      blockedBy.push(String(1 + Math.floor(random() * (index - 1))))
      if (random() < 0.3) blockedBy.push(String(1 + Math.floor(random() * (index - 1))))
    }
    board.create({ subject: `task number ${index}`, blockedBy, by: 'lead' })
  }
  return { workspace, board }
}

interface Claimer {
  readonly worker: Worker
  readonly lines: string[]
  killed: boolean
}

function startClaimer(workspace: string, label: string, onWin: () => void): Claimer {
  const worker = startWorker(workers.path('task-claimer'), [workspace, label])
  const claimer: Claimer = { worker, lines: [], killed: false }
  let partial = ''
  worker.child.stdout?.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString()).split('\n')
    partial = parts.pop() ?? ''
    for (const line of parts) {
      claimer.lines.push(line)
      if (line.startsWith('won ')) onWin()
    }
  })
  return claimer
}

const claimNotes = (task: Task): number =>
  task.notes.filter((note) => note.text.startsWith('claimed by ')).length

/** Every won line across claimers, as task id → how many times it was printed. */
function wins(claimers: readonly Claimer[]): Map<string, number> {
  const counted = new Map<string, number>()
  for (const claimer of claimers)
    for (const line of claimer.lines)
      if (line.startsWith('won ')) {
        const id = line.split(' ')[1] ?? ''
        counted.set(id, (counted.get(id) ?? 0) + 1)
      }
  return counted
}

function problemLines(claimers: readonly Claimer[]): string[] {
  return claimers.flatMap((claimer) =>
    claimer.lines.filter(
      (line) =>
        line.includes(' early ') || line.startsWith('problem') || line.startsWith('refused'),
    ),
  )
}

describe(`${CLAIMERS} processes claiming ${TASKS} tasks`, () => {
  it('claims every task exactly once, none blocked early, no corrupt file', async () => {
    const { workspace, board } = fillBoard(seededRandom(Number(process.env.STRESS_SEED ?? 14)))
    const claimers = Array.from({ length: CLAIMERS }, (_, index) =>
      startClaimer(workspace, `c${index}`, () => undefined),
    )
    const codes = await Promise.all(claimers.map((claimer) => claimer.worker.exited))
    expect(codes, claimers.map((claimer) => claimer.worker.stderr()).join('\n')).toEqual(
      claimers.map(() => 0),
    )
    const won = wins(claimers)
    expect(won.size).toBe(TASKS)
    expect([...won.values()].every((count) => count === 1)).toBe(true)
    expect(problemLines(claimers)).toEqual([])
    const { tasks, problems } = board.list()
    expect(problems).toEqual([])
    expect(tasks).toHaveLength(TASKS)
    expect(tasks.filter((task) => task.status !== 'done')).toEqual([])
    expect(tasks.filter((task) => claimNotes(task) !== 1)).toEqual([])
    // The work was shared: more than one process won claims.
    expect(
      claimers.filter((claimer) => claimer.lines.some((line) => line.startsWith('won '))).length,
    ).toBeGreaterThan(1)
  }, 300_000)

  it('with claimers SIGKILLed at random, every task ends claimed once or back in pending', async () => {
    const random = seededRandom(Number(process.env.STRESS_SEED ?? 41))
    const { workspace, board } = fillBoard(random)
    let winsSeen = 0
    const killAt = new Set([15, 45, 90, 130])
    const claimers: Claimer[] = []
    const onWin = (): void => {
      winsSeen++
      if (!killAt.has(winsSeen)) return
      const alive = claimers.filter((claimer) => !claimer.killed)
      const victim = alive[Math.floor(random() * alive.length)]
      if (victim === undefined) return
      victim.killed = true
      // A moment later, so that the kill lands anywhere: inside a claim, a write, a completion.
      void sleep(random() * 15).then(() => victim.worker.child.kill('SIGKILL'))
    }
    for (let index = 0; index < CLAIMERS; index++)
      claimers.push(startClaimer(workspace, `k${index}`, onWin))
    await Promise.all(claimers.map((claimer) => claimer.worker.exited))
    expect(claimers.filter((claimer) => claimer.killed).length).toBeGreaterThan(0)
    for (const claimer of claimers.filter((each) => !each.killed))
      expect(claimer.lines.at(-1), claimer.worker.stderr()).toBe('finished')

    const won = wins(claimers)
    expect([...won.values()].every((count) => count === 1)).toBe(true)
    expect(problemLines(claimers)).toEqual([])
    const { tasks, problems } = board.list()
    expect(problems).toEqual([])
    expect(tasks).toHaveLength(TASKS)
    for (const task of tasks) {
      if (task.status === 'pending') expect(claimNotes(task)).toBe(0)
      else {
        expect(['done', 'in_progress']).toContain(task.status)
        expect(claimNotes(task)).toBe(1)
      }
      // Held only by a claimer that is gone: a live one would have completed it.
      if (task.status === 'in_progress')
        expect(isProcessAlive(Number(task.owner?.split('-').pop()))).toBe(false)
    }
    // The runtime's release puts what the dead claimers held back to pending, with a note.
    const held = tasks.filter((task) => task.status === 'in_progress').length
    const released = board.release(
      (owner) => !isProcessAlive(Number(owner.split('-').pop())),
      (owner) => `${owner} is gone`,
    )
    expect(released).toHaveLength(held)
    const after = board.list().tasks
    expect(after.filter((task) => task.status === 'in_progress')).toEqual([])
    expect(after.filter((task) => task.status === 'pending').length).toBeGreaterThanOrEqual(held)
    expect(
      released.every((task) => task.notes.at(-1)?.text.startsWith('released: ') === true),
    ).toBe(true)
    // Nothing but task files (and perhaps a killed writer's temp file) is left in the folder.
    const strays = readdirSync(board.directory).filter(
      (file) => !/^\d+\.json$/.test(file) && !file.endsWith('.tmp'),
    )
    expect(strays.filter((file) => file !== 'board.lock')).toEqual([])
  }, 300_000)
})
