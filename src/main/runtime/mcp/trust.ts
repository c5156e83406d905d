import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomicSync } from '../fs/durable'
import { FILE_CAPS, readRegularTextSync } from '../fs/safe-open'

const trustFileSchema = z.object({
  v: z.literal(1),
  workspaces: z.record(
    z.string(),
    z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/), trusted_at: z.number() }),
  ),
})
type TrustFile = z.infer<typeof trustFileSchema>

/**
 * Which workspaces' MCP servers the person trusted, per workspace and content of its server
 * files (`mcp-trust.json` in the user's config folder, as Claude Code keeps it per project): a
 * changed file asks again. A file that cannot be read trusts nothing, so the person is asked.
 */
export class McpTrustStore {
  constructor(private readonly directory: string) {}

  get file(): string {
    return join(this.directory, 'mcp-trust.json')
  }

  isTrusted(workspace: string, contentHash: string): boolean {
    const workspaces = this.read().workspaces
    return Object.hasOwn(workspaces, workspace) && workspaces[workspace]?.sha256 === contentHash
  }

  remember(workspace: string, contentHash: string, now = Date.now() / 1000): void {
    const file = this.read()
    file.workspaces[workspace] = { sha256: contentHash, trusted_at: now }
    mkdirSync(this.directory, { recursive: true })
    writeFileAtomicSync(this.file, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 })
  }

  private read(): TrustFile {
    try {
      const text = readRegularTextSync(this.file, {
        what: 'The list of trusted MCP workspaces',
        maxBytes: FILE_CAPS.record,
      })
      if (text === null) return { v: 1, workspaces: {} }
      const parsed = trustFileSchema.safeParse(JSON.parse(text))
      if (!parsed.success) return { v: 1, workspaces: {} }
      // A null-prototype copy: a workspace path is data, never a key of Object.prototype.
      return { v: 1, workspaces: Object.assign(Object.create(null), parsed.data.workspaces) }
    } catch {
      return { v: 1, workspaces: {} }
    }
  }
}
