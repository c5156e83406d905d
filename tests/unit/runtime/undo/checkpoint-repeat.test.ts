import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { queueScript, text, toolCall } from '../../../../src/offline-model/script'
import {
  TeamCheckpoints,
  type CheckpointRequest,
} from '../../../../src/runtime/undo/team-checkpoints'
import { gitIn, gitWorkspace, writeFiles } from '../../../helpers/git'
import { startHost } from '../../../helpers/host'
import { undoFixture } from '../../../helpers/undo'

describe('a checkpoint repeated when nothing could have changed the folder', () => {
  it('records the last turn checkpoint again, under its own seq and ref, without reading', async () => {
    const fixture = await undoFixture()
    const { checkpoints, folder, workspace } = fixture
    const first = await checkpoints.takeNow('alice', { kind: 'turn', turnSeq: 1, opensTurn: true })
    // A change the repeat must not look for: had the folder been read, it would be in the commit.
    writeFiles(folder, { 'later.txt': 'later\n' })
    const repeated = await checkpoints.takeNow('alice', { kind: 'turn', turnSeq: 4, repeat: true })
    expect(repeated?.seq).toBe((first?.seq ?? 0) + 1)
    expect(repeated?.commit).toBe(first?.commit)
    // Its ref waits for the next ref write: the first one's ref keeps the commit alive.
    const ref = `refs/agent-teams/checkpoints/alice/${repeated?.seq}`
    expect(gitIn(workspace, 'for-each-ref', ref)).toBe('')

    // After a rest, a repeat is refused: the folder is read afresh.
    await checkpoints.takeNow('alice', { kind: 'rest', turnSeq: 6 })
    writeFiles(folder, { 'other.txt': 'other\n' })
    const afterRest = await checkpoints.takeNow('alice', { kind: 'turn', turnSeq: 7, repeat: true })
    expect(gitIn(workspace, 'ls-tree', '--name-only', afterRest?.commit ?? '')).toContain(
      'other.txt',
    )
    expect(gitIn(workspace, 'rev-parse', ref)).toBe(first?.commit)
  })

  it("keeps a repeat's commit alive when the checkpoint it repeats is dropped", async () => {
    const fixture = await undoFixture()
    const { checkpoints, workspace, worktrees, dataFolder } = fixture
    const first = await checkpoints.takeNow('alice', { kind: 'turn', turnSeq: 1, opensTurn: true })
    const repeated = await checkpoints.takeNow('alice', { kind: 'turn', turnSeq: 4, repeat: true })
    // The app closes before the repeat's ref was written; the next one drops the first.
    const reopened = new TeamCheckpoints({
      worktrees,
      dataFolder,
      taskOf: () => null,
      now: () => fixture.now,
    })
    reopened.records.setPolicy({ ...reopened.records.policy(), maxPerAgent: 1 })
    await reopened.pruneAll()
    const refs = gitIn(workspace, 'for-each-ref', '--format=%(refname) %(objectname)')
    expect(refs).not.toContain(`alice/${first?.seq} `)
    expect(refs).toContain(`alice/${repeated?.seq} ${first?.commit}`)
  })

  it('is asked for only after model calls whose tools all leave the folder alone', async () => {
    const workspace = gitWorkspace()
    const script = queueScript({
      alice: [
        toolCall('read_file', { path: 'README.md' }),
        toolCall('write_file', { path: 'notes.txt', content: 'one\n' }),
        text('Done.'),
        toolCall('bash', { command: 'echo two > two.txt' }),
        toolCall('glob', { pattern: '*.txt' }),
        text('Done again.'),
      ],
    })
    const team = await startHost(script, { workspace })
    const requests: CheckpointRequest[] = []
    const takeNow = team.host.checkpoints.takeNow.bind(team.host.checkpoints)
    team.host.checkpoints.takeNow = (name, request) => {
      if (request.kind !== 'undo') requests.push(request)
      return takeNow(name, request)
    }
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Work.', worktree: true })
    await team.host.whenIdle()
    team.host.send({ to: 'alice', content: 'More.' })
    await team.host.whenIdle()
    // The checkpoint at rest is queued as the activation ends: wait for the queue too.
    await team.host.worktrees.settled('alice')
    const shape = requests.map(
      (request) =>
        `${request.kind}${request.opensTurn === true ? ' opens' : ''}${request.repeat === true ? ' repeat' : ''}`,
    )
    expect(shape).toEqual([
      // Activation 1: read_file, then write_file, then an answer without tools.
      'turn opens',
      'turn repeat',
      'turn',
      'rest repeat',
      // Activation 2: bash (anything may change), then glob, then an answer.
      'turn opens',
      'turn',
      'turn repeat',
      'rest repeat',
    ])
    // The repeats hold what the folder held: the last checkpoint is the agent's work at rest.
    const list = team.host.checkpoints.records.list('alice')
    expect(gitIn(workspace, 'ls-tree', '--name-only', list.at(-1)?.commit ?? '')).toEqual(
      expect.stringContaining('two.txt'),
    )
    script.assertConsumed()
    await team.host.close()
  })
})

describe("a checkpoint that finds nothing changed reuses its index's tree", () => {
  it("reads the index's tree again when another process wrote the index", async () => {
    const fixture = await undoFixture()
    const { checkpoints, folder, workspace } = fixture
    await checkpoints.takeNow('alice', { kind: 'turn', turnSeq: 1, opensTurn: true })
    writeFiles(folder, { 'beside.txt': 'beside\n' })
    // Another process (the CLI beside the team) snapshots with the same index first: the app's
    // own add then finds nothing to change, and the tree it remembers is no longer the index's.
    execFileSync('git', ['add', '-A'], {
      cwd: folder,
      env: { ...process.env, GIT_INDEX_FILE: checkpoints.records.indexFile('alice') },
    })
    const next = await checkpoints.takeNow('alice', { kind: 'turn', turnSeq: 4 })
    expect(gitIn(workspace, 'ls-tree', '--name-only', next?.commit ?? '')).toContain('beside.txt')
  })
})
