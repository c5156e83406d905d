import { createHash } from 'node:crypto'
import type { GrantChange, WorkspaceGrants } from '../../shared/trust'

/** Each grant's key and a hash of everything it says: what a trust record keeps of it. */
export type GrantHashes = Readonly<Record<string, string>>

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

/** Every item of the grants by key, each with the hash of its whole content. */
export function grantHashes(grants: WorkspaceGrants): GrantHashes {
  const hashes: Record<string, string> = Object.create(null) as Record<string, string>
  const items = [
    ...grants.mcpServers,
    ...grants.files,
    ...grants.allowedHosts,
    ...grants.approveAlways,
    ...grants.profiles,
    ...(grants.checks ?? []),
    ...(grants.schedules ?? []),
  ]
  for (const item of items) hashes[item.key] = sha256(JSON.stringify(item))
  return hashes
}

/** One hash for all of them: equal exactly when every item is. */
export function fingerprintOf(hashes: GrantHashes): string {
  const lines = Object.keys(hashes)
    .sort()
    .map((key) => `${key}\t${hashes[key] ?? ''}\n`)
  return sha256(lines.join(''))
}

/** The fingerprint of a workspace that grants nothing (a `.team/` the app just made). */
export const NOTHING_GRANTED = fingerprintOf({})

/** What is new, changed or gone since `agreed`, in key order. */
export function grantChanges(agreed: GrantHashes, now: GrantHashes): GrantChange[] {
  const changes: GrantChange[] = []
  const keys = new Set([...Object.keys(agreed), ...Object.keys(now)])
  for (const key of [...keys].sort()) {
    const before = Object.hasOwn(agreed, key) ? agreed[key] : undefined
    const after = Object.hasOwn(now, key) ? now[key] : undefined
    if (before === after) continue
    const change = before === undefined ? 'new' : after === undefined ? 'removed' : 'changed'
    changes.push({ key, change, label: grantLabel(key) })
  }
  return changes
}

const KINDS: Readonly<Record<string, string>> = {
  mcp: 'MCP server',
  file: 'server file',
  host: 'allowed host',
  rule: 'approve-always rule',
  profile: 'custom profile',
  check: 'check command',
  schedule: 'scheduled run',
}

/** A grant named in words from its key: "MCP server notes", "allowed host 127.0.0.1". */
export function grantLabel(key: string): string {
  const colon = key.indexOf(':')
  const kind = KINDS[key.slice(0, colon)] ?? 'grant'
  const rest = key.slice(colon + 1)
  if (key.startsWith('rule:')) {
    const [agent = '', tool = '', ...pattern] = rest.split(':')
    return `${kind}: ${agent} may run ${tool === 'write' ? 'writes to' : 'bash'} ${pattern.join(':')}`
  }
  return `${kind} ${rest}`
}
