import { chmodSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { writeFileAtomicSync } from './fs/durable'
import { FILE_CAPS, readRegularTextSync } from './fs/safe-open'

/**
 * Where the API key is kept. Electron provides one backed by the OS secret store
 * (safeStorage); elsewhere the key sits in a file only the user can read, and the UI says so
 * before saving.
 */
export interface SecretStore {
  readonly kind: 'os' | 'plain-file'
  /** Shown beside the key field: what protects the key, and what does not. */
  readonly note: string | null
  load(): string | null
  save(secret: string | null): void
}

/** A key in `path` (JSON `{ "apiKey": … }`, mode 0600), merged into the settings file. */
export function plainFileSecretStore(path: string): SecretStore {
  const read = (): Record<string, unknown> => {
    try {
      const text = readRegularTextSync(path, {
        what: 'The settings file',
        maxBytes: FILE_CAPS.record,
      })
      const value = JSON.parse(text ?? '{}') as unknown
      return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {}
    } catch {
      return {}
    }
  }
  return {
    kind: 'plain-file',
    note: `No OS secret store is in use: the key is saved unencrypted in ${path}, readable only by your user account.`,
    load: () => {
      const key = read().apiKey
      return typeof key === 'string' && key.length > 0 ? key : null
    },
    save: (secret) => {
      const settings = read()
      if (secret === null) delete settings.apiKey
      else settings.apiKey = secret
      mkdirSync(dirname(path), { recursive: true })
      // Created 0600 before the key is written into it, and kept so if it existed.
      writeFileAtomicSync(path, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 })
      chmodSync(path, 0o600)
    },
  }
}
