import { lstatSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { TeamError } from '../../shared/errors'
import {
  TEAM_NOTE_MAX_CHARS,
  TEAM_NOTE_VERSION,
  teamNoteFileSchema,
  type TeamNoteView,
} from '../../shared/instructions'
import { writeFileAtomicSync } from '../fs/durable'
import { FILE_CAPS, readRegularTextSync } from '../fs/safe-open'

/** `.team/note.json`: the team-level note every member's system prompt includes. */
export function teamNotePath(teamRoot: string): string {
  return join(teamRoot, 'note.json')
}

const NO_NOTE: TeamNoteView = { text: '', updatedAt: null, problem: null }

/**
 * Reads the note before every model call (an edit reaches the next call); the file is parsed
 * again only when its time, size or inode changed. A file that cannot be read or parsed is left
 * out of the prompts and reported with what to do; it is never overwritten silently.
 */
export class TeamNote {
  private cached: { key: string; view: TeamNoteView } | null = null

  constructor(private readonly teamRoot: string) {}

  get path(): string {
    return teamNotePath(this.teamRoot)
  }

  read(): TeamNoteView {
    let key: string
    try {
      const stats = lstatSync(this.path)
      key = `${stats.mtimeMs}:${stats.size}:${stats.ino}`
    } catch {
      this.cached = null
      return NO_NOTE
    }
    if (this.cached?.key === key) return this.cached.view
    const view = readTeamNote(this.path)
    this.cached = { key, view }
    return view
  }

  /** Replaces the note (empty text removes it from the prompts); atomic, like config.json. */
  write(text: string, nowSeconds: number): TeamNoteView {
    const problem = teamNoteTextProblem(text)
    if (problem !== null) throw new TeamError('invalid-argument', problem)
    const current = this.read()
    if (current.problem !== null)
      throw new TeamError(
        'file-invalid',
        `${current.problem} It was not replaced: move it aside first, then save the note again.`,
      )
    mkdirSync(this.teamRoot, { recursive: true })
    const file = { v: TEAM_NOTE_VERSION, text, updated_at: nowSeconds }
    writeFileAtomicSync(this.path, `${JSON.stringify(file, null, 2)}\n`)
    return this.read()
  }
}

/** Why `text` cannot be the team note, or null. */
export function teamNoteTextProblem(text: string): string | null {
  if (text.length > TEAM_NOTE_MAX_CHARS)
    return `The team note is ${text.length.toLocaleString('en-US')} characters; it may hold at most ${TEAM_NOTE_MAX_CHARS.toLocaleString('en-US')}. Put long documents in AGENTS.md or a file the note points to.`
  return null
}

function readTeamNote(path: string): TeamNoteView {
  let text: string | null
  try {
    text = readRegularTextSync(path, {
      what: 'The team note',
      maxBytes: FILE_CAPS.record,
      code: 'file-invalid',
    })
  } catch (error) {
    return { ...NO_NOTE, problem: (error as Error).message }
  }
  if (text === null) return NO_NOTE
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return {
      ...NO_NOTE,
      problem: `The team note ${path} is not valid JSON (${(error as Error).message}); fix it or move it aside.`,
    }
  }
  const parsed = teamNoteFileSchema.safeParse(value)
  if (!parsed.success)
    return {
      ...NO_NOTE,
      problem: `The team note ${path} is invalid: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'note'} ${issue.message}`).join('; ')}. Fix it or move it aside.`,
    }
  return { text: parsed.data.text, updatedAt: parsed.data.updated_at ?? null, problem: null }
}
