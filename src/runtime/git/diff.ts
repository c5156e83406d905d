import type { ChangedFile } from '../../shared/worktree'
import type { Git } from './git'

/**
 * The files changed from `from` to `to` (commits), each with its line counts and its patch.
 * No external diff and no textconv: both are programs the repository's configuration names.
 */
export async function diffBetween(
  git: Git,
  cwd: string,
  from: string,
  to: string,
): Promise<{ files: ChangedFile[] }> {
  const range = ['--no-color', '--no-ext-diff', '--no-textconv', '-M', from, to]
  const [names, numbers, patch] = await Promise.all([
    git.output(cwd, ['diff', '--name-status', '-z', ...range]),
    git.output(cwd, ['diff', '--numstat', '-z', ...range]),
    // Prefixes named, whatever the person's diff.noprefix: diff components expect a/ and b/.
    git.output(cwd, ['diff', '--src-prefix=a/', '--dst-prefix=b/', ...range, '--']),
  ])
  const statuses = parseNameStatus(names)
  const counts = parseNumstat(numbers)
  // The same options list the files in the same order as the name-status above.
  const parts = patch.split(/^(?=diff --git )/m).filter((part) => part.startsWith('diff --git '))
  const files = statuses.map((entry, index) => {
    const count = counts.get(entry.path) ?? { additions: 0, deletions: 0 }
    return { ...entry, ...count, patch: parts[index] ?? '' }
  })
  return { files }
}

/** The paths changed from `from` to `to` (commits or trees). */
export async function changedPaths(
  git: Git,
  cwd: string,
  from: string,
  to: string,
): Promise<string[]> {
  const args = ['diff', '--name-only', '-z', '--no-renames', '--no-ext-diff', '--no-textconv']
  return (await git.output(cwd, [...args, from, to])).split('\0').filter((path) => path !== '')
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
