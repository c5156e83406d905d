import * as fs from 'node:fs'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fsyncDirectorySync, writeFileAtomicSync } from '../../../src/runtime/fs/durable'

// Every open is recorded (and still made): Windows refuses to open a folder (EISDIR), so on
// win32 the atomic write must never try.
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof fs>()
  const wrapped: Record<string, unknown> = { ...actual, openSync: vi.fn(actual.openSync) }
  return { ...wrapped, default: wrapped }
})

let directory: string
const opened = (): unknown[] => vi.mocked(fs.openSync).mock.calls.map((call) => call[0])

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'agent-teams-durable-win-'))
  vi.mocked(fs.openSync).mockClear()
})
afterEach(() => rmSync(directory, { recursive: true, force: true }))

describe('durable writes on Windows (platform injected)', () => {
  it('replace the file atomically without opening or fsyncing its folder', () => {
    const file = join(directory, 'config.json')
    writeFileAtomicSync(file, '{"v":1}\n', { platform: 'win32' })
    expect(readFileSync(file, 'utf8')).toBe('{"v":1}\n')
    expect(opened()).not.toContain(directory)
  })

  it('skip the folder fsync there, and only there', () => {
    // A folder that does not exist: any attempt to open it would throw ENOENT.
    const missing = join(directory, 'missing')
    expect(() => fsyncDirectorySync(missing, 'win32')).not.toThrow()
    expect(() => fsyncDirectorySync(missing, 'linux')).toThrow(/ENOENT/)
    writeFileAtomicSync(join(directory, 'x'), 'x', { platform: 'linux' })
    expect(opened()).toContain(directory)
  })
})
