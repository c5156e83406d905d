import { describe, expect, it } from 'vitest'
import type { TranscriptRecord } from '../../../src/shared/transcript'
import { parsePolicy } from '../../../src/renderer/settings/checkpoint-policy'
import { checkpointAnchors } from '../../../src/renderer/undo/turn-anchors'
import {
  applyBlock,
  applyParams,
  textAndCode,
  undoTitle,
  hasTaskCheckpoint,
  planView,
} from '../../../src/renderer/undo/undo-plan'
import { undoneRangesOf, undoneRows } from '../../../src/renderer/undo/undone'
import { checkpoint, plan, undoRecord } from './undo-fixtures'

const at = 1_700_000_000
function user(seq: number): TranscriptRecord {
  return { v: 1, seq, at, kind: 'user', from: 'user', text: `turn ${seq}` }
}

describe("the undo plan's view", () => {
  it('groups the files: what only this agent changed is restored, the rest is flagged', () => {
    const view = planView(plan())
    expect(view.restores.map((file) => file.path)).toEqual(['src/a.ts', 'src/b.ts'])
    expect(view.conflicts.map((file) => file.path)).toEqual(['src/c.ts', 'NOTES.md'])
    expect(view.refusal).toBeNull()
    expect(view.commits).toBeNull()
    expect(view.turns).toContain('#12–#20 will be marked Undone')
    expect(applyBlock(plan())).toBeNull()
  })

  it('says what becomes of the commits: a reset names where, a refusal blocks Undo with its reason', () => {
    const reset = planView(plan({ commits: { count: 2, action: 'reset', reason: null } }))
    expect(reset.commits).toBe('Its branch goes back to h3, dropping 2 commits alice made since.')
    expect(reset.refusal).toBeNull()

    const reason = 'main already holds them (a merge). Revert them with a revert commit instead.'
    const refused = plan({ commits: { count: 1, action: 'refused', reason } })
    expect(planView(refused).refusal).toBe(reason)
    expect(planView(refused).commits).toContain('alice made 1 commit since')
    expect(applyBlock(refused)).toMatch(/cannot be reset/)
  })

  it("applies with the plan's id, overwriting only flagged files the person ticked", () => {
    expect(applyParams(plan(), new Set())).toEqual({
      name: 'alice',
      target: { by: 'turns', turns: 1 },
      planId: 'plan-1',
    })
    // src/a.ts is not flagged: ticking it (it has no box) changes nothing.
    expect(applyParams(plan(), new Set(['NOTES.md', 'src/a.ts', 'elsewhere']))).toEqual({
      name: 'alice',
      target: { by: 'turns', turns: 1 },
      planId: 'plan-1',
      overwrite: ['NOTES.md'],
    })
    expect(applyParams(plan(), new Set(), '  It broke the build.  ')).toMatchObject({
      reason: 'It broke the build.',
    })
    expect(applyParams(plan(), new Set(), '   ')).not.toHaveProperty('reason')
  })

  it('names the target in words', () => {
    expect(undoTitle('alice', { by: 'turns', turns: 1 })).toBe("Undo alice's last turn")
    expect(undoTitle('alice', { by: 'turns', turns: 3 })).toBe("Undo alice's last 3 turns")
    expect(undoTitle('alice', { by: 'task', task: '4' })).toBe("Undo alice's changes for task #4")
    expect(undoTitle('alice', { by: 'checkpoint', seq: 7 })).toBe(
      "Undo alice's turn and what followed",
    )
  })

  it("sets a refusal's commands apart from its words", () => {
    expect(textAndCode('Way out: `git revert a..b`, or undo less')).toEqual([
      { text: 'Way out: ', code: false },
      { text: 'git revert a..b', code: true },
      { text: ', or undo less', code: false },
    ])
    expect(textAndCode('No command here.')).toEqual([{ text: 'No command here.', code: false }])
  })
})

describe('where a transcript offers undo', () => {
  const checkpoints = [checkpoint(1, 3), checkpoint(2, 8), checkpoint(3, 9), checkpoint(4, 15)]

  it("anchors each checkpoint on its turn's first row; the latest wins a shared row", () => {
    const rows = [
      { key: 'u1', seq: 1 },
      { key: 'a3-0', seq: 3 },
      { key: 'ttu1', seq: 3 },
      // 8 drew no row (a paired tool result): checkpoints 2 and 3 both fall before row 10.
      { key: 'a10-0', seq: 10 },
      { key: 'live-text' },
      { key: 'u16', seq: 16 },
    ]
    const anchors = checkpointAnchors(rows, checkpoints, 1)
    expect(Object.fromEntries(Object.entries(anchors).map(([key, cp]) => [key, cp.seq]))).toEqual({
      'a3-0': 1,
      'a10-0': 3,
      u16: 4,
    })
  })

  it('knows whether a task has a checkpoint to go back to (one taken before a turn)', () => {
    expect(hasTaskCheckpoint([checkpoint(1, 3, '4')], '4')).toBe(true)
    expect(hasTaskCheckpoint([checkpoint(1, 3, '4')], '5')).toBe(false)
    expect(hasTaskCheckpoint([{ ...checkpoint(1, 3, '4'), kind: 'rest' }], '4')).toBe(false)
  })

  it('anchors only checkpoints taken before a turn, not at rest or before an undo', () => {
    const rows = [
      { key: 'a3-0', seq: 3 },
      { key: 'u9', seq: 9 },
      { key: 'u12', seq: 12 },
    ]
    const anchors = checkpointAnchors(
      rows,
      [
        { ...checkpoint(1, 3), kind: 'turn', opensTurn: true },
        { ...checkpoint(2, 9), kind: 'rest' },
        { ...checkpoint(3, 12), kind: 'undo' },
      ],
      1,
    )
    expect(Object.keys(anchors)).toEqual(['a3-0'])
  })

  it('anchors nothing for a checkpoint whose turn is on a page not loaded', () => {
    const rows = [
      { key: 'a10-0', seq: 10 },
      { key: 'u16', seq: 16 },
    ]
    const anchors = checkpointAnchors(rows, checkpoints, 10)
    expect(Object.keys(anchors)).toEqual(['u16'])
  })
})

describe('the undone marks', () => {
  it('marks the records an undo names, the badge on the first loaded row of the range', () => {
    const records = [user(1), user(2), user(3), user(4), undoRecord(5, 'u-1', 2, 4)]
    const ranges = undoneRangesOf(records)
    expect(ranges).toEqual([
      { from: 2, to: 4, undoId: 'u-1', at: at + 5, by: 'user', isRedo: false },
    ])
    const rows = [
      { key: 'u1', seq: 1 },
      { key: 'u2', seq: 2 },
      { key: 'u3', seq: 3 },
      { key: 'u4', seq: 4 },
      { key: 'x5', seq: 5 },
    ]
    const marks = undoneRows(rows, ranges)
    expect(Object.keys(marks)).toEqual(['u2', 'u3', 'u4'])
    expect(marks['u2']?.first).toBe(true)
    expect(marks['u3']?.first).toBe(false)
  })

  it('a redo clears its undo’s mark; its own range is marked as a redo (no Redo of its own)', () => {
    const undone = [user(1), user(2), undoRecord(3, 'u-1', 1, 2)]
    const redone = [...undone, undoRecord(4, 'u-2', 3, 3, 'u-1')]
    expect(undoneRangesOf(redone)).toEqual([
      { from: 3, to: 3, undoId: 'u-2', at: at + 4, by: 'user', isRedo: true },
    ])
    const rows = [
      { key: 'u1', seq: 1 },
      { key: 'u2', seq: 2 },
    ]
    expect(undoneRows(rows, undoneRangesOf(redone))).toEqual({})
    // Undone again after the redo: marked again.
    const again = [...redone, undoRecord(5, 'u-3', 1, 2)]
    expect(Object.keys(undoneRows(rows, undoneRangesOf(again)))).toEqual(['u1', 'u2'])
  })

  it('has nothing to mark in a transcript without undo records', () => {
    expect(undoneRangesOf([user(1), user(2)])).toEqual([])
  })
})

describe('the checkpoint policy as typed', () => {
  it('takes a whole count and a number of days within the limits', () => {
    expect(parsePolicy('50', '7')).toEqual({ ok: true, policy: { maxPerAgent: 50, maxAgeDays: 7 } })
    expect(parsePolicy('1,000', '0,5')).toEqual({
      ok: true,
      policy: { maxPerAgent: 1000, maxAgeDays: 0.5 },
    })
    expect(parsePolicy('0', '7')).toMatchObject({ ok: false, error: /per agent/ })
    expect(parsePolicy('2.5', '7')).toMatchObject({ ok: false, error: /whole number/ })
    expect(parsePolicy('', '7')).toMatchObject({ ok: false })
    expect(parsePolicy('10', '')).toMatchObject({ ok: false, error: /Days/ })
    expect(parsePolicy('10', '9999')).toMatchObject({ ok: false, error: /Days/ })
  })
})
