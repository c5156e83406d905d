import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { acquireFileLock, removeStale, type LockRecord } from '../../../src/runtime/fs/file-lock'
import { TeamError } from '../../../src/shared/errors'
import { deadPid, runBin } from '../../helpers/processes'
import { tempTeam, tempWorkspace } from '../../helpers/workspace'

function thrown(action: () => unknown): TeamError {
  try {
    action()
  } catch (error) {
    expect(error).toBeInstanceOf(TeamError)
    return error as TeamError
  }
  throw new Error('expected a TeamError')
}

function writeLock(path: string, record: Record<string, unknown>): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(
    path,
    JSON.stringify({
      host: hostname(),
      token: 'feedfacefeedface',
      acquiredAt: 1,
      purpose: 'consume alice',
      ...record,
    }),
  )
}

describe('one consumer per inbox', () => {
  it("a second consumer in the same process gets 'inbox-busy', naming the holder", () => {
    const team = tempTeam()
    team.consumer('alice')
    const error = thrown(() => team.mailbox.openConsumer('alice'))
    expect(error.code).toBe('inbox-busy')
    expect(error.message).toMatch(/The inbox of "alice" is already being consumed by process \d+/)
    expect(error.message).toMatch(/only one consumer may read an inbox at a time/)
    expect(error.message).toContain(String(process.pid))
    expect(error.details).toEqual({ pid: process.pid })
  })

  it('consumers of different inboxes do not conflict', () => {
    const team = tempTeam()
    team.consumer('alice')
    expect(() => team.consumer('bob')).not.toThrow()
    expect(() => team.consumer('lead')).not.toThrow()
  })

  it("a consumer in another process gets 'inbox-busy' while this one holds the inbox", async () => {
    const team = tempTeam()
    team.mailbox.send({ from: 'lead', to: 'alice', content: 'mine' })
    const consumer = team.consumer('alice')
    const other = await runBin(['drain', 'alice', '--workspace', team.dir, '--json'])
    expect(other.code).toBe(1)
    expect(other.stdout).toBe('')
    const reported = JSON.parse(other.stderr) as { error: { code: string; message: string } }
    expect(reported.error.code).toBe('inbox-busy')
    expect(reported.error.message).toMatch(
      new RegExp(`already being consumed by process ${process.pid}`),
    )
    // The other process took nothing: the message is still pending here.
    expect((await consumer.poll()).deliveries.map((delivery) => delivery.message.content)).toEqual([
      'mine',
    ])
  })

  it('close() releases the lock: the lock file is gone and the inbox can be opened again', () => {
    const team = tempTeam()
    const consumer = team.mailbox.openConsumer('alice')
    expect(existsSync(team.paths.consumerLock('alice'))).toBe(true)
    const record = JSON.parse(readFileSync(team.paths.consumerLock('alice'), 'utf8')) as Record<
      string,
      unknown
    >
    expect(record).toMatchObject({ pid: process.pid, host: hostname(), purpose: 'consume alice' })
    consumer.close()
    expect(existsSync(team.paths.consumerLock('alice'))).toBe(false)
    team.consumer('alice').close()
    expect(() => team.consumer('alice')).not.toThrow()
  })

  it('a stale lock naming a dead process is taken over', async () => {
    const team = tempTeam()
    const pid = await deadPid()
    expect(pid).toBeGreaterThan(0)
    writeLock(team.paths.consumerLock('alice'), { pid })
    team.mailbox.send({ from: 'lead', to: 'alice', content: 'waiting' })
    const consumer = team.consumer('alice')
    const record = JSON.parse(readFileSync(team.paths.consumerLock('alice'), 'utf8')) as {
      pid: number
    }
    expect(record.pid).toBe(process.pid)
    expect((await consumer.poll()).deliveries).toHaveLength(1)
    // Nothing is left beside the lock: no temp file, no moved-aside stale lock.
    expect(
      readdirSync(team.paths.mailboxState('alice')).filter((file) =>
        file.startsWith('consumer.lock'),
      ),
    ).toEqual(['consumer.lock'])
  })

  it('a lock naming this very pid with a token it does not hold (left by an earlier process) is stale', () => {
    const team = tempTeam()
    writeLock(team.paths.consumerLock('alice'), { pid: process.pid, token: '0123456789abcdef' })
    expect(() => team.consumer('alice')).not.toThrow()
  })

  it('an unreadable lock file is replaced', () => {
    const team = tempTeam()
    mkdirSync(team.paths.mailboxState('alice'), { recursive: true })
    writeFileSync(team.paths.consumerLock('alice'), '{"pid": 12')
    expect(() => team.consumer('alice')).not.toThrow()
  })

  it('breaking a stale lock never removes a fresh one that took its place', async () => {
    // The race the stress test of the task board caught: a process reads the lock as gone or
    // unreadable, another takes the lock, and the first then removed it as stale: two holders.
    const team = tempTeam()
    const path = team.paths.consumerLock('alice')
    const breaker: LockRecord = {
      pid: process.pid,
      host: hostname(),
      token: 'b0b0b0b0b0b0b0b0',
      acquiredAt: 2,
      purpose: 'consume alice',
    }
    writeLock(path, { pid: process.ppid, token: 'f7e5f7e5f7e5f7e5' })
    removeStale(path, 'unreadable', breaker)
    removeStale(path, { ...breaker, pid: await deadPid(), token: '0000000000000000' }, breaker)
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ token: 'f7e5f7e5f7e5f7e5' })
    // The stale one itself is removed, and the breaker's own lock does not stay behind.
    writeLock(path, { pid: await deadPid(), token: '0000000000000000' })
    removeStale(path, { ...breaker, token: '0000000000000000' }, breaker)
    expect(existsSync(path)).toBe(false)
    expect(existsSync(`${path}.break`)).toBe(false)
  })

  it('a breaker lock left long ago, even by another host, does not block breaking a stale lock', async () => {
    const team = tempTeam()
    const path = team.paths.consumerLock('alice')
    writeLock(path, { pid: await deadPid() })
    writeLock(`${path}.break`, {
      pid: 1,
      host: `not-${hostname()}`,
      acquiredAt: Date.now() - 60_000,
    })
    expect(() => team.consumer('alice')).not.toThrow()
    expect(existsSync(`${path}.break`)).toBe(false)
  })

  it('a lock held on another host is never taken over', () => {
    const team = tempTeam()
    writeLock(team.paths.consumerLock('alice'), { pid: 1, host: `not-${hostname()}` })
    const error = thrown(() => team.mailbox.openConsumer('alice'))
    expect(error.code).toBe('inbox-busy')
    expect(error.message).toMatch(/process 1 on not-/)
  })

  it('the live holder of a lock of a running process keeps it', () => {
    const team = tempTeam()
    // pid 1 is always alive.
    writeLock(team.paths.consumerLock('alice'), { pid: 1 })
    expect(thrown(() => team.mailbox.openConsumer('alice')).code).toBe('inbox-busy')
  })
})

describe('acquireFileLock', () => {
  it('creates the folder, refuses a second holder with the given message, and releases once', () => {
    const { dir } = tempWorkspace()
    const path = join(dir, 'deep', 'er', 'x.lock')
    const busy = (holder: string) => `busy: ${holder}`
    const lock = acquireFileLock(path, 'test', busy, 'board-busy')
    expect(() => acquireFileLock(path, 'test', busy, 'board-busy')).toThrow(
      new RegExp(`^busy: process ${process.pid}$`),
    )
    // The code is the caller's: what is busy (an inbox, the board, the workspace) is its to say.
    expect(() => acquireFileLock(path, 'test', busy, 'board-busy')).toThrow(
      expect.objectContaining({ code: 'board-busy' }),
    )
    lock.release()
    lock.release()
    expect(existsSync(path)).toBe(false)
    const again = acquireFileLock(path, 'test', () => 'busy', 'inbox-busy')
    // A release of the old lock must not free the new holder's lock.
    lock.release()
    expect(existsSync(path)).toBe(true)
    again.release()
    expect(readdirSync(dirname(path))).toEqual([])
  })
})
