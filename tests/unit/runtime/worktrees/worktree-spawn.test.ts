import { existsSync, readFileSync, realpathSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { queueScript, text, toolCall } from '../../../../src/offline-model/script'
import { TeamError } from '../../../../src/shared/errors'
import { cli } from '../../../helpers/cli'
import { gitIn, gitWorkspace, worktreeFolder } from '../../../helpers/git'
import { startHost, type HostUnderTest } from '../../../helpers/host'
import { tempWorkspace } from '../../../helpers/workspace'

const worktreeOf = worktreeFolder

function toolResultsOf(
  team: HostUnderTest,
  name: string,
): { content: string; is_error: boolean }[] {
  return team.records(name, 'tool-result').map((record) => ({
    content: record.content,
    is_error: record.is_error,
  }))
}

/** Alice writes a file, runs pwd, and tries to read the base workspace's README through `..`. */
function workingScript(): ReturnType<typeof queueScript> {
  return queueScript({
    alice: [
      toolCall('write_file', { path: 'notes/hello.txt', content: 'hello from alice\n' }),
      toolCall('bash', { command: 'pwd && git branch --show-current' }),
      toolCall('read_file', { path: '../../README.md' }),
      toolCall('write_file', { path: '../../escaped.txt', content: 'out' }),
      text('Done.'),
    ],
  })
}

describe('a worktree per teammate', () => {
  it("confines a teammate's file tools and bash to its own worktree on team/<name>", async () => {
    const workspace = gitWorkspace()
    const script = workingScript()
    const team = await startHost(script, { workspace })
    const summary = await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Work.' })
    expect(summary).toContain('own worktree on team/alice from main')
    await team.host.whenIdle()
    script.assertConsumed()

    const folder = worktreeOf(workspace, 'alice')
    expect(readFileSync(join(folder, 'notes/hello.txt'), 'utf8')).toBe('hello from alice\n')
    expect(existsSync(join(workspace, 'notes/hello.txt'))).toBe(false)
    const [write, bash, escapeRead, escapeWrite] = toolResultsOf(team, 'alice')
    expect(write?.is_error).toBe(false)
    expect(bash?.content).toContain(realpathSync(folder))
    expect(bash?.content).toContain('team/alice')
    expect(escapeRead).toMatchObject({ is_error: true })
    expect(escapeRead?.content).toContain('outside the workspace')
    expect(escapeWrite).toMatchObject({ is_error: true })
    expect(existsSync(join(workspace, 'escaped.txt'))).toBe(false)
    expect(existsSync(join(folder, '../../escaped.txt'))).toBe(false)

    // config.json keeps it; the worktree is in the app's data folder, not in the workspace.
    const config = JSON.parse(readFileSync(join(workspace, '.team/config.json'), 'utf8'))
    expect(config.members[0].worktree).toEqual({
      base: 'main',
      base_commit: gitIn(workspace, 'rev-parse', 'main'),
    })
    expect(relative(realpathSync(workspace), folder).startsWith('..')).toBe(true)
    expect(gitIn(workspace, 'status', '--porcelain')).toBe('?? .team/')
    // The system prompt names the worktree and the branch.
    const system = JSON.stringify(
      team.server.requests.find((r) => r.agent === 'alice')?.body.system,
    )
    expect(system).toContain('team/alice')
  })

  it('list_teammates tells the lead each branch and how many files it changed', async () => {
    const workspace = gitWorkspace()
    const script = queueScript({
      alice: [toolCall('write_file', { path: 'a.txt', content: 'a' }), text('Done.')],
      lead: [toolCall('list_teammates', {}), text('Listed.')],
    })
    const team = await startHost(script, { workspace })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Work.' })
    await team.host.whenIdle()
    team.host.chat('Who is on the team?')
    await team.host.whenIdle()
    script.assertConsumed()
    const listing = team.records('lead', 'tool-result')[0]?.content ?? ''
    expect(listing).toContain('alice (coder): idle, branch team/alice, 1 file changed')
  })

  it('a re-spawn keeps the worktree and its work', async () => {
    const workspace = gitWorkspace()
    const script = queueScript({
      alice: [
        toolCall('write_file', { path: 'kept.txt', content: 'first run' }),
        text('Done.'),
        toolCall('read_file', { path: 'kept.txt' }),
        text('Still there.'),
      ],
    })
    const first = await startHost(script, { workspace })
    await first.host.spawn({ name: 'alice', role: 'coder', prompt: 'One.' })
    await first.host.whenIdle()
    const record = first.host.team.roster.find('alice')?.worktree
    const team = await first.restart()
    const summary = await team.host.spawn({ name: 'alice', role: 'tester', prompt: 'Two.' })
    expect(summary).toContain('worktree on team/alice (kept)')
    await team.host.whenIdle()
    script.assertConsumed()
    expect(team.host.team.roster.find('alice')?.worktree).toEqual(record)
    const reads = team.records('alice', 'tool-result')
    expect(reads[reads.length - 1]).toMatchObject({ content: 'first run', is_error: false })
  })

  it('a workspace that is not a git repository gets a note and the shared mode', async () => {
    const { dir: workspace } = tempWorkspace()
    const script = queueScript({
      alice: [toolCall('write_file', { path: 'shared.txt', content: 'x' }), text('Done.')],
      bob: [text('Waiting.')],
    })
    const team = await startHost(script, { workspace })
    const summary = await team.host.spawn({
      name: 'alice',
      role: 'coder',
      prompt: 'Work.',
      worktree: true,
    })
    expect(summary).toContain('the workspace is not a git repository')
    // Without asking for one, a plain folder is simply shared, as before worktrees.
    expect(await team.host.spawn({ name: 'bob', role: 'tester', prompt: 'Wait.' })).toBe(
      "Spawned 'bob' (role: tester)",
    )
    await team.host.whenIdle()
    expect(readFileSync(join(workspace, 'shared.txt'), 'utf8')).toBe('x')
    expect(team.host.team.roster.find('alice')?.worktree).toBeUndefined()
    expect(existsSync(worktreeOf(workspace, 'alice'))).toBe(false)
  })

  it('the person turns it off, for one spawn or as the team default', async () => {
    const workspace = gitWorkspace()
    const script = queueScript({ alice: [text('Done.')], bob: [text('Done.')] })
    const team = await startHost(script, { workspace })
    expect(
      await team.host.spawn({ name: 'alice', role: 'c', prompt: 'Go.', worktree: false }),
    ).toContain('shared workspace (worktree off)')
    team.host.worktrees.setDefault(false)
    expect(await team.host.spawn({ name: 'bob', role: 'c', prompt: 'Go.' })).toContain(
      'worktree off',
    )
    await team.host.whenIdle()
    expect(existsSync(worktreeOf(workspace, 'alice'))).toBe(false)
    expect(existsSync(worktreeOf(workspace, 'bob'))).toBe(false)
    expect(JSON.parse(readFileSync(join(workspace, '.team/config.json'), 'utf8')).worktrees).toBe(
      false,
    )
  })
})

describe("the lead's spawn_teammate", () => {
  it('takes worktree: false for the shared workspace, and gives one by default', async () => {
    const workspace = gitWorkspace()
    const script = queueScript({
      lead: [
        toolCall('spawn_teammate', {
          name: 'alice',
          role: 'coder',
          prompt: 'Go.',
          worktree: false,
        }),
        toolCall('spawn_teammate', { name: 'bob', role: 'tester', prompt: 'Go.' }),
        text('Spawned both.'),
      ],
      alice: [text('Done.')],
      bob: [text('Done.')],
    })
    const team = await startHost(script, { workspace })
    team.host.chat('Spawn alice and bob.')
    await team.host.whenIdle()
    script.assertConsumed()
    const [alice, bob] = team.records('lead', 'tool-result')
    expect(alice?.content).toContain('works in the shared workspace (worktree off)')
    expect(bob?.content).toContain('works in its own worktree on team/bob')
    expect(team.host.team.roster.find('alice')?.worktree).toBeUndefined()
    expect(existsSync(worktreeOf(workspace, 'bob'))).toBe(true)
  })
})

describe('removing a teammate with a worktree', () => {
  async function aliceWithWork(): Promise<{ team: HostUnderTest; workspace: string }> {
    const workspace = gitWorkspace()
    const script = queueScript({
      alice: [toolCall('write_file', { path: 'feature.txt', content: 'new' }), text('Done.')],
    })
    const team = await startHost(script, { workspace })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Work.' })
    await team.host.whenIdle()
    return { team, workspace }
  }

  it('refuses to drop unmerged work without a say, and changes nothing', async () => {
    const { team, workspace } = await aliceWithWork()
    const refusal = await team.host.removeTeammate('alice').catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(TeamError)
    expect((refusal as TeamError).code).toBe('unmerged-work')
    expect((refusal as TeamError).message).toContain('keep the branch, merge it, or delete it')
    expect(team.host.team.roster.find('alice')).toBeDefined()
    expect(readFileSync(join(worktreeOf(workspace, 'alice'), 'feature.txt'), 'utf8')).toBe('new')
  })

  it('keep: the worktree goes, the branch stays with the work committed', async () => {
    const { team, workspace } = await aliceWithWork()
    expect(await team.host.removeTeammate('alice', 'keep')).toContain('branch team/alice is kept')
    expect(existsSync(worktreeOf(workspace, 'alice'))).toBe(false)
    expect(gitIn(workspace, 'show', 'team/alice:feature.txt')).toBe('new')
    expect(team.host.team.roster.find('alice')).toBeUndefined()
  })

  it('merge: the work lands in the base, then the branch goes', async () => {
    const { team, workspace } = await aliceWithWork()
    expect(await team.host.removeTeammate('alice', 'merge')).toContain('merged into main')
    expect(readFileSync(join(workspace, 'feature.txt'), 'utf8')).toBe('new')
    expect(gitIn(workspace, 'branch', '--list', 'team/alice')).toBe('')
  })

  it('delete: the branch and its work go, as asked', async () => {
    const { team, workspace } = await aliceWithWork()
    expect(await team.host.removeTeammate('alice', 'delete')).toContain('team/alice was deleted')
    expect(gitIn(workspace, 'branch', '--list', 'team/alice')).toBe('')
    expect(existsSync(join(workspace, 'feature.txt'))).toBe(false)
  })

  it('a teammate without unmerged work is removed without a question', async () => {
    const workspace = gitWorkspace()
    const script = queueScript({ alice: [text('Nothing to do.')] })
    const team = await startHost(script, { workspace })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Look.' })
    await team.host.whenIdle()
    expect(await team.host.removeTeammate('alice')).toContain('Removed alice')
    expect(existsSync(worktreeOf(workspace, 'alice'))).toBe(false)
  })
})

describe('the CLI for worktrees', () => {
  it('spawn --no-worktree and --worktree, and remove asking for --branch', async () => {
    const workspace = gitWorkspace()
    const script = queueScript({
      alice: [toolCall('write_file', { path: 'a.txt', content: 'a' }), text('Done.')],
      bob: [text('Done.')],
    })
    const team = await startHost(script, { workspace })
    const shared = await cli([
      'spawn',
      'bob',
      'Go.',
      '--role',
      'tester',
      '--no-worktree',
      '--workspace',
      workspace,
    ])
    expect(shared.stdout).toContain('in the shared workspace')
    const own = await cli([
      'spawn',
      'alice',
      'Go.',
      '--role',
      'coder',
      '--worktree',
      '--workspace',
      workspace,
    ])
    expect(own.stdout).toContain('in its worktree on team/alice')
    await team.host.whenIdle()

    const refused = await cli(['remove', 'alice', '--workspace', workspace])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('--branch keep')
    expect(team.host.team.roster.find('alice')).toBeDefined()
    const kept = await cli(['remove', 'alice', '--branch', 'keep', '--workspace', workspace])
    expect(kept.code).toBe(0)
    expect(team.host.team.roster.find('alice')).toBeUndefined()
    expect(gitIn(workspace, 'show', 'team/alice:a.txt')).toBe('a')
    expect((await cli(['remove', 'bob', '--branch', 'nope', '--workspace', workspace])).code).toBe(
      2,
    )
  })
})
