import { closeSync, openSync, writeSync } from 'node:fs'

/**
 * Appends `line` (its newline included) to `path` in one write(2) on an O_APPEND descriptor, so
 * that concurrent appenders (other processes included) never interleave inside it. `bytes` is the
 * line's UTF-8 size, which the caller measured already; the string is encoded by writeSync itself,
 * which saves a Buffer per line.
 */
export function appendLineSync(path: string, line: string, bytes: number): void {
  const fd = openSync(path, 'a', 0o644)
  try {
    const written = writeSync(fd, line)
    if (written !== bytes) {
      // Only a full disk or a quota does this to a regular file; the line is then torn and the
      // reader will reject it, so say so loudly rather than pretend it was sent.
      throw new Error(`short append to ${path}: ${written} of ${bytes} bytes (is the disk full?)`)
    }
  } finally {
    closeSync(fd)
  }
}
