import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { queueScript } from '../../../../src/offline-model/script'
import { runAgentTeams } from '../../../helpers/bin'
import { commitAll, gitIn, gitWorkspace, worktreeFolder, writeFiles } from '../../../helpers/git'
import { startHost, type HostUnderTest } from '../../../helpers/host'
import { waitFor } from '../../../helpers/wait'
import { tempWorkspace } from '../../../helpers/workspace'

const run = promisify(execFile)

const refreshes = (team: HostUnderTest): number =>
  team.events.filter((event) => event.type === 'branches-changed').length

/** Waits (generously) for the open host's `count`-th `branches-changed`. */
async function refreshed(team: HostUnderTest, count: number): Promise<void> {
  await waitFor(
    () => refreshes(team) >= count,
    () => `branches-changed #${count}; saw ${refreshes(team)}`,
    { timeout: 20_000 },
  )
}

const changedFiles = async (team: HostUnderTest, name: string): Promise<number | undefined> =>
  (await team.host.worktrees.views()).get(name)?.changedFiles

/**
 * A repository with alice's worktree and one commit of hers, and a roster that knows it, all
 * made before the team opens: no ref moves until the test moves one. The worktree is where
 * versions before the trust boundary kept it (`.team-worktrees/`): the host moves it into its
 * data folder when alice is next used.
 */
function teamWithBranch(): string {
  const workspace = gitWorkspace()
  const alice = join(workspace, '.team-worktrees', 'alice')
  const base = gitIn(workspace, 'rev-parse', 'HEAD')
  gitIn(workspace, 'worktree', 'add', '-q', '-b', 'team/alice', alice, 'HEAD')
  writeFiles(alice, { 'feature.txt': 'one\n' })
  commitAll(alice, 'Feature')
  writeFiles(workspace, {
    '.team/config.json': JSON.stringify({
      team_name: 'refs',
      members: [
        {
          name: 'alice',
          role: 'coder',
          status: 'idle',
          worktree: { base: 'main', base_commit: base },
        },
      ],
    }),
  })
  return workspace
}

describe('branch lines follow git changes made by other processes', () => {
  it('a CLI merge and a commit in the worktree, each from another process, refresh the open host', async () => {
    const workspace = teamWithBranch()
    const team = await startHost(queueScript({}), { workspace })
    await team.host.worktrees.settled('alice')
    expect(existsSync(join(workspace, '.team-worktrees', 'alice'))).toBe(false)
    // Counted now, and kept until something tells the host the branches moved.
    expect(await changedFiles(team, 'alice')).toBe(1)
    expect(refreshes(team)).toBe(0)

    const merge = await runAgentTeams(['review', 'merge', 'alice', '--workspace', workspace], {
      env: { XDG_CONFIG_HOME: tempWorkspace('agent-teams-config-').dir },
    })
    expect(merge.stderr).toBe('')
    expect(merge.code).toBe(0)
    // Nothing else moved a ref: this refresh is the other process's merge.
    await refreshed(team, 1)
    expect(await changedFiles(team, 'alice')).toBe(0)

    const afterMerge = refreshes(team)
    const alice = worktreeFolder(workspace, 'alice')
    writeFiles(alice, { 'second.txt': 'two\n' })
    await run('git', ['add', '-A'], { cwd: alice })
    await run('git', ['-c', 'user.name=P', '-c', 'user.email=p@x', 'commit', '-qm', 'Second'], {
      cwd: alice,
    })
    await refreshed(team, afterMerge + 1)
    expect(await changedFiles(team, 'alice')).toBe(1)
  })
})
