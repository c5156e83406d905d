import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { displayPath, resolveInWorkspace } from '../../../../src/runtime/tools/workspace-path'
import { tempWorkspace } from '../../../helpers/workspace'

/** A workspace (real path) and a folder outside it, both removed after the test. */
function setup(): { workspace: string; outside: string } {
  const workspace = realpathSync(tempWorkspace('agent-teams-tools-').dir)
  const outside = realpathSync(mkdtempSync(join(tmpdir(), 'agent-teams-outside-')))
  onTestFinished(() => rmSync(outside, { recursive: true, force: true }))
  writeFileSync(join(outside, 'secret.txt'), 'secret')
  return { workspace, outside }
}

function refusal(workspace: string, path: string, purpose: 'read' | 'write' = 'read'): string {
  try {
    resolveInWorkspace(workspace, path, purpose)
  } catch (error) {
    expect(error).toMatchObject({ name: 'TeamError', code: 'path-refused' })
    return (error as Error).message
  }
  throw new Error(`${path} was not refused for ${purpose}`)
}

describe('resolveInWorkspace', () => {
  it('resolves relative paths, absolute paths inside and harmless `..` to real paths', () => {
    const { workspace } = setup()
    expect(resolveInWorkspace(workspace, 'src/a.ts', 'write')).toBe(join(workspace, 'src/a.ts'))
    expect(resolveInWorkspace(workspace, join(workspace, 'a.txt'), 'read')).toBe(
      join(workspace, 'a.txt'),
    )
    expect(resolveInWorkspace(workspace, 'src/../b.txt', 'read')).toBe(join(workspace, 'b.txt'))
    expect(resolveInWorkspace(workspace, '.', 'read')).toBe(workspace)
    expect(resolveInWorkspace(workspace, '.teamwork/notes.md', 'write')).toBe(
      join(workspace, '.teamwork/notes.md'),
    )
  })

  it('refuses `..` escapes and absolute paths outside', () => {
    const { workspace } = setup()
    expect(refusal(workspace, '../x')).toContain('outside the workspace')
    expect(refusal(workspace, 'src/../../x', 'write')).toContain('outside the workspace')
    expect(refusal(workspace, '/etc/passwd')).toContain('"/etc/passwd" is outside the workspace')
  })

  it('does not count a sibling with the same prefix as inside', () => {
    const { workspace } = setup()
    const sibling = `${workspace}-evil`
    mkdirSync(sibling)
    onTestFinished(() => rmSync(sibling, { recursive: true, force: true }))
    expect(refusal(workspace, join(sibling, 'x.txt'), 'write')).toContain('outside')
    expect(refusal(workspace, `../${basename(sibling)}/x.txt`)).toContain('outside')
  })

  it('refuses NUL bytes and empty paths', () => {
    const { workspace } = setup()
    expect(refusal(workspace, 'a.txt\0../../etc/passwd')).toContain('NUL byte')
    expect(refusal(workspace, '')).toContain('empty')
    expect(refusal(workspace, '   ')).toContain('empty')
  })

  it('refuses symlinks that lead out: a file, a folder, an intermediate folder', () => {
    const { workspace, outside } = setup()
    symlinkSync(join(outside, 'secret.txt'), join(workspace, 'secret-link'))
    symlinkSync(outside, join(workspace, 'outside-folder'))
    mkdirSync(join(outside, 'deeper'))
    mkdirSync(join(workspace, 'inner'))
    symlinkSync(outside, join(workspace, 'inner', 'link'))

    expect(refusal(workspace, 'secret-link')).toContain('symbolic link')
    expect(refusal(workspace, 'secret-link', 'write')).toContain('symbolic link')
    expect(refusal(workspace, 'outside-folder/secret.txt')).toContain('symbolic link')
    expect(refusal(workspace, 'outside-folder/new.txt', 'write')).toContain('symbolic link')
    expect(refusal(workspace, 'inner/link/deeper/new/file.txt', 'write')).toContain('symbolic link')
  })

  it('refuses dangling symlinks, whose target could be anywhere', () => {
    const { workspace, outside } = setup()
    symlinkSync(join(outside, 'not-yet'), join(workspace, 'dangling'))
    expect(refusal(workspace, 'dangling', 'write')).toContain('does not exist')
    expect(refusal(workspace, 'dangling/below.txt', 'write')).toContain('does not exist')
  })

  it('follows symlinks that stay inside the workspace', () => {
    const { workspace } = setup()
    mkdirSync(join(workspace, 'real'))
    symlinkSync(join(workspace, 'real'), join(workspace, 'alias'))
    expect(resolveInWorkspace(workspace, 'alias/x.txt', 'write')).toBe(
      join(workspace, 'real/x.txt'),
    )
  })

  it('accepts a workspace given through a symlink, by either spelling', () => {
    const { workspace, outside } = setup()
    const alias = join(outside, 'workspace-alias')
    symlinkSync(workspace, alias)
    expect(resolveInWorkspace(alias, 'a.txt', 'write')).toBe(join(workspace, 'a.txt'))
    expect(resolveInWorkspace(alias, join(workspace, 'a.txt'), 'read')).toBe(
      join(workspace, 'a.txt'),
    )
    expect(resolveInWorkspace(alias, join(alias, 'a.txt'), 'read')).toBe(join(workspace, 'a.txt'))
  })

  it('refuses reading and writing under .team/, however it is spelled', () => {
    const { workspace } = setup()
    mkdirSync(join(workspace, '.team', 'inbox'), { recursive: true })
    writeFileSync(join(workspace, '.team', 'config.json'), '{}')

    const message = refusal(workspace, '.team/inbox/bob.jsonl', 'write')
    expect(message).toContain('.team/')
    expect(message).toContain('send_message')
    expect(refusal(workspace, '.team/config.json', 'read')).toContain('may not read')
    expect(refusal(workspace, './.team/inbox/bob.jsonl', 'write')).toContain('.team/')
    expect(refusal(workspace, 'src/../.team/config.json', 'write')).toContain('.team/')
    expect(refusal(workspace, join(workspace, '.team/config.json'))).toContain('.team/')
    expect(refusal(workspace, '.TEAM/config.json', 'write')).toContain('.team/')
    expect(refusal(workspace, '.team', 'write')).toContain('.team/')
  })

  it('refuses symlinks inside the workspace that point into .team/', () => {
    const { workspace } = setup()
    mkdirSync(join(workspace, '.team', 'inbox'), { recursive: true })
    writeFileSync(join(workspace, '.team', 'config.json'), '{}')
    symlinkSync(join(workspace, '.team', 'inbox'), join(workspace, 'mail'))
    symlinkSync(join(workspace, '.team', 'config.json'), join(workspace, 'roster.json'))

    expect(refusal(workspace, 'mail/bob.jsonl', 'write')).toContain('.team/')
    expect(refusal(workspace, 'roster.json', 'read')).toContain('.team/')
    expect(refusal(workspace, 'roster.json', 'write')).toContain('.team/')
  })
})

describe('displayPath', () => {
  it('shows paths relative to the workspace', () => {
    const { workspace } = setup()
    expect(displayPath(workspace, join(workspace, 'src', 'a.ts'))).toBe('src/a.ts')
    expect(displayPath(workspace, workspace)).toBe('.')
  })
})
