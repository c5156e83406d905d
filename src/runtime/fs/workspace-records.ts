import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { z } from 'zod'
import { writeFileAtomicSync } from './durable'
import { FILE_CAPS, readRegularTextSync } from './safe-open'

/**
 * A file of the app's own that holds one value per workspace, keyed by the workspace's absolute
 * path (`{"v":1,"workspaces":{"<path>":…}}`): the trust record, the last looks. Read as a
 * regular file under the record cap; one that cannot be read or does not parse reads as empty
 * (and is replaced at the next write). The map has no prototype: a path is data, never a key
 * of Object.prototype.
 */
export interface WorkspaceRecords<V> {
  v: 1
  workspaces: Record<string, V>
}

export function readWorkspaceRecords<V>(
  file: string,
  what: string,
  value: z.ZodType<V>,
): WorkspaceRecords<V> {
  const workspaces = Object.create(null) as Record<string, V>
  try {
    const text = readRegularTextSync(file, { what, maxBytes: FILE_CAPS.record })
    if (text === null) return { v: 1, workspaces }
    const parsed = z
      .object({ v: z.literal(1), workspaces: z.record(z.string(), value) })
      .safeParse(JSON.parse(text))
    if (parsed.success) Object.assign(workspaces, parsed.data.workspaces)
  } catch {
    // Unreadable: as if empty.
  }
  return { v: 1, workspaces }
}

/** Replaces the file atomically, readable by the person only. */
export function writeWorkspaceRecords<V>(file: string, records: WorkspaceRecords<V>): void {
  mkdirSync(dirname(file), { recursive: true })
  writeFileAtomicSync(file, `${JSON.stringify(records, null, 2)}\n`, { mode: 0o600 })
}
