import * as fs from 'node:fs'
import { basename, dirname } from 'node:path'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { Roster } from '../../../src/runtime/roster/roster'
import { appendRaw, tempTeam, tempWorkspace } from '../../helpers/workspace'

// Every file-system call the runtime makes is recorded (and still made), in order.
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof fs>()
  const wrapped: Record<string, unknown> = { ...actual }
  for (const name of [
    'openSync',
    'writeSync',
    'fsyncSync',
    'closeSync',
    'renameSync',
    'linkSync',
  ] as const)
    wrapped[name] = vi.fn(actual[name])
  return { ...wrapped, default: wrapped }
})

type Call = [name: string, args: unknown[], result: unknown]

function calls(): Call[] {
  const all: { name: string; args: unknown[]; result: unknown; order: number }[] = []
  for (const name of [
    'openSync',
    'writeSync',
    'fsyncSync',
    'closeSync',
    'renameSync',
    'linkSync',
  ] as const) {
    const mock = vi.mocked(fs[name] as (...args: unknown[]) => unknown)
    mock.mock.calls.forEach((args, index) =>
      all.push({
        name,
        args,
        result: mock.mock.results[index]?.value,
        order: mock.mock.invocationCallOrder[index] ?? 0,
      }),
    )
  }
  return all.sort((a, b) => a.order - b.order).map((call) => [call.name, call.args, call.result])
}

beforeEach(() => vi.clearAllMocks())

describe('config.json is replaced atomically', () => {
  it('temp file beside it, written, fsynced, closed, renamed over it, then the folder fsynced', () => {
    const { paths } = tempWorkspace()
    const roster = Roster.open(paths)
    vi.clearAllMocks()
    roster.update((draft) => void (draft.team_name = 'renamed'))
    const log = calls()
    const open = log.findIndex(([name, args]) => name === 'openSync' && args[1] === 'wx')
    expect(open).toBeGreaterThanOrEqual(0)
    const temp = log[open]![1][0] as string
    const fd = log[open]![2]
    expect(dirname(temp)).toBe(paths.root)
    expect(basename(temp)).toMatch(
      new RegExp(`^\\.config\\.json\\.${process.pid}\\.[0-9a-f]+\\.tmp$`),
    )
    // From the temp file's open on: the roster's read just before may have had the same fd.
    const index = (predicate: (call: Call, at: number) => boolean) =>
      log.findIndex((call, at) => at >= open && predicate(call, at))
    const write = index(([name, args]) => name === 'writeSync' && args[0] === fd)
    const fsync = index(([name, args]) => name === 'fsyncSync' && args[0] === fd)
    const close = index(([name, args]) => name === 'closeSync' && args[0] === fd)
    const rename = index(
      ([name, args]) => name === 'renameSync' && args[0] === temp && args[1] === paths.config,
    )
    const openFolder = index(([name, args]) => name === 'openSync' && args[0] === paths.root)
    const folderFd = log[openFolder]?.[2]
    const fsyncFolder = index(
      ([name, args], at) => name === 'fsyncSync' && args[0] === folderFd && at > openFolder,
    )
    expect(
      [open, write, fsync, close, rename, openFolder, fsyncFolder].every((at) => at >= 0),
    ).toBe(true)
    expect(
      open < write &&
        write < fsync &&
        fsync < close &&
        close < rename &&
        rename < openFolder &&
        openFolder < fsyncFolder,
    ).toBe(true)
    expect(fs.existsSync(temp)).toBe(false)
    expect(JSON.parse(fs.readFileSync(paths.config, 'utf8'))).toMatchObject({
      team_name: 'renamed',
    })
  })
})

describe('a send is one complete line in one append', () => {
  it('opens the inbox for appending and writes the whole line in one write(2)', () => {
    const team = tempTeam()
    vi.clearAllMocks()
    team.mailbox.send({
      from: 'lead',
      to: 'alice',
      content: 'x'.repeat(100_000),
      extra: { k: 'v' },
    })
    const log = calls()
    const opens = log.filter(
      ([name, args]) => name === 'openSync' && args[0] === team.paths.inbox('alice'),
    )
    expect(opens).toHaveLength(1)
    // O_APPEND (and O_NOFOLLOW|O_NONBLOCK, so that a FIFO or symlink there is refused).
    expect((opens[0]![1][1] as number) & fs.constants.O_APPEND).toBe(fs.constants.O_APPEND)
    expect((opens[0]![1][1] as number) & fs.constants.O_NOFOLLOW).toBe(fs.constants.O_NOFOLLOW)
    const fd = opens[0]![2]
    const writes = log.filter(([name, args]) => name === 'writeSync' && args[0] === fd)
    expect(writes).toHaveLength(1)
    const data = writes[0]![1][1] as Uint8Array
    expect(Buffer.from(data).toString()).toBe(fs.readFileSync(team.paths.inbox('alice'), 'utf8'))
    expect(Buffer.from(data).toString().endsWith('\n')).toBe(true)
    expect(log.some(([name]) => name === 'renameSync')).toBe(false)
  })
})

describe('a commit', () => {
  it('appends the rejections durably before it moves the cursor, and moves the cursor atomically', async () => {
    const team = tempTeam()
    appendRaw(team.paths, 'alice', 'not json\n')
    team.mailbox.send({ from: 'lead', to: 'alice', content: 'ok' })
    const consumer = team.consumer('alice')
    const batch = await consumer.poll()
    vi.clearAllMocks()
    consumer.commit(batch)
    const log = calls()
    const openRejected = log.findIndex(
      ([name, args]) => name === 'openSync' && args[0] === team.paths.rejected('alice'),
    )
    const rejectedFd = log[openRejected]?.[2]
    const fsyncRejected = log.findIndex(
      ([name, args]) => name === 'fsyncSync' && args[0] === rejectedFd,
    )
    const renameCursor = log.findIndex(
      ([name, args]) => name === 'renameSync' && args[1] === team.paths.cursor('alice'),
    )
    expect(openRejected).toBeGreaterThanOrEqual(0)
    expect(fsyncRejected).toBeGreaterThan(openRejected)
    expect(renameCursor).toBeGreaterThan(fsyncRejected)
    // The inbox file itself is never opened for writing by the consumer.
    expect(
      log.some(([name, args]) => name === 'openSync' && args[0] === team.paths.inbox('alice')),
    ).toBe(false)
  })
})
