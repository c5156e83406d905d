import { existsSync, lstatSync, mkdirSync, readdirSync, renameSync, unlinkSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { TeamError } from '../../shared/errors'
import { jsonTextTooDeep, MAX_JSON_DEPTH } from '../../shared/json-limits'
import {
  rosterSchema,
  ROSTER_FORMAT_VERSION,
  type Member,
  type MemberStatus,
  type RosterFile,
} from '../../shared/roster'
import { systemClock, type Clock } from '../system/clock'
import { writeFileAtomicSync } from '../fs/durable'
import { isProcessAlive } from '../fs/processes'
import { FILE_CAPS, readRegularTextSync } from '../fs/safe-open'
import type { TeamPaths } from '../team/paths'
import { describeJsonError, findJsonPath, lineAndColumn } from './json-errors'

export interface StatusChange {
  readonly name: string
  readonly previous: MemberStatus
  readonly status: MemberStatus
  readonly reason: string
}

const DEFAULT_TEAM_NAME = 'default'

/**
 * `.team/config.json`: s09's roster, written only here, atomically. A file that does not parse is
 * never overwritten; `Roster.reset` keeps it beside the fresh one.
 */
export class Roster {
  private file: RosterFile
  /** The file's text as last read or written: what an external edit is told apart by. */
  private text: string
  /** Statuses set in memory (`stageStatus`) that the next write carries. */
  private readonly staged = new Map<string, MemberStatus>()

  private constructor(
    private readonly paths: TeamPaths,
    loaded: { file: RosterFile; text: string },
    private readonly clock: Clock,
  ) {
    this.file = loaded.file
    this.text = loaded.text
  }

  /** Loads the roster, creating an empty one if there is none. Throws `roster-invalid`. */
  static open(paths: TeamPaths, options: { clock?: Clock } = {}): Roster {
    mkdirSync(paths.root, { recursive: true })
    removeStaleTemps(paths.config)
    const loaded = readRoster(paths)
    const roster = new Roster(
      paths,
      loaded ?? { file: emptyRoster(), text: '' },
      options.clock ?? systemClock,
    )
    if (loaded === null) roster.save()
    return roster
  }

  /** Reads the roster without creating anything (for read-only commands). */
  static read(paths: TeamPaths): RosterFile {
    return readRoster(paths)?.file ?? emptyRoster()
  }

  /** Moves an unreadable config.json aside (its name is returned) and starts an empty roster. */
  static reset(paths: TeamPaths, clock: Clock = systemClock): { keptAs: string | null } {
    mkdirSync(paths.root, { recursive: true })
    let keptAs: string | null = null
    try {
      // lstat, not a read: a folder or a FIFO in its place is moved aside like bad JSON.
      lstatSync(paths.config)
      const stem = `${paths.config}.invalid-${new Date(clock.now()).toISOString().replace(/[:.]/g, '-')}`
      keptAs = stem
      for (let copy = 2; existsSync(keptAs); copy++) keptAs = `${stem}-${copy}`
      renameSync(paths.config, keptAs)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
    writeFileAtomicSync(paths.config, serialize(emptyRoster()))
    return { keptAs }
  }

  get snapshot(): RosterFile {
    return this.file
  }

  get members(): readonly Member[] {
    return this.file.members
  }

  memberNames(): string[] {
    return this.file.members.map((member) => member.name)
  }

  find(name: string): Member | undefined {
    return this.file.members.find((member) => member.name === name)
  }

  /**
   * Applies `change` to a copy of the roster, validates it and writes it atomically, with the
   * staged statuses. Nothing is written when the text would not change.
   */
  update(change: (draft: RosterFile) => void): RosterFile {
    // Another program may have edited the file since it was read: start from what is on disk
    // (a broken file throws here, and is left as it is).
    this.pickUpExternalEdit()
    const draft = structuredClone(this.file)
    change(draft)
    const checked = rosterSchema.safeParse(draft)
    if (!checked.success)
      throw new TeamError(
        'roster-invalid',
        `Refusing to write an invalid roster: ${checked.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
      )
    this.file = checked.data
    this.save()
    this.staged.clear()
    return this.file
  }

  /**
   * Sets a member's status in memory at once (`find` and `members` show it) and leaves the write
   * to `writeStaged`: an activation's statuses come in bursts, and each write reads, validates,
   * and fsyncs the file twice. Unknown names are ignored.
   */
  stageStatus(name: string, status: MemberStatus): void {
    if (!this.find(name)) return
    this.staged.set(name, status)
    this.file = withStatuses(this.file, this.staged)
  }

  /** Whether statuses are staged but not yet written. */
  get hasStaged(): boolean {
    return this.staged.size > 0
  }

  /** Writes the staged statuses (merged into what is on disk). Throws like `update`. */
  writeStaged(): void {
    if (this.staged.size > 0) this.update(() => undefined)
  }

  setStatus(name: string, status: MemberStatus): void {
    this.update((draft) => {
      const member = draft.members.find((candidate) => candidate.name === name)
      if (!member) throw new TeamError('unknown-agent', `"${name}" is not on the roster.`)
      member.status = status
      member.updated_at = this.clock.now() / 1000
    })
  }

  /**
   * After a run that died, members it left `working` are set back to `idle` so that they can
   * be re-spawned. Call only while holding the workspace (no other live runtime).
   */
  recoverStale(): StatusChange[] {
    // waiting-for-you too: the run that waited is gone; its agent waits again when it runs.
    const isStale = (status: MemberStatus): boolean =>
      status === 'working' || status === 'waiting-for-you'
    const stale = this.file.members.filter((member) => isStale(member.status))
    if (stale.length === 0) return []
    this.update((draft) => {
      for (const member of draft.members) if (isStale(member.status)) member.status = 'idle'
    })
    return stale.map((member) => ({
      name: member.name,
      previous: member.status,
      status: 'idle',
      reason: 'the run that had it working ended without stopping it',
    }))
  }

  /**
   * Picks up an external edit. Returns true when the roster changed; throws `roster-invalid`
   * (keeping the last good roster in memory, and the file untouched) when it does not parse.
   */
  reload(): boolean {
    return this.pickUpExternalEdit()
  }

  /** Takes in the file on disk when its text differs from ours; staged statuses stay on top. */
  private pickUpExternalEdit(): boolean {
    const text = readRosterText(this.paths)
    if (text === null) {
      // Removed by someone: the next write puts it back.
      this.text = ''
      return false
    }
    // The same text as ours (most often our own write, seen again): nothing to parse.
    if (text === this.text) return false
    const file = parseRoster(this.paths, text)
    this.file = withStatuses(file, this.staged)
    this.text = text
    return true
  }

  private save(): void {
    const text = serialize(this.file)
    if (text === this.text) return
    writeFileAtomicSync(this.paths.config, text)
    this.text = text
  }
}

/** `file` with the members named in `statuses` set to them (new objects, the rest shared). */
function withStatuses(file: RosterFile, statuses: ReadonlyMap<string, MemberStatus>): RosterFile {
  if (statuses.size === 0) return file
  return {
    ...file,
    members: file.members.map((member) => {
      const status = statuses.get(member.name)
      return status === undefined || status === member.status ? member : { ...member, status }
    }),
  }
}

function emptyRoster(): RosterFile {
  return { team_name: DEFAULT_TEAM_NAME, members: [], format_version: ROSTER_FORMAT_VERSION }
}

function serialize(file: RosterFile): string {
  return `${JSON.stringify({ ...file, format_version: ROSTER_FORMAT_VERSION }, null, 2)}\n`
}

function readRoster(paths: TeamPaths): { file: RosterFile; text: string } | null {
  const text = readRosterText(paths)
  return text === null ? null : { file: parseRoster(paths, text), text }
}

function readRosterText(paths: TeamPaths): string | null {
  // A folder, FIFO, symlink or huge file in its place is a roster problem the person can fix
  // (shown like bad JSON), not a crash or a hang.
  return readRegularTextSync(paths.config, {
    what: 'The roster',
    maxBytes: FILE_CAPS.record,
    code: 'roster-invalid',
    remedy: 'Move it aside and restart, or reset the roster (the bad entry is kept beside it).',
  })
}

function parseRoster(paths: TeamPaths, text: string): RosterFile {
  // Extra fields are kept and written back: one nested thousands deep would overflow the
  // JSON.stringify of the next write, so such a file is refused here, with the others' reasons.
  if (jsonTextTooDeep(text, MAX_JSON_DEPTH))
    throw new TeamError(
      'roster-invalid',
      `${paths.config}: nested more than ${MAX_JSON_DEPTH} levels deep. Fix the file, or reset the roster (the bad file is kept beside it).`,
      { file: paths.config, line: 1, column: 1 },
    )
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    const where = describeJsonError(text, error as Error)
    throw new TeamError(
      'roster-invalid',
      `${paths.config}:${where.line}:${where.column}: not valid JSON (${where.message}). Fix the file, or reset the roster (the bad file is kept beside it).`,
      { file: paths.config, line: where.line, column: where.column },
    )
  }
  const checked = rosterSchema.safeParse(value)
  if (!checked.success) {
    const issue = checked.error.issues[0]
    const path = issue
      ? issue.path
          .map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
          .join('')
          .replace(/^\./, '')
      : ''
    const where = locatePath(text, issue?.path ?? [])
    throw new TeamError(
      'roster-invalid',
      `${paths.config}:${where.line}:${where.column}: ${path || 'the file'} ${issue?.message ?? 'is invalid'}. Fix the file, or reset the roster (the bad file is kept beside it).`,
      { file: paths.config, line: where.line, column: where.column },
    )
  }
  if (
    typeof checked.data.format_version === 'number' &&
    checked.data.format_version > ROSTER_FORMAT_VERSION
  ) {
    throw new TeamError(
      'roster-invalid',
      `${paths.config}: format_version ${checked.data.format_version} is newer than this app reads (${ROSTER_FORMAT_VERSION}); update the app.`,
      { file: paths.config, line: 1, column: 1 },
    )
  }
  return checked.data
}

/** The line and column of the value at `path` in the JSON `text` (its start when not found). */
function locatePath(text: string, path: readonly PropertyKey[]): { line: number; column: number } {
  const parts = path.map((part) => (typeof part === 'number' ? part : String(part)))
  // A missing field is shown at the object that misses it.
  for (let length = parts.length; length >= 0; length--) {
    const index = findJsonPath(text, parts.slice(0, length))
    if (index !== undefined) return lineAndColumn(text, index)
  }
  return lineAndColumn(text, 0)
}

function removeStaleTemps(config: string): void {
  const prefix = `.${basename(config)}.`
  for (const file of readdirSync(dirname(config))) {
    const match = file.startsWith(prefix) ? /\.(\d+)\.[0-9a-f]+\.tmp$/.exec(file) : null
    if (match && Number(match[1]) !== process.pid && !isProcessAlive(Number(match[1]))) {
      try {
        unlinkSync(join(dirname(config), file))
      } catch {
        // Another process's temp file, already gone.
      }
    }
  }
}
