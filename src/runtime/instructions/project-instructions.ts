import { realpathSync } from 'node:fs'
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import type { InstructionFileView } from '../../shared/instructions'
import { importPaths } from './imports'
import { TeamNote } from './team-note'
import { TextFileCache } from './text-file-cache'

/** The files read in each folder of an agent's path, in this order. */
const FILE_NAMES = [
  ['AGENTS.md', 'agents'],
  ['CLAUDE.md', 'claude'],
] as const

/** How many `@path` hops a CLAUDE.md may chain, as in Claude Code. */
export const IMPORT_DEPTH_LIMIT = 5
/** Each file may take this share of the agent's context window; the rest is cut, with a note. */
export const INSTRUCTION_FILE_SHARE = 0.05
/** All of them together may take this share: many files must not crowd out the conversation. */
export const INSTRUCTIONS_TOTAL_SHARE = 0.25
/** Files considered per gathering, imports and refusals included (a hostile CLAUDE.md may list thousands). */
export const MAX_INSTRUCTION_FILES = 100
/** The estimate the runtime uses where it cannot count: about four characters a token. */
const CHARS_PER_TOKEN = 4

/** Where an agent works: the workspace, a folder in it, or a worktree elsewhere. */
export interface InstructionScope {
  readonly workspace: string
  /** The agent's working folder (default: the workspace). */
  readonly workingFolder?: string
  /**
   * The top of a working folder outside the workspace (a worktree): its files from there down
   * are read, and its imports are confined to it. Default: the working folder itself.
   */
  readonly workingRoot?: string
}

export interface GatheredInstructions {
  /** Every file considered, in prompt order, with what was shown of it. */
  readonly files: InstructionFileView[]
  /** The system prompt's section for them; '' when there is nothing to include. */
  readonly text: string
}

interface Included {
  readonly path: string
  readonly text: string
}

/**
 * The workspace's instruction files for one agent, read before each of its model calls (through
 * a cache that re-reads only a changed file): AGENTS.md and CLAUDE.md of the workspace root, then
 * of each folder down to the agent's working folder (the nearest last, so the most specific
 * instructions come last), CLAUDE.md's `@path` imports after it, and the team note.
 */
export class ProjectInstructions {
  private readonly cache = new TextFileCache()
  readonly note: TeamNote

  constructor(teamRoot: string) {
    this.note = new TeamNote(teamRoot)
  }

  gather(scope: InstructionScope, windowTokens: number): GatheredInstructions {
    const walk = new Walk(scope, this.cache, windowTokens)
    for (const { folder, root } of folderChain(scope))
      for (const [name, kind] of FILE_NAMES)
        walk.consider(join(folder, name), { kind, importedBy: null, depth: 0, root, stack: [] })
    const note = this.note.read()
    let noteText: string | null = null
    if (note.problem !== null || note.text.trim() !== '') {
      const fitted = walk.fit(TEAM_NOTE_PATH, note.text)
      walk.files.push({
        path: TEAM_NOTE_PATH,
        kind: 'team-note',
        importedBy: null,
        bytes: Buffer.byteLength(note.text),
        shownChars: note.problem === null ? fitted.shown : 0,
        totalChars: note.text.length,
        problem: note.problem,
      })
      if (note.problem === null) noteText = fitted.text
    }
    return { files: walk.files, text: promptSection(walk.included, noteText) }
  }
}

const TEAM_NOTE_PATH = '.team/note.json'

function promptSection(files: readonly Included[], note: string | null): string {
  const parts: string[] = []
  if (files.length > 0) {
    parts.push(
      "The project's instruction files follow, from the workspace root to your working folder; where they disagree, the later (nearer) one wins. Follow them.",
    )
    for (const file of files) parts.push(`<file path="${file.path}">\n${file.text}\n</file>`)
  }
  if (note !== null)
    parts.push(
      `The team's note, from the person, for every member:\n<team-note>\n${note}\n</team-note>`,
    )
  return parts.join('\n\n')
}

/** The folders whose files an agent reads, from the workspace root to its working folder. */
function folderChain(scope: InstructionScope): { folder: string; root: string }[] {
  const workspace = resolve(scope.workspace)
  const working = resolve(scope.workingFolder ?? workspace)
  const chain = [{ folder: workspace, root: workspace }]
  const outside = !isInside(workspace, working)
  const root = outside ? resolve(scope.workingRoot ?? working) : workspace
  if (outside && !isInside(root, working)) return chain
  const steps = relative(root, working).split(sep).filter(Boolean)
  if (outside) chain.push({ folder: root, root })
  let folder = root
  for (const step of steps) {
    folder = join(folder, step)
    chain.push({ folder, root })
  }
  return chain
}

function isInside(parent: string, child: string): boolean {
  const path = relative(parent, child)
  // `..` itself or a `../` prefix leaves the folder; a name like `..notes` does not.
  return path === '' || (path !== '..' && !path.startsWith(`..${sep}`) && !isAbsolute(path))
}

function realpathOrNull(path: string): string | null {
  try {
    return realpathSync(path)
  } catch {
    return null
  }
}

interface Visit {
  readonly kind: InstructionFileView['kind']
  readonly importedBy: string | null
  readonly depth: number
  /** The folder this file must stay in: the workspace, or the worktree it was found in. */
  readonly root: string
  /** The real paths of the files that imported it, for cycles. */
  readonly stack: readonly string[]
}

/** One gathering: the files found so far and what was seen, for duplicates and cycles. */
class Walk {
  readonly files: InstructionFileView[] = []
  readonly included: Included[] = []
  private readonly seenFiles = new Map<string, string>()
  private readonly seenTexts = new Map<string, string>()
  private readonly workspace: string
  private readonly teamFolder: string | null
  private readonly fileChars: number
  private remainingChars: number

  constructor(
    scope: InstructionScope,
    private readonly cache: TextFileCache,
    windowTokens: number,
  ) {
    this.fileChars = Math.floor(windowTokens * INSTRUCTION_FILE_SHARE) * CHARS_PER_TOKEN
    this.remainingChars = Math.floor(windowTokens * INSTRUCTIONS_TOTAL_SHARE) * CHARS_PER_TOKEN
    this.workspace = resolve(scope.workspace)
    const real = realpathOrNull(this.workspace)
    this.teamFolder = real === null ? null : join(real, '.team')
  }

  consider(path: string, visit: Visit): void {
    const shown = this.display(path)
    if (this.full(shown, visit)) return
    const outside = 'outside the workspace (instructions are read only from inside it); not read'
    // Checked as written first, then as resolved: `../x` and a symlink out are both refused.
    if (!isInside(visit.root, path)) return this.leftOut(shown, visit, 0, outside)
    const real = realpathOrNull(path)
    if (real === null) {
      // A missing AGENTS.md is normal; a missing import is a mistake worth showing.
      if (visit.kind === 'import') this.leftOut(shown, visit, 0, 'not found')
      return
    }
    const rootReal = realpathOrNull(visit.root) ?? visit.root
    if (!isInside(rootReal, real)) return this.leftOut(shown, visit, 0, outside)
    if (this.teamFolder !== null && isInside(this.teamFolder, real))
      return this.leftOut(shown, visit, 0, "under .team/, the team's own files; not read")
    if (visit.stack.includes(real))
      return this.leftOut(shown, visit, 0, 'imports itself through a cycle; read once')
    const same = this.seenFiles.get(real)
    if (same !== undefined) return this.leftOut(shown, visit, 0, `the same file as ${same}`)
    const file = this.cache.read(real)
    if (file === null) {
      if (visit.kind === 'import') this.leftOut(shown, visit, 0, 'not a regular file; not read')
      return
    }
    this.seenFiles.set(real, shown)
    const twin = this.seenTexts.get(file.text)
    if (twin !== undefined)
      return this.leftOut(shown, visit, file.bytes, `the same text as ${twin}; included once`)
    this.seenTexts.set(file.text, shown)
    const fitted = this.fit(shown, file.text)
    this.files.push({
      path: shown,
      kind: visit.kind,
      importedBy: visit.importedBy,
      bytes: file.bytes,
      shownChars: fitted.shown,
      totalChars: file.text.length,
      problem: null,
    })
    this.included.push({ path: shown, text: fitted.text })
    if (visit.kind === 'agents') return
    for (const target of importPaths(file.text)) {
      const next: Visit = {
        kind: 'import',
        importedBy: shown,
        depth: visit.depth + 1,
        root: visit.root,
        stack: [...visit.stack, real],
      }
      const targetPath = resolve(dirname(path), target)
      if (next.depth > IMPORT_DEPTH_LIMIT) {
        this.leftOut(
          this.display(targetPath),
          next,
          0,
          `more than ${IMPORT_DEPTH_LIMIT} imports deep; not read`,
        )
        continue
      }
      this.consider(targetPath, next)
    }
  }

  /** `text` cut to the file's share of the window (and what is left of the total), noted. */
  fit(path: string, text: string): { text: string; shown: number } {
    const limit = Math.max(0, Math.min(this.fileChars, this.remainingChars))
    const shown = Math.min(text.length, limit)
    this.remainingChars -= shown
    if (shown === text.length) return { text, shown }
    const why =
      limit === this.fileChars
        ? `it is larger than an instruction file's share (${INSTRUCTION_FILE_SHARE * 100} %) of the context window`
        : `the instruction files together may take ${INSTRUCTIONS_TOTAL_SHARE * 100} % of the context window`
    return {
      text: `${text.slice(0, shown)}\n[cut: ${shown.toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')} characters of ${path} shown; ${why}. Read the rest with read_file when you need it.]`,
      shown,
    }
  }

  /** Whether another file may be considered (the cap on files per gathering). */
  private full(path: string, visit: Visit): boolean {
    if (this.files.length < MAX_INSTRUCTION_FILES) return false
    if (this.files.length === MAX_INSTRUCTION_FILES)
      this.leftOut(
        path,
        visit,
        0,
        `more than ${MAX_INSTRUCTION_FILES} instruction files; the rest are not read`,
      )
    return true
  }

  private leftOut(path: string, visit: Visit, bytes: number, problem: string): void {
    this.files.push({
      path,
      kind: visit.kind,
      importedBy: visit.importedBy,
      bytes,
      shownChars: 0,
      totalChars: 0,
      problem,
    })
  }

  private display(path: string): string {
    return isInside(this.workspace, path) ? relative(this.workspace, path) || '.' : path
  }
}
