import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AppSettings } from '../../../src/app/app-settings'
import {
  ENCRYPTED_KEY_FILE,
  openEncryptedSecretStore,
  type Encryptor,
} from '../../../src/runtime/secrets/encrypted-secrets'
import { loadModelConfig } from '../../../src/runtime/model/config'
import { plainFileSecretStore } from '../../../src/runtime/secrets/secrets'

/**
 * A reversible stand-in for safeStorage: "sealed:<generation>:<base64>". A generation older
 * than the current one decrypts but asks to be encrypted again, as after a key rotation.
 */
function fakeEncryptor(): Encryptor & { generation: number; decryptions: number } {
  return {
    generation: 1,
    decryptions: 0,
    async encrypt(text) {
      return Buffer.from(`sealed:${this.generation}:${Buffer.from(text).toString('base64')}`)
    },
    async decrypt(data) {
      this.decryptions += 1
      const match = /^sealed:(\d+):(.*)$/.exec(Buffer.from(data).toString())
      if (match === null) throw new Error('Error while decrypting the ciphertext')
      return {
        text: Buffer.from(match[2] ?? '', 'base64').toString(),
        shouldReEncrypt: Number(match[1]) < this.generation,
      }
    },
  }
}

let directory: string
let encryptor: ReturnType<typeof fakeEncryptor>
let warnings: string[]
const settingsFile = (): string => join(directory, 'settings.json')
const encryptedFile = (): string => join(directory, ENCRYPTED_KEY_FILE)
const open = () =>
  openEncryptedSecretStore({ directory, encryptor, warn: (text) => warnings.push(text) })
/** What the CLI sees: its own reading of the shared settings file. */
const cliKey = (): string | undefined =>
  loadModelConfig({ XDG_CONFIG_HOME: join(directory, '..') }, settingsFile()).apiKey

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'agent-teams-keys-'))
  encryptor = fakeEncryptor()
  warnings = []
})
afterEach(() => rmSync(directory, { recursive: true, force: true }))

describe('the encrypted key store (the app)', () => {
  it('encrypts a saved key into api-key.enc, 0600, and never writes settings.json', async () => {
    const store = await open()
    expect(store.kind).toBe('os')
    expect(store.load()).toBeNull()
    await store.save('sk-ant-app')
    expect(readFileSync(encryptedFile(), 'utf8')).not.toContain('sk-ant-app')
    expect(statSync(encryptedFile()).mode & 0o777).toBe(0o600)
    expect(existsSync(settingsFile())).toBe(false)
    expect((await open()).load()).toBe('sk-ant-app')
  })

  it('decrypts once, when opened, and answers from memory after', async () => {
    await (await open()).save('sk-ant-app')
    const store = await open()
    for (let index = 0; index < 5; index++) expect(store.load()).toBe('sk-ant-app')
    expect(encryptor.decryptions).toBe(1)
  })

  it("uses the CLI's plain key and leaves it where it is: the CLI keeps its key", async () => {
    const shared = { apiKey: 'sk-ant-cli', model: 'claude-x', fromAnotherVersion: { a: 1 } }
    writeFileSync(settingsFile(), JSON.stringify(shared))
    const before = readFileSync(settingsFile(), 'utf8')

    const store = await open()
    expect(store.load()).toBe('sk-ant-cli')
    await store.save('sk-ant-app')
    expect(store.load()).toBe('sk-ant-app')
    expect((await open()).load()).toBe('sk-ant-app')
    expect(readFileSync(settingsFile(), 'utf8')).toBe(before)
    expect(cliKey()).toBe('sk-ant-cli')

    // Forgetting the app's key leaves the CLI's in place, and the app falls back to it.
    await store.save(null)
    expect(existsSync(encryptedFile())).toBe(false)
    expect(store.load()).toBe('sk-ant-cli')
    expect(cliKey()).toBe('sk-ant-cli')
  })

  it('sees a key the CLI is given after the app opened the store', async () => {
    const store = await open()
    expect(store.load()).toBeNull()
    writeFileSync(settingsFile(), JSON.stringify({ apiKey: 'sk-ant-later' }))
    expect(store.load()).toBe('sk-ant-later')
  })

  it('settings saved by the app keep the CLI key and every unknown field', async () => {
    writeFileSync(settingsFile(), JSON.stringify({ apiKey: 'sk-ant-cli', theirs: [1, 2] }))
    const settings = new AppSettings(directory, await open(), {})
    const view = await settings.save({ apiKey: 'sk-ant-app', model: 'claude-y' })
    expect(view.apiKeySet).toBe(true)
    expect(settings.apiKey()).toBe('sk-ant-app')
    expect(JSON.parse(readFileSync(settingsFile(), 'utf8'))).toEqual({
      apiKey: 'sk-ant-cli',
      theirs: [1, 2],
      model: 'claude-y',
    })
  })

  it('saves and clears the context window setting beside the others', async () => {
    writeFileSync(settingsFile(), JSON.stringify({ theirs: true }))
    const settings = new AppSettings(directory, await open(), {})
    expect((await settings.save({ contextWindow: 64_000 })).contextWindow).toBe(64_000)
    expect(JSON.parse(readFileSync(settingsFile(), 'utf8'))).toEqual({
      theirs: true,
      contextWindow: 64_000,
    })
    expect((await settings.save({ contextWindow: null })).contextWindow).toBeNull()
    expect(JSON.parse(readFileSync(settingsFile(), 'utf8'))).toEqual({ theirs: true })
  })

  it('reports no key, with a warning, when the file cannot be decrypted (a new keyring)', async () => {
    writeFileSync(encryptedFile(), 'garbage')
    expect((await open()).load()).toBeNull()
    expect(warnings).toEqual([expect.stringContaining('could not decrypt')])
  })

  it('encrypts the key again when the OS rotated its key', async () => {
    await (await open()).save('sk-ant-app')
    encryptor.generation = 2
    expect((await open()).load()).toBe('sk-ant-app')
    expect(readFileSync(encryptedFile(), 'utf8')).toMatch(/^sealed:2:/)
  })

  it('keeps the last of several saves made at once', async () => {
    const store = await open()
    await Promise.all(['sk-1', 'sk-2', 'sk-3'].map((key) => store.save(key)))
    expect(store.load()).toBe('sk-3')
    expect((await open()).load()).toBe('sk-3')
  })
})

describe('the plain key store (no OS secret store, browser mode)', () => {
  it('merges the key into settings.json, keeping every other field', async () => {
    writeFileSync(settingsFile(), JSON.stringify({ model: 'm', theirs: true }))
    const store = plainFileSecretStore(settingsFile())
    await store.save('sk-ant-plain')
    expect(JSON.parse(readFileSync(settingsFile(), 'utf8'))).toEqual({
      model: 'm',
      theirs: true,
      apiKey: 'sk-ant-plain',
    })
    expect(statSync(settingsFile()).mode & 0o777).toBe(0o600)
    expect(cliKey()).toBe('sk-ant-plain')
  })

  it('refuses to replace a settings file that does not parse, and names it', async () => {
    writeFileSync(settingsFile(), '{"model": "m",')
    const store = plainFileSecretStore(settingsFile())
    expect(store.load()).toBeNull()
    await expect(store.save('sk-ant-plain')).rejects.toThrow(settingsFile())
    expect(readFileSync(settingsFile(), 'utf8')).toBe('{"model": "m",')
  })
})
