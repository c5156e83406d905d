import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TaskBoard } from '../../../src/runtime/tasks/task-board'
import { sweepLeftovers } from '../../../src/runtime/tasks/task-files'

let root: string
let board: TaskBoard
let now = 1_800_000_000_000

beforeEach(() => {
  root = join(mkdtempSync(join(tmpdir(), 'agent-teams-board-')), '.team')
  board = new TaskBoard(root, { now: () => (now += 1000) })
})
afterEach(() => rmSync(join(root, '..'), { recursive: true, force: true }))

describe('the task board', () => {
  it('numbers tasks from 1 and writes each as its own versioned file', () => {
    const first = board.create({ subject: 'Write the parser', by: 'lead' })
    const second = board.create({ subject: 'Test it', blockedBy: ['1'], by: 'user' })
    expect([first.id, second.id]).toEqual(['1', '2'])
    const file = JSON.parse(readFileSync(join(root, 'tasks', '2.json'), 'utf8'))
    expect(file).toMatchObject({ v: 1, id: '2', status: 'pending', blocked_by: ['1'] })
    expect(file.created_by).toBe('user')
  })

  it('refuses a self-edge, a missing id and a cycle, saying which', () => {
    board.create({ subject: 'a', by: 'lead' })
    board.create({ subject: 'b', blockedBy: ['1'], by: 'lead' })
    board.create({ subject: 'c', blockedBy: ['2'], by: 'lead' })
    expect(() => board.update('1', { blockedBy: ['1'] }, 'lead')).toThrow(/blocked by itself/)
    expect(() => board.create({ subject: 'd', blockedBy: ['9'], by: 'lead' })).toThrow(
      /Task 9 does not exist/,
    )
    expect(() => board.update('1', { blockedBy: ['3'] }, 'lead')).toThrow(/cycle \(1 → 3 → 2 → 1\)/)
    expect(board.get('1').blocked_by).toEqual([])
  })

  it('refuses to claim a blocked task, and completing the blocker unblocks it', () => {
    board.create({ subject: 'a', by: 'lead' })
    board.create({ subject: 'b', blockedBy: ['1'], by: 'lead' })
    expect(board.claim('2', 'bob')).toMatchObject({
      ok: false,
      reason: 'blocked',
      blockers: ['1'],
      message: 'Task 2 is blocked by task 1 (not done yet).',
    })
    expect(board.claim('1', 'alice').ok).toBe(true)
    const { unblocked } = board.complete('1', 'alice', 'parser written')
    expect(unblocked.map((task) => task.id)).toEqual(['2'])
    expect(board.get('1')).toMatchObject({ status: 'done', result: 'parser written' })
    expect(board.claim('2', 'bob')).toMatchObject({ ok: true })
  })

  it('gives a second claimer "already claimed by X", and one in-progress task per agent', () => {
    board.create({ subject: 'a', by: 'lead' })
    board.create({ subject: 'b', by: 'lead' })
    expect(board.claim('1', 'alice').ok).toBe(true)
    expect(board.claim('1', 'bob')).toMatchObject({
      ok: false,
      reason: 'taken',
      owner: 'alice',
      message: 'Task 1 is already claimed by alice.',
    })
    expect(board.claim('2', 'alice')).toMatchObject({ ok: false, reason: 'holding' })
    expect(board.claim('2', 'alice', { exclusive: false }).ok).toBe(true)
    expect(board.claim('7', 'alice')).toMatchObject({ ok: false, reason: 'missing' })
  })

  it('lets an owner update only its own task, and only the lead change owners', () => {
    board.create({ subject: 'a', by: 'lead' })
    board.claim('1', 'alice')
    expect(() => board.update('1', { note: 'hi' }, 'bob', true)).toThrow(/not yours/)
    expect(() => board.update('1', { owner: 'bob' }, 'alice', true)).toThrow(/Only the lead/)
    expect(board.update('1', { status: 'review', note: 'ready' }, 'alice', true).status).toBe(
      'review',
    )
    expect(board.update('1', { owner: 'bob' }, 'lead').owner).toBe('bob')
  })

  it('releases the tasks of an agent that stopped, with a note', () => {
    board.create({ subject: 'a', by: 'lead' })
    board.create({ subject: 'b', by: 'lead' })
    board.claim('1', 'alice')
    board.claim('2', 'bob')
    const released = board.release(
      (owner) => owner === 'alice',
      (owner) => `${owner} stopped`,
    )
    expect(released.map((task) => task.id)).toEqual(['1'])
    expect(board.get('1')).toMatchObject({ status: 'pending', owner: null })
    expect(board.get('1').notes.at(-1)?.text).toBe('released: alice stopped')
    expect(board.get('2').status).toBe('in_progress')
  })

  it('reports hostile task files and goes on: never a crash, never overwritten', () => {
    board.create({ subject: 'good', by: 'lead' })
    const tasks = join(root, 'tasks')
    writeFileSync(join(tasks, '2.json'), '{"v":1,"id":"2"')
    writeFileSync(join(tasks, '3.json'), JSON.stringify({ v: 1, id: '3', subject: 7 }))
    writeFileSync(join(tasks, '4.json'), JSON.stringify({ v: 9 }))
    writeFileSync(join(tasks, '5.json'), '['.repeat(5000))
    writeFileSync(join(tasks, 'notes.json'), '{}')
    mkdirSync(join(tasks, '6.json'))
    const { tasks: read, problems } = board.list()
    expect(read.map((task) => task.id)).toEqual(['1'])
    const messages = problems.map((problem) => problem.message).join('\n')
    expect(messages).toMatch(/2\.json is skipped: it is not valid JSON/)
    expect(messages).toMatch(/3\.json is skipped: subject: expected string, received number/)
    expect(messages).toMatch(/4\.json is skipped: it was written by a newer version/)
    expect(messages).toMatch(/5\.json is skipped: it is nested deeper than 32/)
    expect(messages).toMatch(/notes\.json is not a task file/)
    expect(messages).toMatch(/6\.json.*a folder/)
    // A new task takes a fresh id: the damaged files stay as they were.
    expect(board.create({ subject: 'next', by: 'lead' }).id).toBe('7')
    expect(readFileSync(join(tasks, '2.json'), 'utf8')).toBe('{"v":1,"id":"2"')
    expect(board.claim('2', 'alice')).toMatchObject({ ok: false, reason: 'damaged' })
    expect(() => board.update('3', { note: 'x' }, 'lead')).toThrow(/3\.json is skipped/)
  })

  it('sweeps what killed writers left, never a task', () => {
    board.create({ subject: 'a', by: 'lead' })
    const tasks = join(root, 'tasks')
    // pid 2^22 + 1 is above Linux's pid_max: no process has it.
    writeFileSync(join(tasks, `.1.json.${2 ** 22 + 1}.ab12.tmp`), '{')
    writeFileSync(join(tasks, `.1.json.${process.pid}.cd34.tmp`), '{')
    writeFileSync(join(tasks, 'board.lock.0011aa.tmp'), '{}')
    utimesSync(join(tasks, 'board.lock.0011aa.tmp'), new Date(0), new Date(0))
    writeFileSync(join(tasks, 'board.lock.2233bb.stale'), '{}')
    sweepLeftovers(tasks)
    expect(readdirSync(tasks).sort()).toEqual([
      `.1.json.${process.pid}.cd34.tmp`,
      '1.json',
      'board.lock.2233bb.stale',
    ])
  })
})
