import type { ChangedFile } from '../../../shared/worktree'
import { git } from './git'

/** The files changed from `from` to `to` (commits), each with its line counts and its patch. */
export function diffBetween(cwd: string, from: string, to: string): { files: ChangedFile[] } {
  const range = ['--no-color', '--no-ext-diff', '-M', from, to]
  const statuses = parseNameStatus(git(cwd, ['diff', '--name-status', '-z', ...range]))
  const counts = parseNumstat(git(cwd, ['diff', '--numstat', '-z', ...range]))
  // Prefixes named, whatever the person's diff.noprefix: diff components expect a/ and b/.
  const patch = git(cwd, ['diff', '--src-prefix=a/', '--dst-prefix=b/', ...range, '--'])
  // The same options list the files in the same order as the name-status above.
  const parts = patch.split(/^(?=diff --git )/m).filter((part) => part.startsWith('diff --git '))
  const files = statuses.map((entry, index) => {
    const count = counts.get(entry.path) ?? { additions: 0, deletions: 0 }
    return { ...entry, ...count, patch: parts[index] ?? '' }
  })
  return { files }
}

/** The paths changed from `from` to `to`. */
export function changedPaths(cwd: string, from: string, to: string): string[] {
  return git(cwd, ['diff', '--name-only', '-z', '--no-renames', from, to])
    .split('\0')
    .filter((path) => path !== '')
}

/** `git diff --name-status -z`: a status, then one path (two for a rename or copy). */
function parseNameStatus(
  output: string,
): { path: string; status: string; oldPath: string | null }[] {
  const fields = output.split('\0')
  const entries: { path: string; status: string; oldPath: string | null }[] = []
  for (let index = 0; index < fields.length;) {
    const status = fields[index++] ?? ''
    if (status === '') break
    const letter = status[0] ?? '?'
    if (letter === 'R' || letter === 'C') {
      const oldPath = fields[index++] ?? ''
      const path = fields[index++] ?? ''
      entries.push({ path, status: letter, oldPath })
    } else {
      entries.push({ path: fields[index++] ?? '', status: letter, oldPath: null })
    }
  }
  return entries
}

/** `git diff --numstat -z`: counts (`-` for a binary file) then a path, or `\0old\0new` for a rename. */
function parseNumstat(output: string): Map<string, { additions: number; deletions: number }> {
  const counts = new Map<string, { additions: number; deletions: number }>()
  const fields = output.split('\0')
  for (let index = 0; index < fields.length;) {
    const head = fields[index++] ?? ''
    if (head === '') break
    const [added = '0', deleted = '0', path = ''] = head.split('\t')
    let name = path
    if (path === '') {
      index++ // the old path of a rename
      name = fields[index++] ?? ''
    }
    counts.set(name, {
      additions: Number.parseInt(added, 10) || 0,
      deletions: Number.parseInt(deleted, 10) || 0,
    })
  }
  return counts
}
