import { join } from 'node:path'
import { safeStorage } from 'electron'
import { openEncryptedSecretStore, type Encryptor } from '../runtime/secrets/encrypted-secrets'
import { plainFileSecretStore, type SecretStore } from '../runtime/secrets/secrets'

/**
 * The API key store for the desktop app, in the config folder it shares with the CLI: encrypted
 * with the OS secret store through safeStorage's asynchronous API (Keychain, DPAPI, libsecret
 * or KWallet) into api-key.enc, or, where there is no real secret store, the plain settings
 * file, with a note the UI shows before saving. Call after the app is ready: on Linux
 * safeStorage knows its backend only then. The key stays in main; the renderer only ever
 * learns whether one is set.
 */
export async function createSecretStore(directory: string): Promise<SecretStore> {
  const plain = plainFileSecretStore(join(directory, 'settings.json'))
  const unavailable = await osStoreProblem()
  if (unavailable !== null) return { ...plain, note: `${unavailable} ${plain.note ?? ''}`.trim() }
  return openEncryptedSecretStore({ directory, encryptor: safeStorageEncryptor })
}

const safeStorageEncryptor: Encryptor = {
  encrypt: (text) => safeStorage.encryptStringAsync(text),
  decrypt: async (data) => {
    const { result, shouldReEncrypt } = await safeStorage.decryptStringAsync(Buffer.from(data))
    return { text: result, shouldReEncrypt }
  },
}

/** Why the OS secret store cannot protect the key, or null when it can. */
async function osStoreProblem(): Promise<string | null> {
  if (!(await safeStorage.isAsyncEncryptionAvailable()))
    return 'The OS secret store is not available.'
  // On Linux without a keyring, safeStorage "encrypts" with a hard-coded password: no protection.
  if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text')
    return 'No keyring (GNOME Keyring, KWallet) was found.'
  return null
}
