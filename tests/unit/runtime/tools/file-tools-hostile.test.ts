import { spawn, spawnSync } from 'node:child_process'
import {
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import {
  editFileTool,
  readFileTool,
  writeFileTool,
} from '../../../../src/runtime/tools/basic-tools'
import { MAX_FILE_BYTES } from '../../../../src/runtime/tools/file-tools'
import { readWorkspaceFile, writeWorkspaceFile } from '../../../../src/runtime/tools/file-tools'
import type { Tool, ToolContext } from '../../../../src/runtime/tools/types'
import { HOSTILE_KINDS, makeHostileEntry } from '../../../helpers/hostile-entries'
import { waitFor } from '../../../helpers/wait'
import { tempWorkspace } from '../../../helpers/workspace'

/** A device node needs mknod's privilege (root, as on CI here); without it the test says so. */
const CAN_MKNOD = (() => {
  const probe = mkdtempSync(join(tmpdir(), 'agent-teams-mknod-'))
  try {
    return spawnSync('mknod', [join(probe, 'zero'), 'c', '1', '5']).status === 0
  } finally {
    rmSync(probe, { recursive: true, force: true })
  }
})()
if (!CAN_MKNOD)
  console.info(
    '[skipped] read_file of a device: mknod is not permitted for this user, so no device can be made',
  )

function setup(): { dir: string; context: ToolContext } {
  const { dir } = tempWorkspace('agent-teams-tools-hostile-')
  return { dir, context: { workspace: dir, agent: 'alice', signal: new AbortController().signal } }
}

/** A folder outside the workspace, removed when the test ends. */
function outsideFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-teams-outside-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** What each tool says about each kind of entry. */
const EXPECTED: Record<(typeof HOSTILE_KINDS)[number], RegExp> = {
  folder: /is a folder/,
  fifo: /is a named pipe \(FIFO\), not a regular file/,
  // A symlink made before the call leads outside here, so the path check refuses it first.
  symlink: /leads outside the workspace through a symbolic link/,
  socket: /is a socket, not a regular file/,
  huge: /MB; file tools handle files up to 10 MB/,
}

const READERS: readonly [string, Tool, Record<string, unknown>][] = [
  ['read_file', readFileTool, {}],
  ['edit_file', editFileTool, { old_text: 'a', new_text: 'b' }],
]

async function within<T>(promise: Promise<T>, milliseconds = 3000): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the tool hung')), milliseconds)
    }),
  ]).finally(() => clearTimeout(timer))
}

describe('file tools refuse what is not a regular file', () => {
  for (const [name, tool, input] of READERS)
    for (const kind of HOSTILE_KINDS)
      it(`${name} of a ${kind}: a clear error, no hang`, async () => {
        const { dir, context } = setup()
        await makeHostileEntry(kind, join(dir, 'entry'), {
          hugeBytes: MAX_FILE_BYTES + 1,
          symlinkTarget: join(outsideFolder(), 'target'),
        })
        const outcome = await within(tool.run({ path: 'entry', ...input }, context))
        expect(outcome.isError).toBe(true)
        expect(outcome.content).toMatch(EXPECTED[kind])
      })

  for (const kind of ['folder', 'fifo', 'socket'] as const)
    it(`write_file over a ${kind}: refused or replaced, never written through`, async () => {
      const { dir, context } = setup()
      await makeHostileEntry(kind, join(dir, 'entry'))
      const outcome = await within(writeFileTool.run({ path: 'entry', content: 'x' }, context))
      // A folder is refused; a FIFO or socket is an entry the rename replaces by a file.
      if (kind === 'folder') expect(outcome.content).toMatch(/is a folder/)
      else expect(outcome).toMatchObject({ isError: false })
    })

  it.skipIf(!CAN_MKNOD)('read_file of a device is refused', async () => {
    const { dir, context } = setup()
    expect(spawnSync('mknod', [join(dir, 'zero'), 'c', '1', '5']).status).toBe(0)
    const outcome = await within(readFileTool.run({ path: 'zero' }, context))
    expect(outcome.content).toMatch(/is a device, not a regular file/)
  })

  it('read_file and edit_file of a hard link to a file outside are refused', async () => {
    const { dir, context } = setup()
    const secret = join(outsideFolder(), 'secret.txt')
    writeFileSync(secret, 'outside secret a')
    linkSync(secret, join(dir, 'innocent.txt'))
    for (const [, tool, input] of READERS) {
      const outcome = await tool.run({ path: 'innocent.txt', ...input }, context)
      expect(outcome.isError).toBe(true)
      expect(outcome.content).toMatch(/innocent\.txt has 2 hard links/)
      expect(outcome.content).not.toContain('outside secret')
    }
  })
})

/**
 * Another process swaps `<workspace>/dir` between a real folder and a symlink to a folder
 * outside, as fast as it can, for as long as the test runs. A write that lands while `dir` is
 * missing makes a new folder there (the tools create parents); the swapper removes it (it is
 * inside the workspace) rather than stalling with a real folder in place for good.
 */
function startSwapper(workspace: string, outside: string): () => Promise<void> {
  const script = `
    const fs = require('node:fs')
    const [dir, away, outside] = process.argv.slice(1)
    for (;;) {
      try { fs.renameSync(dir, away) } catch {}
      try { fs.rmSync(dir, { recursive: true, force: true }); fs.symlinkSync(outside, dir) } catch {}
      try { fs.unlinkSync(dir) } catch {}
      try { fs.renameSync(away, dir) } catch {}
    }`
  const child = spawn(
    process.execPath,
    ['-e', script, join(workspace, 'dir'), join(workspace, 'dir.away'), outside],
    { stdio: 'ignore' },
  )
  return async () => {
    child.kill('SIGKILL')
    await new Promise((resolve) => child.once('exit', resolve))
  }
}

describe('the write race: a folder swapped for a symlink while the tools run', () => {
  it('thousands of write_file calls land 0 files outside; read_file never returns one', async () => {
    const { dir } = setup()
    const outside = outsideFolder()
    mkdirSync(join(dir, 'dir'))
    writeFileSync(join(dir, 'dir', 'read-me.txt'), 'inside')
    writeFileSync(join(outside, 'read-me.txt'), 'OUTSIDE')
    const stop = startSwapper(dir, outside)
    let written = 0
    let refused = 0
    const reads = new Set<string>()
    try {
      // The swapper is a process of its own: wait until it has swapped once, so that the calls
      // meet the race however slowly it started.
      await waitFor(
        () => lstatSync(join(dir, 'dir'), { throwIfNoEntry: false })?.isSymbolicLink() === true,
        () => 'the swapper to put the link in place once',
        { timeout: 20_000, interval: 1 },
      )
      // At least 2,000 calls, and on until both outcomes were seen (a busy machine may give
      // the swapper few turns).
      for (
        let index = 0;
        index < 2000 || ((written === 0 || refused === 0) && index < 40_000);
        index++
      ) {
        try {
          await writeWorkspaceFile(dir, `dir/file-${index}.txt`, 'x')
          written += 1
        } catch {
          refused += 1
        }
        if (index % 3 === 0) {
          try {
            reads.add(await readWorkspaceFile(dir, 'dir/read-me.txt'))
          } catch {
            // Refused while the link was in place: fine.
          }
        }
      }
    } finally {
      await stop()
    }
    const escaped = readdirSync(outside).filter((name) => name !== 'read-me.txt')
    expect(escaped).toEqual([])
    expect(reads.has('OUTSIDE')).toBe(false)
    // The race was real: some calls met the link and were refused, others went through.
    expect(written).toBeGreaterThan(0)
    expect(refused).toBeGreaterThan(0)
  }, 120_000)
})
