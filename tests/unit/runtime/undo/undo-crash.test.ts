import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { writeFiles } from '../../../helpers/git'
import { REPO_ROOT } from '../../../helpers/processes'
import { treeOf, undoFixture, undoOver } from '../../../helpers/undo'

describe('an undo killed in the middle', () => {
  it.each([1, 2, 4])(
    'killed after %i file(s), the next open finishes it: the new state, never a mix',
    async (killAfter) => {
      const fixture = await undoFixture({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c/d.txt': 'd\n' })
      const { end } = undoOver(fixture)
      const folder = fixture.folder
      await fixture.checkpoints.takeNow('alice', { kind: 'turn', turnSeq: 1, opensTurn: true })
      const old = treeOf(folder)
      end.seq = 3
      writeFiles(folder, { 'a.txt': 'A\n', 'b.txt': 'B\n', 'new1.txt': '1\n', 'new2.txt': '2\n' })
      rmSync(join(folder, 'c/d.txt'))
      await fixture.checkpoints.takeNow('alice', { kind: 'rest', turnSeq: 4 })
      const changed = treeOf(folder)

      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          join(REPO_ROOT, 'tests/helpers/undo-child.ts'),
          fixture.workspace,
          fixture.dataFolder,
          String(killAfter),
          JSON.stringify(fixture.worktrees.record('alice')),
        ],
        { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
      )
      let stderr = ''
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
        child.once('close', (_code, how) => resolve(how)),
      )
      expect(stderr).toBe('')
      expect(signal).toBe('SIGKILL')
      // Killed mid-way: some files are back, some not.
      const killed = treeOf(folder)
      expect(killed).not.toEqual(old)
      expect(killed).not.toEqual(changed)

      const { undo, records } = undoOver(fixture)
      await undo.recover()
      expect(treeOf(folder)).toEqual(old)
      expect(records).toMatchObject([{ kind: 'undo', undo_id: 'u-crash' }])
      expect(undo.journals.read('alice', 'u-crash')?.state).toBe('done')
    },
  )
})
