import { chmodSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gitIn, gitWorkspace, writeFiles } from './git'
import { tempFolder } from './sandbox'

/** Every hook git knows: each one, if it ever runs, leaves a marker named after it. */
const HOOKS = [
  'applypatch-msg',
  'pre-applypatch',
  'post-applypatch',
  'pre-commit',
  'pre-merge-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'pre-rebase',
  'post-checkout',
  'post-merge',
  'pre-push',
  'pre-receive',
  'update',
  'proc-receive',
  'post-receive',
  'post-update',
  'reference-transaction',
  'push-to-checkout',
  'pre-auto-gc',
  'post-rewrite',
  'sendemail-validate',
  'fsmonitor-watchman',
  'p4-changelist',
  'p4-prepare-changelist',
  'p4-post-changelist',
  'p4-pre-submit',
  'post-index-change',
]

export interface HostileRepository {
  readonly workspace: string
  /** Where every planted program leaves its marker: empty while none ran. */
  readonly markers: string
  /** The markers left so far. */
  marked(): string[]
  /** Forgets the markers (after the test's own git, which is not the app's, ran the programs). */
  clear(): void
}

/**
 * A repository set up to run code through git: every hook (in `.git/hooks` and in a
 * `core.hooksPath` folder), fsmonitor, filters, diff and merge drivers chosen by a committed
 * `.gitattributes`, an external diff, a pager, editors, an ssh command, an askpass, a credential
 * helper, signing programs with signing on, an alternate-refs command and an upload-pack hook,
 * and an include (outside the workspace) that defines another filter. Each program leaves a
 * marker in `markers`, outside the workspace, and passes its input through so that git still
 * works when it does run.
 */
export function hostileRepository(): HostileRepository {
  const markers = tempFolder('agent-teams-markers-')
  const programs = tempFolder('agent-teams-planted-')
  const workspace = gitWorkspace({
    'README.md': '# Project\n',
    'src/app.txt': 'one\n',
    'notes.md': 'notes\n',
  })
  const program = (name: string, body = 'exit 0'): string => {
    const path = join(programs, name)
    writeFileSync(path, `#!/bin/sh\ntouch '${join(markers, name)}'\n${body}\n`)
    chmodSync(path, 0o755)
    return path
  }
  const hooksPath = join(programs, 'hooks')
  mkdirSync(hooksPath)
  for (const hook of HOOKS) {
    for (const folder of [hooksPath, join(workspace, '.git', 'hooks')]) {
      const path = join(folder, hook)
      writeFileSync(path, `#!/bin/sh\ntouch '${join(markers, `hook-${hook}`)}'\nexit 0\n`)
      chmodSync(path, 0o755)
    }
  }
  const passThrough = 'cat'
  const settings: [string, string][] = [
    ['core.hooksPath', hooksPath],
    ['core.fsmonitor', program('fsmonitor', 'exit 1')],
    ['filter.evil.clean', program('filter-clean', passThrough)],
    ['filter.evil.smudge', program('filter-smudge', passThrough)],
    ['filter.evil.required', 'true'],
    ['diff.evil.textconv', program('textconv', 'cat "$1"')],
    ['diff.evil.command', program('diff-command')],
    ['merge.evil.driver', `${program('merge-driver')} %O %A %B`],
    ['diff.external', program('external-diff')],
    ['core.pager', program('pager', passThrough)],
    ['core.editor', program('editor')],
    ['sequence.editor', program('sequence-editor')],
    ['core.sshCommand', program('ssh')],
    ['core.askPass', program('askpass')],
    ['credential.helper', `!${program('credential')}`],
    ['gpg.program', program('gpg')],
    ['gpg.ssh.program', program('gpg-ssh')],
    ['commit.gpgSign', 'true'],
    ['tag.gpgSign', 'true'],
    ['core.alternateRefsCommand', program('alternate-refs')],
    ['uploadpack.packObjectsHook', program('pack-objects')],
  ]
  for (const [key, value] of settings) gitIn(workspace, 'config', key, value)
  const included = join(programs, 'included.gitconfig')
  writeFileSync(
    included,
    `[filter "evil2"]\n\tclean = ${program('include-filter-clean', passThrough)}\n\trequired = true\n` +
      `[core]\n\tfsmonitor = ${program('include-fsmonitor', 'exit 1')}\n`,
  )
  gitIn(workspace, 'config', 'include.path', included)
  // Committed by "someone": every text file goes through the planted drivers.
  writeFiles(workspace, {
    '.gitattributes': '*.txt filter=evil diff=evil merge=evil\n*.md filter=evil2 diff=evil\n',
  })
  gitIn(workspace, '-c', 'commit.gpgSign=false', '-c', 'core.hooksPath=/dev/null', 'add', '-A')
  gitIn(
    workspace,
    '-c',
    'commit.gpgSign=false',
    '-c',
    'core.hooksPath=/dev/null',
    'commit',
    '-q',
    '-m',
    'Attributes',
  )
  const clear = (): void => {
    for (const marker of readdirSync(markers)) rmSync(join(markers, marker))
  }
  // The test's own git above ran the filters (it is not the app's): start from no marker.
  clear()
  return { workspace, markers, marked: () => readdirSync(markers).sort(), clear }
}
