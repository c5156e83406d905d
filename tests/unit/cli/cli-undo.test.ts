import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { queueScript, text, toolCall } from '../../../src/offline-model/script'
import { cli } from '../../helpers/cli'
import { gitWorkspace, worktreeFolder } from '../../helpers/git'
import { startHost } from '../../helpers/host'
import { waitFor } from '../../helpers/wait'

/** alice writes a.txt in her first turn and b.txt in her second; the team stays open. */
async function twoTurns(extraReplies: number) {
  const workspace = gitWorkspace()
  const script = queueScript({
    alice: [
      toolCall('write_file', { path: 'a.txt', content: 'a\n' }),
      text('Done.'),
      toolCall('write_file', { path: 'b.txt', content: 'b\n' }),
      text('Done again.'),
      ...Array.from({ length: extraReplies }, () => text('Understood.')),
    ],
  })
  const team = await startHost(script, { workspace })
  await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Work.' })
  await team.host.whenIdle()
  team.host.send({ to: 'alice', content: 'More.' })
  await team.host.whenIdle()
  return { workspace, team, script, folder: worktreeFolder(workspace, 'alice') }
}

describe('agent-teams undo and checkpoints', () => {
  it('with no team running: a dry run, the undo, its redo, the checkpoints and the policy', async () => {
    const { workspace, team, folder } = await twoTurns(0)
    await team.host.close()
    const at = ['--workspace', workspace]

    const dry = await cli(['undo', 'alice', '--dry-run', '--json', ...at])
    expect(dry.code).toBe(0)
    const plan = JSON.parse(dry.stdout) as { files: { path: string; change: string }[] }
    expect(plan.files).toEqual([expect.objectContaining({ path: 'b.txt', change: 'D' })])
    expect(existsSync(join(folder, 'b.txt'))).toBe(true)

    // Without --yes and no terminal to ask on, nothing is done.
    expect((await cli(['undo', 'alice', ...at])).code).toBe(1)
    expect(existsSync(join(folder, 'b.txt'))).toBe(true)

    const done = await cli(['undo', 'alice', '--yes', '--json', '--reason', 'wrong file', ...at])
    expect(done.code).toBe(0)
    const result = JSON.parse(done.stdout) as { undoId: string; restored: string[] }
    expect(result.restored).toEqual(['b.txt'])
    expect(existsSync(join(folder, 'b.txt'))).toBe(false)
    expect(existsSync(join(folder, 'a.txt'))).toBe(true)
    const transcript = readFileSync(join(workspace, '.team/transcripts/alice.jsonl'), 'utf8')
    expect(transcript).toContain(`"undo_id":"${result.undoId}"`)
    const inbox = await cli(['inbox', 'alice', ...at])
    expect(inbox.stdout).toContain('Why: wrong file.')

    const redo = await cli(['undo', 'alice', '--redo', result.undoId, '--yes', ...at])
    expect(redo.code).toBe(0)
    expect(readFileSync(join(folder, 'b.txt'), 'utf8')).toBe('b\n')

    const listed = await cli(['checkpoints', 'alice', '--json', ...at])
    const checkpoints = JSON.parse(listed.stdout) as { checkpoints: { kind?: string }[] }
    expect(checkpoints.checkpoints.map((checkpoint) => checkpoint.kind)).toContain('undo')

    const policy = await cli(['checkpoints', '--policy', '--max', '3', '--json', ...at])
    expect(JSON.parse(policy.stdout)).toEqual({ maxPerAgent: 3, maxAgeDays: 14 })
    const pruned = JSON.parse((await cli(['checkpoints', 'alice', '--json', ...at])).stdout) as {
      checkpoints: unknown[]
    }
    expect(pruned.checkpoints).toHaveLength(3)

    const bad = await cli(['undo', 'alice', '--turns', '2', '--task', '1', ...at])
    expect(bad.code).toBe(2)
    const tooFar = await cli(['undo', 'alice', '--turns', '50', '--dry-run', ...at])
    expect(tooFar.code).toBe(1)
    expect(tooFar.stderr).toContain('not 50')
  })

  it('with the team running: the team does the undo, and the agent hears of it', async () => {
    const { workspace, team, script, folder } = await twoTurns(1)
    const done = await cli(['undo', 'alice', '--yes', '--json', '--workspace', workspace])
    expect(done.stderr).toBe('')
    expect(done.code).toBe(0)
    expect(existsSync(join(folder, 'b.txt'))).toBe(false)
    await waitFor(() => team.records('alice', 'undo').length === 1)
    await team.host.whenIdle()
    script.assertConsumed()
    await team.host.close()
  })
})
