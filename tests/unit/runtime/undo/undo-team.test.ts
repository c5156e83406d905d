import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { queueScript, text, toolCall } from '../../../../src/offline-model/script'
import { isUndoNotice, undoneRanges } from '../../../../src/shared/undo'
import { gitIn, gitWorkspace, worktreeFolder } from '../../../helpers/git'
import { startHost } from '../../../helpers/host'
import { treeOf } from '../../../helpers/undo'

describe('undo in a running team', () => {
  it("a scripted teammate's last turn, then its task's turns, undone and redone exactly", async () => {
    const workspace = gitWorkspace()
    const script = queueScript({
      alice: [
        // Turn 1: writes and edits.
        toolCall('write_file', { path: 'notes.txt', content: 'first\n' }),
        toolCall('write_file', { path: 'README.md', content: '# Edited\n' }),
        text('Done.'),
        // Turn 2: deletes, commits and writes.
        toolCall('bash', {
          command: 'rm src/app.ts && git add -A && git commit -qm "remove app" && echo ok',
        }),
        toolCall('write_file', { path: 'later.txt', content: 'later\n' }),
        text('Done again.'),
        text('Understood: I will not redo it.'),
        text('Understood: it is back.'),
      ],
    })
    const team = await startHost(script, { workspace })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Work.' })
    await team.host.whenIdle()
    const folder = worktreeFolder(workspace, 'alice')
    const afterFirst = treeOf(folder)
    const branchAfterFirst = gitIn(workspace, 'rev-parse', 'team/alice')
    team.host.send({ to: 'alice', content: 'More.' })
    await team.host.whenIdle()
    expect(existsSync(join(folder, 'src/app.ts'))).toBe(false)

    const plan = await team.host.undo.plan('alice', { by: 'turns', turns: 1 })
    expect(plan.commits).toEqual({ count: 1, action: 'reset', reason: null })
    expect(plan.files.map((file) => `${file.change} ${file.path}`).sort()).toEqual([
      'A src/app.ts',
      'D later.txt',
    ])
    const result = await team.host.undo.apply({
      name: 'alice',
      target: plan.target,
      planId: plan.planId,
      by: 'user',
      reason: 'it deleted the app',
    })
    expect(treeOf(folder)).toEqual(afterFirst)
    expect(gitIn(workspace, 'rev-parse', 'team/alice')).toBe(branchAfterFirst)

    // The transcript keeps the undone turn, marked; the notice waits in the inbox, unread.
    const records = team.host.transcript('alice').records
    const undoRecord = records.find((record) => record.kind === 'undo')
    expect(undoRecord).toMatchObject({ undo_id: result.undoId, from_seq: plan.turns.from })
    const ranges = undoneRanges(records)
    const undoneKinds = records
      .filter((record) => ranges.some(([from, to]) => record.seq >= from && record.seq <= to))
      .map((record) => record.kind)
    expect(undoneKinds).toContain('assistant')
    // The notice reaches alice as mail from the person, and she answers it.
    await team.host.whenIdle()
    const notice = team.host
      .transcript('alice')
      .records.flatMap((record) => (record.kind === 'inbox' ? record.messages : []))
      .find((message) => isUndoNotice(message))
    expect(notice?.content).toContain('it deleted the app')
    expect(notice?.content).toContain('Files restored, 2 ')
    expect(notice?.content).toContain('\n  "later.txt"\n  "src/app.ts"\n(end of the list)')

    // Redo brings turn 2 back, its commit included.
    await team.host.undo.redo('alice', result.undoId, 'user')
    expect(existsSync(join(folder, 'src/app.ts'))).toBe(false)
    expect(readFileSync(join(folder, 'later.txt'), 'utf8')).toBe('later\n')
    expect(gitIn(workspace, 'log', '--format=%s', '-1', 'team/alice')).toBe('remove app')
    await team.host.whenIdle()
    script.assertConsumed()
    await team.host.close()
  })
})
