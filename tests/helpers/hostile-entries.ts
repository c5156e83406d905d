import { execFileSync } from 'node:child_process'
import { mkdirSync, rmSync, symlinkSync, writeFileSync, truncateSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { dirname } from 'node:path'
import { onTestFinished } from 'vitest'

/** The kinds of entry a hostile process can put where the runtime expects a regular file. */
export const HOSTILE_KINDS = ['folder', 'fifo', 'symlink', 'socket', 'huge'] as const
export type HostileKind = (typeof HOSTILE_KINDS)[number]

/** What the refusal of each kind says. */
export const REFUSAL: Readonly<Record<HostileKind, RegExp>> = {
  folder: /is a folder, not a file/,
  fifo: /is a named pipe \(FIFO\), not a file/,
  symlink: /is a symbolic link, which is never followed here/,
  socket: /is a socket/,
  huge: /bytes, over the \d+-byte limit for it/,
}

/**
 * Puts an entry of `kind` at `path` (its folder created): a symlink to a real file elsewhere, a
 * listening Unix socket (closed when the test ends), a sparse file of `hugeBytes`.
 */
export async function makeHostileEntry(
  kind: HostileKind,
  path: string,
  options: { hugeBytes?: number; symlinkTarget?: string } = {},
): Promise<void> {
  mkdirSync(dirname(path), { recursive: true })
  rmSync(path, { recursive: true, force: true })
  switch (kind) {
    case 'folder':
      mkdirSync(path)
      return
    case 'fifo':
      execFileSync('mkfifo', [path])
      return
    case 'symlink': {
      const target = options.symlinkTarget ?? `${path}.target`
      writeFileSync(target, '{}\n')
      symlinkSync(target, path)
      return
    }
    case 'socket': {
      const server: Server = createServer()
      await new Promise<void>((resolve) => server.listen(path, resolve))
      onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
      return
    }
    case 'huge':
      writeFileSync(path, '')
      truncateSync(path, options.hugeBytes ?? 600 * 1024 * 1024)
      return
  }
}
