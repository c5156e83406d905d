import { randomBytes } from 'node:crypto'
import {
  closeSync,
  constants,
  existsSync,
  fchmodSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmdirSync,
  symlinkSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { TeamError } from '../../shared/errors'
import { describeEntry } from '../fs/safe-open'

/**
 * Opening files for the file tools so that no interleaving with another process escapes the
 * workspace. Node has no openat(2), but on Linux `/proc/self/fd/<fd>/<name>` names `<name>`
 * inside the very folder the descriptor holds, whatever happens to the folder's path meanwhile.
 * So the path is walked one folder at a time from the workspace's own descriptor, each step
 * opened with O_NOFOLLOW (a component swapped for a symlink fails the open instead of leading
 * out), and the file is created, read and renamed only by names relative to a folder already
 * opened. Elsewhere (macOS, Windows) the same walk runs on plain paths, which re-resolves each
 * path and so only narrows the window; docs/architecture.md says so.
 */
const PROC_FD = '/proc/self/fd'
const BY_DESCRIPTOR = process.platform === 'linux' && existsSync(PROC_FD)

const NOFOLLOW = constants.O_NOFOLLOW ?? 0
const NONBLOCK = constants.O_NONBLOCK ?? 0
const DIRECTORY = constants.O_DIRECTORY ?? 0

/** A folder inside the workspace, opened; entries are named through it. */
interface Folder {
  /** The descriptor (Linux), or null where folders are reached by path. */
  readonly fd: number | null
  /** Its path as walked, for messages and for the path-based fallback. */
  readonly path: string
}

function entry(folder: Folder, name: string): string {
  return BY_DESCRIPTOR && folder.fd !== null
    ? `${PROC_FD}/${folder.fd}/${name}`
    : join(folder.path, name)
}

function close(folder: Folder): void {
  if (folder.fd !== null) closeSync(folder.fd)
}

/** Opens `name` in `parent` as a folder without following a symlink there; creates it if asked. */
function openChild(parent: Folder, name: string, create: boolean): Folder {
  const path = join(parent.path, name)
  const at = entry(parent, name)
  if (!BY_DESCRIPTOR) {
    if (create) mkdirIfMissing(at)
    const stats = lstatSync(at)
    if (stats.isSymbolicLink()) throw swapped(path)
    if (!stats.isDirectory()) throw errorWithCode('ENOTDIR')
    return { fd: null, path }
  }
  try {
    return { fd: openSync(at, constants.O_RDONLY | DIRECTORY | NOFOLLOW), path }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' && create) {
      mkdirIfMissing(at)
      return openChild(parent, name, false)
    }
    if (code === 'ELOOP') throw swapped(path)
    throw error
  }
}

function mkdirIfMissing(path: string): void {
  try {
    mkdirSync(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
}

/**
 * Opens the folder holding `target` (a real path inside `workspaceReal`, as resolveInWorkspace
 * gives it) by walking from the workspace, and runs `use` with it and the file's name.
 */
function withParent<T>(
  workspaceReal: string,
  target: string,
  create: boolean,
  use: (folder: Folder, name: string) => T,
): T {
  const parts = relative(workspaceReal, target).split(sep)
  const name = parts.pop() ?? ''
  let folder: Folder = {
    fd: BY_DESCRIPTOR ? openSync(workspaceReal, constants.O_RDONLY | DIRECTORY) : null,
    path: workspaceReal,
  }
  try {
    for (const part of parts) {
      const child = openChild(folder, part, create)
      close(folder)
      folder = child
    }
    return use(folder, name)
  } finally {
    close(folder)
  }
}

export interface ReadLimits {
  readonly maxBytes: number
  /** Says the size and the limit, in the tool's words. */
  readonly tooLarge: (bytes: number) => TeamError
}

/**
 * The bytes of the regular file `target`, read from the descriptor the walk opened. Refused: a
 * folder, a FIFO, a socket, a device, a symlink put there meanwhile, and a file with more than
 * one hard link (its other name may be outside the workspace, where file tools may not read).
 */
export function readConfined(
  workspaceReal: string,
  target: string,
  shown: string,
  limits: ReadLimits,
): Buffer {
  if (target === workspaceReal) throw errorWithCode('EISDIR')
  return withParent(workspaceReal, target, false, (folder, name) => {
    const fd = openEntry(entry(folder, name), shown, constants.O_RDONLY | NONBLOCK)
    try {
      const stats = fstatSync(fd)
      assertReadable(stats, shown)
      if (stats.size > limits.maxBytes) throw limits.tooLarge(stats.size)
      const data = Buffer.allocUnsafe(stats.size)
      let offset = 0
      while (offset < stats.size) {
        const read = readSync(fd, data, offset, stats.size - offset, offset)
        if (read === 0) break
        offset += read
      }
      return data.subarray(0, offset)
    } finally {
      closeSync(fd)
    }
  })
}

/**
 * Replaces `target` with `data`: a temp file created O_EXCL|O_NOFOLLOW in the folder the walk
 * opened, written, fsynced, renamed over the name within that same folder, and the folder
 * fsynced. An existing file keeps its mode, so an edited script stays executable.
 */
export function writeConfined(
  workspaceReal: string,
  target: string,
  shown: string,
  data: Uint8Array,
  /** The file's mode; absent: an existing file's is kept (a new one gets the umask's). */
  fileMode?: number,
): void {
  if (target === workspaceReal) throw errorWithCode('EISDIR')
  withParent(workspaceReal, target, true, (folder, name) => {
    const mode = fileMode ?? existingMode(entry(folder, name))
    const tempName = `.${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
    const temp = entry(folder, tempName)
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW
    const fd = openEntry(temp, shown, flags, 0o666)
    let open = true
    try {
      writeAll(fd, data)
      if (mode !== undefined) fchmodSync(fd, mode)
      fsyncSync(fd)
      open = false
      closeSync(fd)
      renameSync(temp, entry(folder, name))
    } catch (error) {
      // Closed once only: a descriptor number closed twice may by then be another file's.
      if (open) closeSync(fd)
      try {
        unlinkSync(temp)
      } catch {
        // Never created, or renamed already.
      }
      throw error
    }
    // The folder's entry is durable too; a folder that cannot be fsynced (Windows) is left be.
    if (folder.fd !== null) fsyncSync(folder.fd)
  })
}

/**
 * Replaces `target` under git's lock protocol: `<name>.lock` is created O_EXCL|O_NOFOLLOW in the
 * folder the walk opened (another git holding it: refused), `accept` is shown what `target` holds
 * now (null when there is none), and only if it agrees is the lock written and renamed over the
 * name. Used for a git ref file (a branch): a link planted in its place is replaced, never
 * followed, and no log is written. Whether it was replaced.
 */
export function replaceLockedConfined(
  rootReal: string,
  target: string,
  shown: string,
  data: Uint8Array,
  accept: (current: string | null) => boolean,
): boolean {
  if (target === rootReal) throw errorWithCode('EISDIR')
  return withParent(rootReal, target, true, (folder, name) => {
    const lock = entry(folder, `${name}.lock`)
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW
    let fd: number
    try {
      fd = openEntry(lock, shown, flags, 0o644)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      throw new TeamError(
        'workspace-busy',
        `${shown} is locked (${name}.lock exists): a git command is moving it. Try again when it ` +
          'is done, or remove the .lock file if no git is running.',
        { path: shown },
      )
    }
    let open = true
    let renamed = false
    try {
      if (!accept(currentText(entry(folder, name), shown))) return false
      writeAll(fd, data)
      fsyncSync(fd)
      open = false
      closeSync(fd)
      renameSync(lock, entry(folder, name))
      renamed = true
      if (folder.fd !== null) fsyncSync(folder.fd)
      return true
    } finally {
      if (open) closeSync(fd)
      if (!renamed) unlinkSync(lock)
    }
  })
}

/** A small regular file's text, null when missing; a link or anything else is refused. */
function currentText(path: string, shown: string): string | null {
  let fd: number
  try {
    fd = openEntry(path, shown, constants.O_RDONLY | NONBLOCK)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
  try {
    const stats = fstatSync(fd)
    if (!stats.isFile() || stats.size > 4096) throw notAFile(shown, describeEntry(stats))
    const data = Buffer.alloc(stats.size)
    const read = readSync(fd, data, 0, stats.size, 0)
    return data.subarray(0, read).toString('utf8')
  } finally {
    closeSync(fd)
  }
}

/**
 * Removes the file or symbolic link `target` (never what a link leads to), walking to it as
 * `writeConfined` does; nothing when it is already gone. A folder there is refused. Then each
 * folder that held it and is left empty is removed too, up to the workspace.
 */
export function removeConfined(workspaceReal: string, target: string, shown: string): void {
  if (target === workspaceReal) throw errorWithCode('EISDIR')
  try {
    withParent(workspaceReal, target, false, (folder, name) => {
      const at = entry(folder, name)
      const stats = lstatSync(at, { throwIfNoEntry: false })
      if (stats === undefined) return
      if (stats.isDirectory()) throw notAFile(shown, 'a folder')
      unlinkSync(at)
      if (folder.fd !== null) fsyncSync(folder.fd)
    })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw error
  }
  removeEmptyFolders(workspaceReal, dirname(target))
}

/**
 * Makes `target` a symbolic link to `linkTarget` (replacing a file or link there), walking to its
 * folder as `writeConfined` does. The link is made, never followed.
 */
export function symlinkConfined(
  workspaceReal: string,
  target: string,
  shown: string,
  linkTarget: string,
): void {
  if (target === workspaceReal) throw errorWithCode('EISDIR')
  withParent(workspaceReal, target, true, (folder, name) => {
    const at = entry(folder, name)
    const stats = lstatSync(at, { throwIfNoEntry: false })
    if (stats?.isDirectory() === true) throw notAFile(shown, 'a folder')
    if (stats !== undefined) unlinkSync(at)
    symlinkSync(linkTarget, at)
    if (folder.fd !== null) fsyncSync(folder.fd)
  })
}

/** Removes `folder` and its parents while they are empty, stopping at the workspace. */
function removeEmptyFolders(workspaceReal: string, folder: string): void {
  for (let current = folder; current !== workspaceReal; current = dirname(current)) {
    if (relative(workspaceReal, current).startsWith('..')) return
    try {
      withParent(workspaceReal, current, false, (parent, name) => rmdirSync(entry(parent, name)))
    } catch {
      // Not empty, gone, or not a folder: the walk up ends here.
      return
    }
  }
}

function existingMode(path: string): number | undefined {
  let stats: Stats
  try {
    stats = lstatSync(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  if (stats.isDirectory()) throw errorWithCode('EISDIR')
  // A symlink put in the file's place is replaced by the rename (the link, not its target).
  return stats.isFile() ? stats.mode & 0o7777 : undefined
}

function openEntry(path: string, shown: string, flags: number, mode?: number): number {
  try {
    return openSync(path, flags | NOFOLLOW, mode)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ELOOP') throw swapped(shown)
    if (code === 'ENXIO') throw notAFile(shown, 'a socket')
    throw error
  }
}

function assertReadable(stats: Stats, shown: string): void {
  if (stats.isDirectory()) throw errorWithCode('EISDIR')
  if (!stats.isFile()) throw notAFile(shown, describeEntry(stats))
  if (stats.nlink > 1)
    throw new TeamError(
      'path-refused',
      `${shown} has ${stats.nlink} hard links: its other names may be outside the workspace, ` +
        'so file tools do not read or edit it. Work on a copy (bash: cp) if it is yours.',
      { path: shown },
    )
}

function notAFile(shown: string, what: string): TeamError {
  return new TeamError(
    'path-refused',
    `${shown} is ${what}, not a regular file; file tools read and write regular files only.`,
    { path: shown },
  )
}

function swapped(shown: string): TeamError {
  return new TeamError(
    'path-refused',
    `A part of ${shown} is a symbolic link that appeared while it was being opened; ` +
      'nothing was read or written. Use the path the link leads to.',
    { path: shown },
  )
}

function writeAll(fd: number, data: Uint8Array): void {
  let offset = 0
  while (offset < data.length) offset += writeSync(fd, data, offset, data.length - offset)
}

function errorWithCode(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(code), { code })
}
