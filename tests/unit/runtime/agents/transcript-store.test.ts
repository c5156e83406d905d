import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { TranscriptStore } from '../../../../src/runtime/agents/transcript-store'

const clock = { now: () => 1_700_000_000_000 }

function openStore(): { store: TranscriptStore; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'agent-teams-transcript-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  const path = join(dir, 'alice.jsonl')
  return { store: TranscriptStore.open(path, clock), path }
}

/** How many of this process's descriptors are open on `path` (Linux's /proc). */
function descriptorsOn(path: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path
    } catch {
      return false
    }
  }).length
}

describe('TranscriptStore', () => {
  it('a close while an fsync is pending waits for it; the fsync succeeds', async () => {
    const { store, path } = openStore()
    store.append({ kind: 'user', from: 'user', text: 'hello' })
    const flushed = store.flushAsync()
    store.close()
    expect(descriptorsOn(path)).toBe(1) // kept for the fsync
    await expect(flushed).resolves.toBeUndefined()
    expect(readFileSync(path, 'utf8')).toContain('"hello"')
    await new Promise((resolve) => setImmediate(resolve))
    expect(descriptorsOn(path)).toBe(0)
  })

  it('an fsync asked for after close is refused, not run on whatever has the descriptor now', async () => {
    const { store, path } = openStore()
    store.close()
    expect(descriptorsOn(path)).toBe(0)
    await expect(store.flushAsync()).rejects.toThrow(/closed/)
  })
})
