import { createHash } from 'node:crypto'
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from 'node:fs'
import { isAbsolute, join, relative, sep } from 'node:path'

/** What a stdio server names: its command, arguments and env values, after `${VAR}`. */
export interface ServerTexts {
  readonly server: string
  readonly texts: readonly string[]
}

/** A file inside the workspace that a server names, with what it holds now. */
export interface NamedFile {
  readonly path: string
  readonly target: string | null
  readonly sha256: string
  readonly bytes: number
  readonly servers: string[]
}

/** More names than this in one configuration are not looked at (the rest still run sandboxed). */
const MAX_CANDIDATES = 2000
const CHUNK_BYTES = 1024 * 1024
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)

/**
 * Every path inside the workspace a server's command line could name: each word of each text
 * (so `bash -c "node tools/x.js"` names `tools/x.js`) and what follows a `=` in it
 * (`--config=tools/x.json`), resolved against the workspace, where servers start.
 */
export function candidatePaths(workspace: string, servers: readonly ServerTexts[]): string[] {
  const found = new Set<string>()
  for (const { texts } of servers)
    for (const text of texts)
      for (const word of words(text)) {
        if (found.size >= MAX_CANDIDATES) return [...found]
        const path = inside(workspace, word)
        if (path !== null) found.add(path)
      }
  return [...found]
}

/**
 * The files among the candidates, hashed (a link is followed, and where it leads is kept, so a
 * link pointed elsewhere is a change too). A name that is not a regular file is left out: it
 * names nothing that runs.
 */
export function namedFiles(workspace: string, servers: readonly ServerTexts[]): NamedFile[] {
  const byPath = new Map<string, NamedFile>()
  for (const { server, texts } of servers) {
    for (const path of candidatePaths(workspace, [{ server, texts }])) {
      const known = byPath.get(path)
      if (known !== undefined) {
        if (!known.servers.includes(server)) known.servers.push(server)
        continue
      }
      const hashed = hashFile(path)
      if (hashed === null) continue
      let real: string
      try {
        real = realpathSync(path)
      } catch {
        continue
      }
      const target = real === path ? null : real
      byPath.set(path, {
        path: relative(workspace, path),
        target,
        sha256: hashed.sha256,
        bytes: hashed.bytes,
        servers: [server],
      })
    }
  }
  return [...byPath.values()].sort((a, b) => a.path.localeCompare(b.path))
}

function words(text: string): string[] {
  const result: string[] = []
  for (const raw of text.split(/\s+/)) {
    const word = raw.replace(/^['"]+|['"]+$/g, '')
    if (word === '' || word.includes('\0')) continue
    result.push(word)
    const equals = word.indexOf('=')
    if (equals >= 0 && equals < word.length - 1) result.push(word.slice(equals + 1))
  }
  return result
}

/** The absolute path when `word` names something inside the workspace, else null. */
function inside(workspace: string, word: string): string | null {
  const path = isAbsolute(word) ? word : join(workspace, word)
  const rest = relative(workspace, path)
  if (rest === '' || rest === '..' || rest.startsWith(`..${sep}`) || isAbsolute(rest)) return null
  return join(workspace, rest)
}

/** The sha256 of a regular file, read in chunks; null for anything else or what cannot be read. */
function hashFile(path: string): { sha256: string; bytes: number } | null {
  let fd: number
  try {
    // O_NONBLOCK: a FIFO named by a server must not hang the runtime; fstat then refuses it.
    fd = openSync(path, OPEN_FLAGS)
  } catch {
    return null
  }
  try {
    if (!fstatSync(fd).isFile()) return null
    const hash = createHash('sha256')
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES)
    let bytes = 0
    for (;;) {
      const read = readSync(fd, chunk, 0, CHUNK_BYTES, null)
      if (read === 0) break
      hash.update(chunk.subarray(0, read))
      bytes += read
    }
    return { sha256: hash.digest('hex'), bytes }
  } catch {
    return null
  } finally {
    closeSync(fd)
  }
}
