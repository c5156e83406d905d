import { execFileSync } from 'node:child_process'
import { lstatSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { queueScript, text, toolCall } from '../../src/offline-model/script'
import { Git } from '../../src/runtime/git/git'
import { boxAvailable, writablePlaces } from '../../src/runtime/git/git-box'
import { execute } from '../../src/runtime/git/git-exec'
import { defaultBashSandbox } from '../../src/runtime/tools/bash-sandbox'
import { gitIn, gitWorkspace, worktreeFolder } from '../helpers/git'
import { startHost, type HostUnderTest } from '../helpers/host'
import { sandboxSkipReason, tempFolder } from '../helpers/sandbox'

const skipReason = sandboxSkipReason()
const boxSkip = boxAvailable() ? null : 'bubblewrap cannot run here'
if (boxSkip !== null) console.info(`[skipped] the git box: ${boxSkip}`)
if (skipReason !== null) console.info(`[skipped] the object store attacks: ${skipReason}`)

afterAll(() => defaultBashSandbox.close())

const bash = (command: string) => toolCall('bash', { command })

/** A payload an agent would like sourced, and the name git gives its blob. */
function payload(label: string): { content: string; hash: string } {
  const content = `echo ${label}-pwned; return 0\n`
  const hash = execFileSync('git', ['hash-object', '--stdin'], { input: content }).toString().trim()
  return { content, hash }
}

/** Replaces `objects/<xx>` by a link to `target`, as an agent outside a sandbox could. */
function plantLink(objects: string, prefix: string, target: string): void {
  rmSync(join(objects, prefix), { recursive: true, force: true })
  symlinkSync(target, join(objects, prefix))
}

function isRealFolder(path: string): boolean {
  const stats = lstatSync(path)
  return stats.isDirectory() && !stats.isSymbolicLink()
}

function results(team: HostUnderTest, name: string): { content: string; is_error: boolean }[] {
  return team.records(name, 'tool-result').map(({ content, is_error }) => ({ content, is_error }))
}

/** Silences and records the app's warnings about repaired stores. */
function warnings(): string[] {
  const seen: string[] = []
  const spy = vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    seen.push(args.map(String).join(' '))
  })
  afterAll(() => spy.mockRestore())
  return seen
}

describe("the app's own git never writes through a link in the object store", () => {
  it('a link planted at objects/<xx> is replaced by a folder before git writes', async () => {
    const workspace = gitWorkspace()
    const victim = tempFolder('agent-teams-victim-')
    const { content, hash } = payload('git')
    const objects = join(workspace, '.git', 'objects')
    plantLink(objects, hash.slice(0, 2), victim)
    const logged: string[] = []
    const git = new Git({ agentWritable: [workspace], log: (message) => logged.push(message) })
    const written = await git.output(workspace, ['hash-object', '-w', '--stdin'], {
      input: content,
    })
    expect(written.trim()).toBe(hash)
    expect(readdirSync(victim)).toEqual([])
    expect(isRealFolder(join(objects, hash.slice(0, 2)))).toBe(true)
    expect(gitIn(workspace, 'cat-file', '-p', hash)).toBe(content.trim())
    expect(logged).toEqual([expect.stringContaining(join(objects, hash.slice(0, 2)))])
    // pack and info too; a file in place of a folder is replaced as well.
    plantLink(objects, 'pack', victim)
    rmSync(join(objects, 'info'), { recursive: true, force: true })
    writeFileSync(join(objects, 'info'), 'not a folder')
    await git.run(workspace, ['status', '--porcelain'])
    expect(isRealFolder(join(objects, 'pack'))).toBe(true)
    expect(isRealFolder(join(objects, 'info'))).toBe(true)
  })

  it.skipIf(boxSkip !== null)(
    'in the box, git fails on a link in the store or a reflog link rather than write through it',
    async () => {
      // What the repair cannot cover: a link planted after it, before git writes.
      const workspace = gitWorkspace()
      const victim = tempFolder('agent-teams-victim-')
      const { content, hash } = payload('race')
      const objects = join(workspace, '.git', 'objects')
      plantLink(objects, hash.slice(0, 2), victim)
      const box = writablePlaces({
        folders: { common: join(workspace, '.git'), own: join(workspace, '.git') },
        workTree: workspace,
        args: ['hash-object'],
        env: undefined,
      })
      const written = await execute(workspace, ['hash-object', '-w', '--stdin'], {
        input: content,
        box,
      })
      expect(written.status).not.toBe(0)
      expect(readdirSync(victim)).toEqual([])
      const logs = join(workspace, '.git', 'logs', 'refs', 'heads')
      mkdirSync(logs, { recursive: true })
      symlinkSync(join(victim, 'log'), join(logs, 'planted'))
      const head = gitIn(workspace, 'rev-parse', 'HEAD')
      const moved = await execute(
        workspace,
        ['-c', 'core.logAllRefUpdates=always', 'update-ref', 'refs/heads/planted', head],
        { box },
      )
      expect(moved.status).not.toBe(0)
      expect(readdirSync(victim)).toEqual([])
    },
  )

  it('a store outside the places agents write is left alone', async () => {
    const workspace = gitWorkspace()
    const victim = tempFolder('agent-teams-victim-')
    const objects = join(workspace, '.git', 'objects')
    plantLink(objects, 'ab', victim)
    const git = new Git({ agentWritable: [], log: () => undefined })
    await git.run(workspace, ['status', '--porcelain'])
    expect(lstatSync(join(objects, 'ab')).isSymbolicLink()).toBe(true)
  })

  it('a commondir that moves the store elsewhere is refused', async () => {
    const workspace = gitWorkspace()
    const elsewhere = gitWorkspace()
    const git = new Git({ agentWritable: [workspace, elsewhere], log: () => undefined })
    await git.run(workspace, ['status', '--porcelain'])
    writeFileSync(join(workspace, '.git', 'commondir'), `${join(elsewhere, '.git')}\n`)
    await expect(git.run(workspace, ['add', '-A'])).rejects.toMatchObject({
      code: 'unsafe-repository',
      message: expect.stringContaining('commondir'),
    })
  })

  it('an object store that is itself a link is refused', async () => {
    const workspace = gitWorkspace()
    const moved = join(tempFolder('agent-teams-moved-'), 'objects')
    execFileSync('mv', [join(workspace, '.git', 'objects'), moved])
    symlinkSync(moved, join(workspace, '.git', 'objects'))
    const git = new Git({ agentWritable: [workspace], log: () => undefined })
    await expect(git.run(workspace, ['add', '-A'])).rejects.toMatchObject({
      code: 'unsafe-repository',
    })
  })
})

/**
 * With real bubblewrap: a prompt-injected agent tries to point an object folder of the store it
 * may write at a folder of its choosing, so that the app's next checkpoint writes its payload
 * there with the person's rights.
 */
describe.skipIf(skipReason !== null)('the object store inside the sandbox', () => {
  it('a link planted before the team opens is repaired; the checkpoint writes inside', async () => {
    const seen = warnings()
    const workspace = gitWorkspace()
    const victim = tempFolder('agent-teams-victim-')
    const { content, hash } = payload('before')
    plantLink(join(workspace, '.git', 'objects'), hash.slice(0, 2), victim)
    const script = queueScript({
      lead: [
        toolCall('write_file', { path: 'payload.sh', content }),
        bash('echo written'),
        text('Done.'),
        text('Nothing more.'),
      ],
    })
    const team = await startHost(script, { workspace, leadWakesOnMessages: false })
    team.host.chat('Go.')
    await team.host.whenIdle()
    team.host.chat('Again.')
    await team.host.whenIdle()
    script.assertConsumed()
    expect(readdirSync(victim)).toEqual([])
    expect(isRealFolder(join(workspace, '.git', 'objects', hash.slice(0, 2)))).toBe(true)
    expect(seen.some((line) => line.includes(hash.slice(0, 2)))).toBe(true)
    // The app's checkpoint did write the payload's blob: into the store, not through the link.
    expect(gitIn(workspace, 'cat-file', '-t', hash)).toBe('blob')
  })

  it('the lead may plant links in the store, but not move it; the checkpoint writes inside', async () => {
    const seen = warnings()
    const workspace = gitWorkspace()
    const victim = tempFolder('agent-teams-victim-')
    const { content, hash } = payload('lead')
    const prefix = hash.slice(0, 2)
    const objects = '.git/objects'
    const script = queueScript({
      lead: [
        bash(`rm -rf ${objects}/${prefix} && ln -s ${victim} ${objects}/${prefix} && echo planted`),
        bash(`rm -rf ${objects}/pack && ln -s ${victim} ${objects}/pack && echo planted`),
        bash(`rm -rf ${objects}/info && echo removed`),
        bash(`mv ${objects} .git/objects-moved`),
        toolCall('write_file', { path: 'payload.sh', content }),
        text('Tried.'),
        text('Nothing more.'),
      ],
    })
    const team = await startHost(script, { workspace, leadWakesOnMessages: false })
    team.host.chat('Go.')
    await team.host.whenIdle()
    team.host.chat('Again.')
    await team.host.whenIdle()
    script.assertConsumed()
    const attempts = results(team, 'lead')
    expect(attempts.slice(0, 4).map((attempt) => attempt.is_error)).toEqual([
      false,
      false,
      false,
      true,
    ])
    // The turn's checkpoint: the app repaired the store, then wrote the payload's blob in it.
    expect(readdirSync(victim)).toEqual([])
    for (const name of [prefix, 'pack', 'info'])
      expect(isRealFolder(join(workspace, objects, name))).toBe(true)
    expect(gitIn(workspace, 'cat-file', '-t', hash)).toBe('blob')
    expect(seen.some((line) => line.includes(join(objects, prefix)))).toBe(true)
  })

  it("a teammate's link in the shared store never takes its checkpoint's writes", async () => {
    warnings()
    const workspace = gitWorkspace()
    const victim = tempFolder('agent-teams-victim-')
    const objects = join(workspace, '.git', 'objects')
    const { content, hash } = payload('alice')
    const prefix = hash.slice(0, 2)
    const script = queueScript({
      alice: [
        bash(`rm -rf ${objects}/${prefix} && ln -s ${victim} ${objects}/${prefix} && echo planted`),
        bash(`mv ${objects} ${objects}-moved`),
        toolCall('write_file', { path: 'payload.sh', content }),
        text('Tried.'),
      ],
    })
    const team = await startHost(script, { workspace, leadWakesOnMessages: false })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Work.' })
    await team.host.whenIdle()
    script.assertConsumed()
    const [plant, move] = results(team, 'alice')
    expect(plant).toMatchObject({ is_error: false, content: expect.stringContaining('planted') })
    expect(move?.is_error).toBe(true)
    expect(readdirSync(victim)).toEqual([])
    expect(isRealFolder(join(objects, prefix))).toBe(true)
    expect(gitIn(worktreeFolder(workspace, 'alice'), 'cat-file', '-t', hash)).toBe('blob')
  })
})
