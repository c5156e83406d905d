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

const changedFiles = async (team: HostUnderTest, name: string): Promise<number | undefined> =>
  (await team.host.worktrees.views()).get(name)?.changedFiles

/**
 * Waits (generously) until the open host counts `files` changed files on `name`'s branch. The
 * count is kept until a `branches-changed` says the refs moved, so reaching it proves the host
 * heard of the other process's change; counting `branches-changed` events would not, as one
 * from an earlier change can arrive late.
 */
async function countsChanged(team: HostUnderTest, name: string, files: number): Promise<void> {
  let seen: number | undefined
  await waitFor(
    async () => (seen = await changedFiles(team, name)) === files,
    () => `${name}'s branch to count ${files} changed files; it counts ${String(seen)}`,
    { timeout: 20_000, interval: 50 },
  )
}

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

    const merge = await runAgentTeams(['review', 'merge', 'alice', '--workspace', workspace], {
      env: { XDG_CONFIG_HOME: tempWorkspace('agent-teams-config-').dir },
    })
    expect(merge.stderr).toBe('')
    expect(merge.code).toBe(0)
    await countsChanged(team, 'alice', 0)

    const alice = worktreeFolder(workspace, 'alice')
    writeFiles(alice, { 'second.txt': 'two\n' })
    await run('git', ['add', '-A'], { cwd: alice })
    await run('git', ['-c', 'user.name=P', '-c', 'user.email=p@x', 'commit', '-qm', 'Second'], {
      cwd: alice,
    })
    await countsChanged(team, 'alice', 1)
  })
})
