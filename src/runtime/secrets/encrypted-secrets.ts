import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomicSync } from '../fs/durable'
import { readPlainKey, type SecretStore } from './secrets'

/** The file, beside settings.json, that holds the app's encrypted key. */
export const ENCRYPTED_KEY_FILE = 'api-key.enc'

/**
 * What encrypts the key: Electron's safeStorage in the app (src/main/secret-store.ts), a
 * reversible stand-in in tests. Asynchronous because safeStorage's synchronous API is
 * deprecated (Electron 45) and the keyring may prompt the person.
 */
export interface Encryptor {
  encrypt(text: string): Promise<Uint8Array>
  /** `shouldReEncrypt`: the OS rotated its key; the text should be stored encrypted again. */
  decrypt(data: Uint8Array): Promise<{ text: string; shouldReEncrypt: boolean }>
}

export interface EncryptedStoreOptions {
  /** The shared config folder: settings.json (the CLI's too) and api-key.enc. */
  readonly directory: string
  readonly encryptor: Encryptor
  readonly warn?: (message: string) => void
}

/**
 * The app's key store over the OS secret store, shared with the `agent-teams` CLI without
 * either taking the other's key: the app's key is encrypted into its own file, api-key.enc,
 * and settings.json is never written by it. A plain `apiKey` in settings.json (how the CLI is
 * given its key) is read as the fallback but never moved or removed, so the CLI keeps working.
 * The encrypted file is decrypted once, here, so `load()` never reaches the keyring.
 */
export async function openEncryptedSecretStore(
  options: EncryptedStoreOptions,
): Promise<SecretStore> {
  const encryptedFile = join(options.directory, ENCRYPTED_KEY_FILE)
  const settingsFile = join(options.directory, 'settings.json')
  const warn = options.warn ?? ((message: string) => console.warn(`[secrets] ${message}`))
  let encrypted = await readEncrypted(encryptedFile, options.encryptor, warn)
  // Saves run one at a time, in order: the last key saved is the one on disk.
  let saving: Promise<void> = Promise.resolve()

  const write = async (secret: string | null): Promise<void> => {
    if (secret === null) rmSync(encryptedFile, { force: true })
    else {
      const data = await options.encryptor.encrypt(secret)
      mkdirSync(options.directory, { recursive: true })
      writeFileAtomicSync(encryptedFile, data, { mode: 0o600 })
    }
    encrypted = secret
  }

  return {
    kind: 'os',
    note:
      `The key is encrypted by the OS secret store into ${encryptedFile}. A plain "apiKey" in ` +
      `${settingsFile} (the agent-teams CLI's) is used when no key is saved here, and is never changed by the app.`,
    load: () => encrypted ?? readPlainKey(settingsFile),
    save: (secret) => {
      saving = saving.catch(() => undefined).then(() => write(secret))
      return saving
    },
  }
}

/** The decrypted key, or null when there is none or it cannot be decrypted (a new keyring). */
async function readEncrypted(
  path: string,
  encryptor: Encryptor,
  warn: (message: string) => void,
): Promise<string | null> {
  let data: Buffer
  try {
    data = readFileSync(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
  let decrypted: { text: string; shouldReEncrypt: boolean }
  try {
    decrypted = await encryptor.decrypt(data)
  } catch (error) {
    // A keyring that was reset or replaced cannot decrypt the old file: the settings then show
    // "no key" (or the CLI's plain one) and the person enters it again.
    warn(`could not decrypt ${path}: ${(error as Error).message}`)
    return null
  }
  if (decrypted.text.length === 0) return null
  if (decrypted.shouldReEncrypt) {
    try {
      writeFileAtomicSync(path, await encryptor.encrypt(decrypted.text), { mode: 0o600 })
    } catch (error) {
      warn(`could not encrypt ${path} again with the rotated key: ${(error as Error).message}`)
    }
  }
  return decrypted.text
}
