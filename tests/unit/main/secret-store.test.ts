import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createSecretStore } from '../../../src/main/secret-store'

/** safeStorage as the store uses it; "encryption" is a reversible marker, enough to see it ran. */
const safeStorage = vi.hoisted(() => ({
  available: true,
  backend: 'gnome_libsecret' as string,
  decryptions: 0,
  isEncryptionAvailable() {
    return this.available
  },
  getSelectedStorageBackend() {
    return this.backend
  },
  encryptString(text: string): Buffer {
    return Buffer.from(`sealed:${Buffer.from(text).toString('base64')}`)
  },
  decryptString(buffer: Buffer): string {
    this.decryptions++
    const text = buffer.toString()
    if (!text.startsWith('sealed:')) throw new Error('Error while decrypting the ciphertext')
    return Buffer.from(text.slice('sealed:'.length), 'base64').toString()
  },
}))

vi.mock('electron', () => ({ safeStorage }))

let userData: string
const encryptedFile = (): string => join(userData, 'api-key.enc')
const settingsFile = (): string => join(userData, 'settings.json')

beforeEach(() => {
  userData = mkdtempSync(join(tmpdir(), 'agent-teams-userdata-'))
  safeStorage.available = true
  safeStorage.backend = 'gnome_libsecret'
  safeStorage.decryptions = 0
})

afterEach(() => {
  rmSync(userData, { recursive: true, force: true })
})

describe('the API key store', () => {
  it('encrypts the key with safeStorage into api-key.enc, readable only by the user', () => {
    const store = createSecretStore(userData)
    expect(store.kind).toBe('os')
    expect(store.note).toBeNull()
    expect(store.load()).toBeNull()
    store.save('sk-ant-secret')
    expect(readFileSync(encryptedFile(), 'utf8')).not.toContain('sk-ant-secret')
    expect(statSync(encryptedFile()).mode & 0o777).toBe(0o600)
    expect(existsSync(settingsFile())).toBe(false)
    expect(createSecretStore(userData).load()).toBe('sk-ant-secret')
  })

  it('decrypts once and then answers from memory', () => {
    createSecretStore(userData).save('sk-ant-secret')
    const store = createSecretStore(userData)
    for (let index = 0; index < 5; index++) expect(store.load()).toBe('sk-ant-secret')
    expect(safeStorage.decryptions).toBe(1)
  })

  it('forgets the key when saved as null', () => {
    const store = createSecretStore(userData)
    store.save('sk-ant-secret')
    store.save(null)
    expect(existsSync(encryptedFile())).toBe(false)
    expect(store.load()).toBeNull()
    expect(createSecretStore(userData).load()).toBeNull()
  })

  it('reports no key when the file cannot be decrypted (a replaced keyring)', () => {
    writeFileSync(encryptedFile(), 'garbage')
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    expect(createSecretStore(userData).load()).toBeNull()
    expect(warn).toHaveBeenCalledOnce()
    warn.mockRestore()
  })

  it('moves a key saved in the plain settings file into the OS store', () => {
    writeFileSync(settingsFile(), JSON.stringify({ model: 'm', apiKey: 'sk-ant-old' }))
    expect(createSecretStore(userData).load()).toBe('sk-ant-old')
    expect(JSON.parse(readFileSync(settingsFile(), 'utf8'))).toEqual({ model: 'm' })
    expect(createSecretStore(userData).load()).toBe('sk-ant-old')
  })

  it.each([
    ['Linux without a keyring (basic_text)', true, 'basic_text', /No keyring/],
    ['no encryption at all', false, 'unknown', /not available/],
  ])(
    'falls back to the plain settings file on %s, and says so',
    (_case, available, backend, why) => {
      vi.spyOn(process, 'platform', 'get').mockReturnValue('linux')
      safeStorage.available = available
      safeStorage.backend = backend
      const store = createSecretStore(userData)
      expect(store.kind).toBe('plain-file')
      expect(store.note).toMatch(why)
      expect(store.note).toContain(settingsFile())
      store.save('sk-ant-plain')
      expect(existsSync(encryptedFile())).toBe(false)
      expect(JSON.parse(readFileSync(settingsFile(), 'utf8'))).toEqual({ apiKey: 'sk-ant-plain' })
      expect(store.load()).toBe('sk-ant-plain')
      vi.restoreAllMocks()
    },
  )
})
