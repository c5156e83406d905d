import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { readTranscript, TranscriptStore } from '../../../src/runtime/agents/transcript-store'
import { systemClock } from '../../../src/runtime/system/clock'
import { appendOnceSync } from '../../../src/runtime/fs/durable'
import { FILE_CAPS, openFailure, readRegularFileSync } from '../../../src/runtime/fs/safe-open'
import { readCursor } from '../../../src/runtime/mailbox/consumer'
import { acquireFileLock } from '../../../src/runtime/fs/file-lock'
import { readSettings } from '../../../src/runtime/model/config'
import { readProtocols } from '../../../src/runtime/protocols/store'
import { Roster } from '../../../src/runtime/roster/roster'
import { TeamError } from '../../../src/shared/errors'
import { cli } from '../../helpers/cli'
import { HOSTILE_KINDS, makeHostileEntry, REFUSAL } from '../../helpers/hostile-entries'
import { tempTeam } from '../../helpers/workspace'

/** Gives up on a read that hangs (a FIFO waited on), so that the test fails instead. */
async function within<T>(action: () => Promise<T> | T, milliseconds = 3000): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('hung')), milliseconds)
  })
  try {
    return await Promise.race([Promise.resolve().then(action), timeout])
  } finally {
    clearTimeout(timer)
  }
}

async function refusal(action: () => unknown): Promise<TeamError> {
  try {
    await within(async () => action())
  } catch (error) {
    expect(error).toBeInstanceOf(TeamError)
    return error as TeamError
  }
  throw new Error('expected a refusal')
}

/** Each file the runtime reads whole: where it lives, how it is read, the cap of its kind. */
const FILES = [
  {
    file: 'config.json',
    path: (team: ReturnType<typeof tempTeam>) => team.paths.config,
    read: (team: ReturnType<typeof tempTeam>) => Roster.read(team.paths),
    what: /The roster/,
    cap: FILE_CAPS.record,
  },
  {
    file: 'cursor.json',
    path: (team: ReturnType<typeof tempTeam>) => team.paths.cursor('alice'),
    read: (team: ReturnType<typeof tempTeam>) => readCursor(team.paths, 'alice'),
    what: /The cursor of "alice"'s inbox/,
    cap: FILE_CAPS.cursor,
  },
  {
    file: 'protocols.json',
    path: (team: ReturnType<typeof tempTeam>) => join(team.paths.root, 'protocols.json'),
    read: (team: ReturnType<typeof tempTeam>) =>
      readProtocols(join(team.paths.root, 'protocols.json')),
    what: /The protocols file/,
    cap: FILE_CAPS.record,
  },
  {
    file: 'settings.json',
    path: (team: ReturnType<typeof tempTeam>) => join(team.dir, 'config', 'settings.json'),
    read: (team: ReturnType<typeof tempTeam>) =>
      readSettings(join(team.dir, 'config', 'settings.json')),
    what: /The settings file/,
    cap: FILE_CAPS.record,
  },
  {
    file: 'a transcript',
    path: (team: ReturnType<typeof tempTeam>) => team.paths.transcript('alice'),
    read: (team: ReturnType<typeof tempTeam>) => readTranscript(team.paths.transcript('alice')),
    what: /The transcript/,
    cap: FILE_CAPS.log,
  },
  {
    file: 'the inbox (peek, as a snapshot does)',
    path: (team: ReturnType<typeof tempTeam>) => team.paths.inbox('alice'),
    read: (team: ReturnType<typeof tempTeam>) => team.mailbox.peek('alice'),
    what: /The inbox "alice"/,
    cap: Number.POSITIVE_INFINITY, // streamed, never read whole
  },
  {
    file: 'the inbox (consumer poll)',
    path: (team: ReturnType<typeof tempTeam>) => team.paths.inbox('alice'),
    read: (team: ReturnType<typeof tempTeam>) => team.consumer('alice').poll(),
    what: /The inbox "alice"/,
    cap: Number.POSITIVE_INFINITY,
  },
  {
    file: 'a consumer lock',
    path: (team: ReturnType<typeof tempTeam>) => team.paths.consumerLock('alice'),
    read: (team: ReturnType<typeof tempTeam>) =>
      acquireFileLock(team.paths.consumerLock('alice'), 'test', () => 'busy', 'inbox-busy'),
    what: /The lock file/,
    cap: FILE_CAPS.cursor,
  },
]

describe('every file the runtime reads is refused unless it is a regular file', () => {
  for (const entry of FILES)
    for (const kind of HOSTILE_KINDS) {
      if (kind === 'huge' && !Number.isFinite(entry.cap)) continue
      it(`${entry.file} as a ${kind}: a clear refusal, no hang, no crash`, async () => {
        const team = tempTeam()
        const path = entry.path(team)
        await makeHostileEntry(kind, path, { hugeBytes: entry.cap + 1 })
        const error = await refusal(() => entry.read(team))
        expect(error.message).toMatch(entry.what)
        expect(error.message).toContain(path)
        expect(error.message).toMatch(REFUSAL[kind])
        // What to do is said, too.
        expect(error.message).toMatch(/Move it aside|move it aside|Fix it/)
      })
    }

  it('an unreadable file is refused by name: EACCES is mapped (root reads any file, so the errno is given)', () => {
    // Tests run as root here, where chmod 000 does not stop a read: the mapping is checked on
    // the errno itself, and the readers all go through the one function that uses it.
    expect(openFailure('EACCES', new Error('EACCES'))).toBe('cannot be read: permission denied')
    expect(openFailure('ELOOP', new Error('ELOOP'))).toMatch(/symbolic link/)
  })

  it('an unreadable file (where permissions bind) is refused with "permission denied"', async (context) => {
    if (process.getuid?.() === 0) {
      context.skip('running as root, which reads a chmod 000 file; covered by the errno test above')
    }
    const team = tempTeam()
    writeFileSync(team.paths.config, '{}', { mode: 0o000 })
    const error = await refusal(() => Roster.read(team.paths))
    expect(error.message).toMatch(/permission denied/)
  })

  it('a sender appending to an inbox that is a FIFO is refused, not blocked', async () => {
    const team = tempTeam()
    await makeHostileEntry('fifo', team.paths.inbox('alice'))
    const error = await refusal(() => appendOnceSync(team.paths.inbox('alice'), 'x\n'))
    expect(error.message).toMatch(REFUSAL.fifo)
    await refusal(() => team.mailbox.send({ from: 'bob', to: 'alice', content: 'hi' }))
  })

  it("an agent's transcript that is a FIFO is refused when the agent opens it", async () => {
    const team = tempTeam()
    await makeHostileEntry('fifo', team.paths.transcript('alice'))
    const error = await refusal(() =>
      TranscriptStore.open(team.paths.transcript('alice'), systemClock),
    )
    expect(error.message).toMatch(REFUSAL.fifo)
  })

  it('a regular file is read as it is', () => {
    const dir = mkdtempSync(join(tmpdir(), 'safe-open-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    writeFileSync(join(dir, 'a'), 'hello')
    expect(readRegularFileSync(join(dir, 'a'), { what: 'A', maxBytes: 5 })?.toString()).toBe(
      'hello',
    )
    expect(readRegularFileSync(join(dir, 'missing'), { what: 'A', maxBytes: 5 })).toBeNull()
  })
})

describe('the CLI on a config.json that is not a file', () => {
  for (const kind of ['folder', 'fifo'] as const)
    it(`roster with config.json as a ${kind}: the refusal and exit 1, no stack, no hang`, async () => {
      const team = tempTeam()
      await makeHostileEntry(kind, team.paths.config)
      const result = await within(() => cli(['roster', '--workspace', team.dir]))
      expect(result.code).toBe(1)
      expect(result.stderr).toMatch(REFUSAL[kind])
      expect(result.stderr).toContain(team.paths.config)
      expect(result.stderr).not.toMatch(/\n\s+at /)
    })
})
