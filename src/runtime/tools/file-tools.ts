import { TeamError } from '../../shared/errors'
import { readConfined, writeConfined } from './confined-fs'
import { displayPath, realWorkspace, resolveInWorkspace } from './workspace-path'

/** Larger files are refused: the model should grep or head them with bash instead. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024
/** What read_file returns at most, as the tutorial does: more would flood the model's context. */
export const MAX_READ_CHARACTERS = 50_000

/** The text of a workspace file, optionally only its first `limit` lines. */
export async function readWorkspaceFile(
  workspace: string,
  path: string,
  options: { limit?: number } = {},
): Promise<string> {
  const target = resolveInWorkspace(workspace, path, 'read')
  const shown = displayPath(workspace, target)
  const text = await readText(workspace, target, shown)
  if (text === '') return '(empty file)'

  let lines = text.split('\n')
  // A final newline ends the last line; it does not start another.
  if (text.endsWith('\n')) lines = lines.slice(0, -1)
  let result = text
  if (options.limit !== undefined && options.limit < lines.length) {
    const more = lines.length - options.limit
    result = `${lines.slice(0, options.limit).join('\n')}\n… (${more} more lines)`
  }
  if (result.length > MAX_READ_CHARACTERS) {
    const dropped = result.length - MAX_READ_CHARACTERS
    result =
      `${result.slice(0, MAX_READ_CHARACTERS)}\n[output truncated: ${dropped} characters ` +
      'dropped; pass limit, or use bash (sed -n, grep) for the rest]'
  }
  return result
}

/** Creates or replaces a workspace file, creating its folders. */
export async function writeWorkspaceFile(
  workspace: string,
  path: string,
  content: string,
): Promise<string> {
  const target = resolveInWorkspace(workspace, path, 'write')
  const shown = displayPath(workspace, target)
  const data = Buffer.from(content, 'utf8')
  await withFileErrors(shown, async () =>
    writeConfined(realWorkspace(workspace), target, shown, data),
  )
  return `Wrote ${data.length} bytes to ${shown}`
}

/**
 * Replaces the one occurrence of `oldText` with `newText`. Zero or several occurrences are
 * errors: an edit that could land in either of two places is a guess, not an edit.
 */
export async function editWorkspaceFile(
  workspace: string,
  path: string,
  oldText: string,
  newText: string,
): Promise<string> {
  const target = resolveInWorkspace(workspace, path, 'write')
  const shown = displayPath(workspace, target)
  if (oldText === '') {
    throw new TeamError('invalid-argument', 'old_text is empty; give the exact text to replace.')
  }
  const text = await readText(workspace, target, shown)
  const occurrences = countOccurrences(text, oldText)
  if (occurrences === 0) {
    throw new TeamError(
      'invalid-argument',
      `old_text was not found in ${shown}. It must match exactly, whitespace and line ` +
        'breaks included; read the file again and copy the text from it.',
    )
  }
  if (occurrences > 1) {
    throw new TeamError(
      'invalid-argument',
      `old_text occurs ${occurrences} times in ${shown}; include more of the surrounding ` +
        'text so that it matches exactly once.',
    )
  }
  const at = text.indexOf(oldText)
  // Slicing, not String.replace: `$&` and `$1` in new_text are text, not patterns.
  const edited = text.slice(0, at) + newText + text.slice(at + oldText.length)
  await withFileErrors(shown, async () =>
    writeConfined(realWorkspace(workspace), target, shown, Buffer.from(edited, 'utf8')),
  )
  return `Edited ${shown}`
}

/** Counts overlapping matches too: `aa` in `aaa` could mean either place. */
function countOccurrences(text: string, search: string): number {
  let count = 0
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + 1)) count += 1
  return count
}

/**
 * The file's text, read through confined-fs: the folder walk and the descriptor checks refuse
 * folders, FIFOs, sockets, devices, hard-linked files and symlinks swapped in meanwhile.
 */
async function readText(workspace: string, target: string, shown: string): Promise<string> {
  return withFileErrors(shown, async () => {
    const data = readConfined(realWorkspace(workspace), target, shown, {
      maxBytes: MAX_FILE_BYTES,
      tooLarge: (bytes) =>
        new TeamError(
          'too-large',
          `${shown} is ${megabytes(bytes)} MB; file tools handle files up to ` +
            `${megabytes(MAX_FILE_BYTES)} MB. Use bash (head, grep, sed -n) for parts of it.`,
        ),
    })
    if (data.includes(0)) {
      throw new TeamError(
        'not-text',
        `${shown} looks binary (it contains NUL bytes); file tools handle text only.`,
      )
    }
    return data.toString('utf8')
  })
}

/** Turns Node's errors, which name absolute paths, into messages about the workspace path. */
async function withFileErrors<T>(shown: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action()
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (error instanceof TeamError || typeof code !== 'string') throw error
    throw new TeamError('io', fileErrorMessage(code, shown), { code })
  }
}

function fileErrorMessage(code: string, shown: string): string {
  switch (code) {
    case 'ENOENT':
      return `${shown} does not exist.`
    case 'EISDIR':
      return `${shown} is a folder, not a file.`
    case 'ENOTDIR':
    case 'EEXIST':
      return `A part of ${shown} is a file where a folder is needed.`
    case 'EACCES':
    case 'EPERM':
      return `Permission denied for ${shown}.`
    case 'ENOSPC':
      return `The disk is full; ${shown} was not written.`
    default:
      return `${code} on ${shown}.`
  }
}

function megabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')
}
