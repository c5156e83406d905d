import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createSecretStore } from '../../../src/main/secret-store'

/**
 * safeStorage's asynchronous API as the store uses it; "encryption" is a reversible marker.
 * The deprecated synchronous calls throw, so any use of them fails the test.
 */
const safeStorage = vi.hoisted(() => ({
  available: true,
  backend: 'gnome_libsecret' as string,
  async isAsyncEncryptionAvailable() {
    return this.available
  },
  getSelectedStorageBackend() {
    return this.backend
  },
  async encryptStringAsync(text: string): Promise<Buffer> {
    return Buffer.from(`sealed:${Buffer.from(text).toString('base64')}`)
  },
  async decryptStringAsync(buffer: Buffer) {
    const text = buffer.toString()
    if (!text.startsWith('sealed:')) throw new Error('Error while decrypting the ciphertext')
    return {
      result: Buffer.from(text.slice('sealed:'.length), 'base64').toString(),
      shouldReEncrypt: false,
    }
  },
  isEncryptionAvailable: () => {
    throw new Error('deprecated: use isAsyncEncryptionAvailable')
  },
  encryptString: () => {
    throw new Error('deprecated: use encryptStringAsync')
  },
  decryptString: () => {
    throw new Error('deprecated: use decryptStringAsync')
  },
}))

vi.mock('electron', () => ({ safeStorage }))

let directory: string
const encryptedFile = (): string => join(directory, 'api-key.enc')
const settingsFile = (): string => join(directory, 'settings.json')

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'agent-teams-config-'))
  safeStorage.available = true
  safeStorage.backend = 'gnome_libsecret'
})

afterEach(() => {
  vi.restoreAllMocks()
  rmSync(directory, { recursive: true, force: true })
})

describe("the desktop app's key store over safeStorage", () => {
  it('encrypts with the asynchronous API into api-key.enc', async () => {
    const store = await createSecretStore(directory)
    expect(store.kind).toBe('os')
    await store.save('sk-ant-secret')
    expect(readFileSync(encryptedFile(), 'utf8')).toMatch(/^sealed:/)
    expect(existsSync(settingsFile())).toBe(false)
    expect((await createSecretStore(directory)).load()).toBe('sk-ant-secret')
  })

  it("keeps the CLI's plain key in settings.json instead of moving it", async () => {
    writeFileSync(settingsFile(), JSON.stringify({ model: 'm', apiKey: 'sk-ant-cli' }))
    expect((await createSecretStore(directory)).load()).toBe('sk-ant-cli')
    expect(JSON.parse(readFileSync(settingsFile(), 'utf8'))).toEqual({
      model: 'm',
      apiKey: 'sk-ant-cli',
    })
  })

  it.each([
    ['Linux without a keyring (basic_text)', true, 'basic_text', /No keyring/],
    ['no encryption at all', false, 'unknown', /not available/],
  ])(
    'falls back to the plain settings file on %s, and says so',
    async (_case, available, backend, why) => {
      vi.spyOn(process, 'platform', 'get').mockReturnValue('linux')
      safeStorage.available = available
      safeStorage.backend = backend
      const store = await createSecretStore(directory)
      expect(store.kind).toBe('plain-file')
      expect(store.note).toMatch(why)
      expect(store.note).toContain(settingsFile())
      await store.save('sk-ant-plain')
      expect(existsSync(encryptedFile())).toBe(false)
      expect(JSON.parse(readFileSync(settingsFile(), 'utf8'))).toEqual({ apiKey: 'sk-ant-plain' })
      expect(store.load()).toBe('sk-ant-plain')
    },
  )
})
