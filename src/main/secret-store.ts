import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { safeStorage } from 'electron'
import { writeFileAtomicSync } from './runtime/fs/durable'
import { plainFileSecretStore, type SecretStore } from './runtime/secrets'

const ENCRYPTED_KEY_FILE = 'api-key.enc'

/**
 * The API key store for the desktop app: encrypted with the OS secret store through
 * `safeStorage` (Keychain, DPAPI, libsecret or KWallet) into `api-key.enc`, or, where there is
 * no real secret store, the plain settings file, with a note the UI shows before saving.
 * Call after the app is ready: on Linux safeStorage knows its backend only then. The key stays
 * in main; the renderer only ever learns whether one is set.
 */
export function createSecretStore(userData: string): SecretStore {
  const plain = plainFileSecretStore(join(userData, 'settings.json'))
  const unavailable = osStoreProblem()
  if (unavailable !== null) return { ...plain, note: `${unavailable} ${plain.note ?? ''}`.trim() }
  return encryptedFileSecretStore(join(userData, ENCRYPTED_KEY_FILE), userData, plain)
}

/** Why the OS secret store cannot protect the key, or null when it can. */
function osStoreProblem(): string | null {
  if (!safeStorage.isEncryptionAvailable()) return 'The OS secret store is not available.'
  // On Linux without a keyring, safeStorage "encrypts" with a hard-coded password: no protection.
  if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text')
    return 'No keyring (GNOME Keyring, KWallet) was found.'
  return null
}

function encryptedFileSecretStore(
  path: string,
  directory: string,
  plain: SecretStore,
): SecretStore {
  // Decrypted once: settings views ask for the key often, and each decryption may reach the
  // keyring (on macOS it can prompt the person).
  let cached: { readonly secret: string | null } | undefined

  const read = (): string | null => {
    let encrypted: Buffer
    try {
      encrypted = readFileSync(path)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return migrateFrom(plain)
      throw error
    }
    try {
      const secret = safeStorage.decryptString(encrypted)
      return secret.length > 0 ? secret : null
    } catch (error) {
      // A keyring that was reset or replaced cannot decrypt the old file: the key is gone, and
      // the settings show "no key" so that the person enters it again.
      console.warn(`[secrets] could not decrypt ${path}:`, error)
      return null
    }
  }

  const write = (secret: string | null): void => {
    if (secret === null) {
      rmSync(path, { force: true })
    } else {
      mkdirSync(directory, { recursive: true })
      writeFileAtomicSync(path, safeStorage.encryptString(secret), { mode: 0o600 })
    }
    cached = { secret }
  }

  /** A key saved in the plain file while there was no keyring moves into the OS store. */
  const migrateFrom = (store: SecretStore): string | null => {
    const secret = store.load()
    if (secret === null) return null
    write(secret)
    store.save(null)
    return secret
  }

  return {
    kind: 'os',
    note: null,
    load: () => {
      cached ??= { secret: read() }
      return cached.secret
    },
    save: write,
  }
}
