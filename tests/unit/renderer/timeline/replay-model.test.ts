import { describe, expect, it } from 'vitest'
import { ReplayCursor } from '../../../../src/renderer/timeline/replay-model'
import { entry, message } from './entries'

const task = (id: string, status: 'pending' | 'in_progress' | 'done', owner: string | null) => ({
  id,
  subject: `task ${id}`,
  status,
  owner,
})

const run = [
  entry('s1', 10, 'lead', { kind: 'status', status: 'working' }),
  entry('k1', 11, 'lead', { kind: 'task', task: task('1', 'pending', null) }),
  entry('t1', 12, 'lead', { kind: 'turn', end: 15 }),
  message('m1', 16, 'lead', 'bob', 'delivered', 17),
  entry('s2', 17, 'bob', { kind: 'status', status: 'working' }),
  entry('k2', 18, 'bob', { kind: 'task', task: task('1', 'in_progress', 'bob') }),
  entry('x1', 19, 'bob', { kind: 'tool', end: 25, summary: 'bash: npm test', failed: true }),
  entry('s3', 20, 'lead', { kind: 'status', status: 'idle' }),
  entry('k3', 26, 'bob', { kind: 'task', task: task('1', 'done', 'bob') }),
  entry('k4', 26, 'bob', { kind: 'task', task: task('2', 'pending', null) }),
  entry('s4', 27, 'bob', { kind: 'status', status: 'idle' }),
]

describe('replay: the team at a moment', () => {
  it('shows nothing before the run begins', () => {
    const frame = new ReplayCursor(run).seek(5)
    expect(frame.applied).toBe(0)
    expect(frame.statuses).toEqual({})
    expect(frame.tasks).toEqual([])
    expect(frame.activity).toEqual({})
  })

  it('derives the roster, the board and the activity from the entries up to the moment', () => {
    const cursor = new ReplayCursor(run)
    const frame = cursor.seek(21)
    expect(frame.statuses).toEqual({ lead: 'idle', bob: 'working' })
    expect(frame.tasks).toEqual([task('1', 'in_progress', 'bob')])
    expect(frame.activity['bob']?.map((line) => line.id)).toEqual(['x1'])
    expect(frame.activity['lead']?.map((line) => line.id)).toEqual(['t1', 'm1'])
    // bob's failed tool call runs from 19 to 25: at 21 it is what bob is doing.
    expect(frame.busy['bob']?.summary).toBe('bash: npm test')
    expect(frame.busy['lead']).toBeUndefined()

    const end = cursor.seek(30)
    expect(end.statuses).toEqual({ lead: 'idle', bob: 'idle' })
    expect(end.tasks).toEqual([task('1', 'done', 'bob'), task('2', 'pending', null)])
    expect(end.busy).toEqual({})
  })

  it('counts an entry at exactly the moment as happened', () => {
    const cursor = new ReplayCursor(run)
    expect(cursor.seek(17).statuses).toEqual({ lead: 'working', bob: 'working' })
    expect(cursor.seek(16.999).statuses).toEqual({ lead: 'working' })
  })

  it('applies only the entries passed when time moves forward', () => {
    const cursor = new ReplayCursor(run)
    cursor.seek(12)
    expect(cursor.appliedCount).toBe(3)
    cursor.seek(18)
    expect(cursor.appliedCount).toBe(6)
    // The same moment, or a moment with no entry in between, applies nothing.
    const again = cursor.seek(18)
    expect(cursor.seek(18)).toBe(again)
    const later = cursor.seek(18.5)
    expect(cursor.appliedCount).toBe(6)
    // Nothing happened in between: the roster and the board are the same objects (no re-render).
    expect(later.tasks).toBe(again.tasks)
    expect(later.statuses).toBe(again.statuses)
  })

  it('scrubs backward and forward to the same states as a fresh cursor', () => {
    const cursor = new ReplayCursor(run, { checkpointEvery: 3 })
    const moments = [30, 12, 21, 5, 26, 17, 30, 11]
    for (const moment of moments) {
      const fresh = new ReplayCursor(run).seek(moment)
      const scrubbed = cursor.seek(moment)
      expect(scrubbed.statuses, `at ${moment}`).toEqual(fresh.statuses)
      expect(scrubbed.tasks, `at ${moment}`).toEqual(fresh.tasks)
      expect(scrubbed.activity, `at ${moment}`).toEqual(fresh.activity)
      expect(scrubbed.applied, `at ${moment}`).toBe(fresh.applied)
    }
  })

  it('goes back from a checkpoint, not from the beginning', () => {
    const long = Array.from({ length: 10_000 }, (_, index) =>
      entry(String(index), index, 'lead', {
        kind: 'status',
        status: index % 2 === 0 ? 'working' : 'idle',
      }),
    )
    const cursor = new ReplayCursor(long, { checkpointEvery: 1000 })
    cursor.seek(9999)
    const before = cursor.appliedCount
    expect(cursor.seek(8501.5).statuses).toEqual({ lead: 'idle' })
    // From the checkpoint at 8,000 entries: about 500 applied, not 8,500.
    expect(cursor.appliedCount - before).toBeLessThanOrEqual(1000)
    expect(cursor.seek(2.5).statuses).toEqual({ lead: 'working' })
  })

  it('keeps the last few activity lines of each agent, and frames already handed out intact', () => {
    const busy = Array.from({ length: 8 }, (_, index) =>
      entry(`t${index}`, index, 'lead', { kind: 'tool', end: index + 0.5 }),
    )
    const cursor = new ReplayCursor(busy, { activityDepth: 3 })
    const early = cursor.seek(2)
    const late = cursor.seek(7)
    expect(late.activity['lead']?.map((line) => line.id)).toEqual(['t5', 't6', 't7'])
    expect(early.activity['lead']?.map((line) => line.id)).toEqual(['t0', 't1', 't2'])
    expect(late.busy['lead']?.id).toBe('t7')
  })
})
