import { join } from 'node:path'
import { z } from 'zod'
import {
  readWorkspaceRecords,
  writeWorkspaceRecords,
  type WorkspaceRecords,
} from '../fs/workspace-records'
import { fingerprintOf, type GrantHashes } from './grant-items'

const sha256 = z.string().regex(/^[0-9a-f]{64}$/)

const recordSchema = z.object({
  fingerprint: sha256,
  /** Each grant's key and hash: what lets a later question say what is new or changed. */
  items: z.record(z.string(), sha256),
  /** made-here: the app made the team's `.team/`; agreed: the person agreed to these grants. */
  how: z.enum(['made-here', 'agreed']),
  at: z.number(),
})
export type TrustRecord = z.infer<typeof recordSchema>

export const TRUST_FILE = 'workspace-trust.json'

/**
 * What the person agreed to, per workspace: `workspace-trust.json` in the user's config folder
 * (beside settings.json, where no agent can write or read), replaced atomically, mode 0600. It
 * keeps hashes, never the values, of the grants agreed to. A file that cannot be read, or a
 * record whose items do not add up to its fingerprint, trusts nothing: the person is asked.
 */
export class WorkspaceTrustStore {
  constructor(private readonly directory: string) {}

  get file(): string {
    return join(this.directory, TRUST_FILE)
  }

  record(workspace: string): TrustRecord | null {
    const workspaces = this.read().workspaces
    if (!Object.hasOwn(workspaces, workspace)) return null
    const record = workspaces[workspace] ?? null
    // A record edited by hand must agree with itself, or it grants nothing.
    return record !== null && fingerprintOf(record.items) === record.fingerprint ? record : null
  }

  /** The person agreed to `items` (or the app made the team: nothing granted). */
  remember(
    workspace: string,
    items: GrantHashes,
    how: TrustRecord['how'],
    now = Date.now() / 1000,
  ): void {
    const file = this.read()
    file.workspaces[workspace] = {
      fingerprint: fingerprintOf(items),
      items: { ...items },
      how,
      at: now,
    }
    writeWorkspaceRecords(this.file, file)
  }

  /** The app made `workspace`'s `.team/` just now: trusted, with nothing granted yet. */
  rememberMadeHere(workspace: string): void {
    this.remember(workspace, {}, 'made-here')
  }

  private read(): WorkspaceRecords<TrustRecord> {
    return readWorkspaceRecords(this.file, 'The list of trusted workspaces', recordSchema)
  }
}
