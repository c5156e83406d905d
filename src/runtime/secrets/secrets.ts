import { chmodSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { writeFileAtomicSync } from '../fs/durable'
import { readSettings } from '../model/config'

/**
 * Where the API key is kept. Electron provides one backed by the OS secret store
 * (safeStorage); elsewhere the key sits in a file only the user can read, and the UI says so
 * before saving.
 */
export interface SecretStore {
  readonly kind: 'os' | 'plain-file'
  /** Shown beside the key field: what protects the key, and what does not. */
  readonly note: string | null
  /** The key as known now; answered from memory or a small file read, never the keyring. */
  load(): string | null
  /** Resolves once the key is stored (the OS store encrypts asynchronously). */
  save(secret: string | null): Promise<void>
}

/**
 * The plain `apiKey` of the settings file, or null. The `agent-teams` CLI reads its key here
 * too. A file that cannot be read counts as no key: the settings view reports the file's
 * problem itself.
 */
export function readPlainKey(path: string): string | null {
  try {
    const key = readSettings(path).apiKey
    return typeof key === 'string' && key.length > 0 ? key : null
  } catch {
    return null
  }
}

/**
 * Sets or removes `apiKey` in the settings file at `path` (mode 0600), keeping every other
 * field, known or not, as it is. A file that does not parse is refused (readSettings throws
 * with the file named), never replaced.
 */
export function writePlainKey(path: string, secret: string | null): void {
  const settings: Record<string, unknown> = { ...readSettings(path) }
  if (secret === null) delete settings.apiKey
  else settings.apiKey = secret
  mkdirSync(dirname(path), { recursive: true })
  // Created 0600 before the key is written into it, and kept so if it existed.
  writeFileAtomicSync(path, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 })
  chmodSync(path, 0o600)
}

/** A key in `path` (JSON `{ "apiKey": … }`, mode 0600), merged into the settings file. */
export function plainFileSecretStore(path: string): SecretStore {
  return {
    kind: 'plain-file',
    note: `No OS secret store is in use: the key is saved unencrypted in ${path}, readable only by your user account.`,
    load: () => readPlainKey(path),
    save: async (secret) => writePlainKey(path, secret),
  }
}
