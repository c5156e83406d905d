import { readdirSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import picomatch from 'picomatch'
import { z } from 'zod'
import { TeamError } from '../../shared/errors'
import { readConfined } from './confined-fs'
import { defineTool, type Tool } from './types'
import { displayPath, realWorkspace, resolveInWorkspace, TEAM_FOLDER } from './workspace-path'

/** Folders a search never enters: the team's own files, and trees no one greps by hand. */
const SKIPPED_FOLDERS = new Set([TEAM_FOLDER, '.git', 'node_modules'])
/** Enough for the model to act on; more floods its context. */
const MAX_RESULTS = 200
/** A search that visits more stops and says so: a workspace is not a disk. */
const MAX_VISITED = 20_000
/** Files read by grep: larger ones are skipped (bash's grep handles them). */
const MAX_GREP_FILE_BYTES = 1024 * 1024
/** Lines longer than this are cut in the answer (minified files would flood it). */
const MAX_LINE_CHARACTERS = 300

interface WalkedFile {
  readonly absolute: string
  /** From the workspace, as the answer names it. */
  readonly relative: string
  /** From the folder searched, as a glob pattern is matched. */
  readonly fromStart: string
}

/**
 * The regular files under `start` (an absolute, already confined folder), depth first in name
 * order. Symbolic links are never followed: a link out of the workspace is not a file in it.
 */
function* walk(workspaceReal: string, start: string): Generator<WalkedFile | 'limit'> {
  const stack = [start]
  let visited = 0
  while (stack.length > 0) {
    const folder = stack.pop() as string
    let entries
    try {
      entries = readdirSync(folder, { withFileTypes: true })
    } catch {
      continue // a folder removed or unreadable meanwhile is not the model's error
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    const folders: string[] = []
    for (const entry of entries) {
      visited += 1
      if (visited > MAX_VISITED) {
        yield 'limit'
        return
      }
      const absolute = join(folder, entry.name)
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) folders.push(absolute)
      } else if (entry.isFile()) {
        yield {
          absolute,
          relative: displayPath(workspaceReal, absolute),
          fromStart: relative(start, absolute).split(sep).join('/'),
        }
      }
    }
    // Pushed last first, so that the folders are visited in name order.
    for (const child of folders.reverse()) stack.push(child)
  }
}

/** The folder a search starts in: the workspace, or a path inside it. */
function startFolder(workspace: string, path: string | undefined): string {
  return path === undefined || path === '' || path === '.'
    ? realWorkspace(workspace)
    : resolveInWorkspace(workspace, path, 'read')
}

const searchFolder = z.string().optional().describe('Optional: a folder to search in.')

export const globTool: Tool = defineTool(
  {
    name: 'glob',
    description:
      'List workspace files whose path matches a glob pattern (`**/*.ts`, `src/*.{js,json}`), ' +
      'relative to `path` (default: the workspace); answers paths from the workspace, at most ' +
      `${MAX_RESULTS}. .team, .git and node_modules are skipped.`,
    input: z.object({ pattern: z.string().min(1).max(1000), path: searchFolder }),
  },
  async (input, context) => {
    const workspaceReal = realWorkspace(context.workspace)
    const matches = picomatch(input.pattern, { dot: true })
    const found: string[] = []
    let limited = false
    for (const file of walk(workspaceReal, startFolder(context.workspace, input.path))) {
      if (file === 'limit') {
        limited = true
        break
      }
      if (!matches(file.fromStart)) continue
      if (found.length === MAX_RESULTS) {
        limited = true
        break
      }
      found.push(file.relative)
    }
    if (found.length === 0) return `No files match ${input.pattern}.`
    return limited
      ? `${found.join('\n')}\n[more files match; narrow the pattern]`
      : found.join('\n')
  },
)

export const grepTool: Tool = defineTool(
  {
    name: 'grep',
    description:
      'Search workspace text files for a regular expression (JavaScript syntax); answers ' +
      `path:line: text, at most ${MAX_RESULTS} lines. glob limits the files searched ` +
      '(`**/*.ts`); ignore_case makes it case-insensitive.',
    input: z.object({
      pattern: z.string().min(1).max(1000),
      path: searchFolder,
      glob: z.string().min(1).max(1000).optional(),
      ignore_case: z.boolean().optional(),
    }),
  },
  async (input, context) => {
    let expression: RegExp
    try {
      expression = new RegExp(input.pattern, input.ignore_case ? 'i' : '')
    } catch (error) {
      throw new TeamError('invalid-argument', `grep: ${(error as Error).message}`)
    }
    const workspaceReal = realWorkspace(context.workspace)
    const included = input.glob ? picomatch(input.glob, { dot: true }) : () => true
    const lines: string[] = []
    let limited = false
    for (const file of walk(workspaceReal, startFolder(context.workspace, input.path))) {
      if (file === 'limit' || context.signal.aborted) {
        limited = true
        break
      }
      if (!included(file.fromStart)) continue
      const text = readSearchable(workspaceReal, file)
      if (text === null) continue
      const fileLines = text.split('\n')
      for (let index = 0; index < fileLines.length; index++) {
        const line = fileLines[index] as string
        if (!expression.test(line)) continue
        if (lines.length === MAX_RESULTS) {
          limited = true
          break
        }
        const shown =
          line.length > MAX_LINE_CHARACTERS ? `${line.slice(0, MAX_LINE_CHARACTERS)}…` : line
        lines.push(`${file.relative}:${index + 1}: ${shown}`)
      }
      if (limited) break
    }
    if (lines.length === 0) return `No matches for ${input.pattern}.`
    return limited ? `${lines.join('\n')}\n[more matches; narrow the search]` : lines.join('\n')
  },
)

/**
 * A file's text through confined-fs (no symlink, FIFO or hard-linked file), or null for one
 * that is too large, binary or refused: a search skips what it cannot read.
 */
function readSearchable(workspaceReal: string, file: WalkedFile): string | null {
  try {
    const data = readConfined(workspaceReal, file.absolute, file.relative, {
      maxBytes: MAX_GREP_FILE_BYTES,
      tooLarge: () => new TeamError('too-large', 'too large'),
    })
    return data.includes(0) ? null : data.toString('utf8')
  } catch {
    return null
  }
}

/** The read-only search tools a reviewer gets beside read_file. */
export const searchTools: readonly Tool[] = [grepTool, globTool]
