import { EventEmitter } from 'node:events'
import { describe, expect, it, vi } from 'vitest'
import type { NewTranscriptRecord } from '../../../../src/shared/transcript'
import { TranscriptStore } from '../../../../src/runtime/agents/transcript-store'
import { queueScript, text } from '../../../../src/offline-model/script'
import { installProcessGuard } from '../../../../src/runtime/system/process-guard'
import { startHost } from '../../../helpers/host'
import { waitFor } from '../../../helpers/wait'

const holdsPoison = (record: NewTranscriptRecord): boolean =>
  record.kind === 'inbox' && record.messages.some((message) => message.content === 'poison')

describe('a bug inside one agent', () => {
  it('ends that agent in error with the reason; the others go on; the mail it held waits', async () => {
    const script = queueScript({
      alice: [text('Waiting.'), text('Got the poison at last.')],
      bob: [text('Waiting.'), text('Did the work.')],
    })
    const team = await startHost(script)
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Wait.' })
    await team.host.spawn({ name: 'bob', role: 'tester', prompt: 'Wait.' })
    await team.host.whenIdle()

    // A fault while recording a batch (as JSON.stringify of a 6,000-deep extra once was).
    const append = TranscriptStore.prototype.append
    const spy = vi.spyOn(TranscriptStore.prototype, 'append').mockImplementation(function (
      this: TranscriptStore,
      record,
    ) {
      if (holdsPoison(record)) throw new RangeError('Maximum call stack size exceeded')
      return append.call(this, record)
    })
    team.host.send({ to: 'alice', content: 'poison' })
    team.host.send({ to: 'bob', content: 'work' })
    await waitFor(
      () =>
        team.host.roster().members.find((member) => member.name === 'alice')?.status === 'error',
      () => `alice in error; events ${JSON.stringify(team.events.slice(-5))}`,
    )
    await team.host.whenIdle()
    expect(team.events).toContainEqual({
      type: 'agent-error',
      agent: 'alice',
      code: 'internal',
      message: 'internal error: Maximum call stack size exceeded',
    })
    const bobInbox = team.records('bob', 'inbox').flatMap((record) => record.messages)
    expect(bobInbox.map((message) => message.content)).toEqual(['work'])
    expect(team.host.roster().members.find((member) => member.name === 'bob')?.status).toBe('idle')
    const pending = await team.host.inbox('alice', { pendingOnly: true })
    expect(pending.entries.map((entry) => entry.message?.content)).toEqual(['poison'])

    // The fault fixed, a resume delivers the message that waited.
    spy.mockRestore()
    team.host.resume('alice')
    await waitFor(
      () =>
        team.records('alice', 'inbox').some((record) => record.messages[0]?.content === 'poison'),
      () => 'the poison message delivered after the resume',
    )
    await team.host.whenIdle()
    script.assertConsumed()
  })
})

describe('the process guard', () => {
  it('reports uncaught exceptions and unhandled rejections instead of letting them end the process', () => {
    const target = new EventEmitter()
    const faults: unknown[] = []
    const guard = installProcessGuard(
      (fault) => faults.push(fault),
      target as unknown as NodeJS.Process,
    )
    target.emit('uncaughtException', new TypeError('boom'))
    target.emit('unhandledRejection', 'just a string')
    expect(faults).toEqual([
      {
        origin: 'uncaughtException',
        message: 'boom',
        detail: expect.stringContaining('TypeError: boom'),
      },
      { origin: 'unhandledRejection', message: 'just a string', detail: 'just a string' },
    ])
    guard.dispose()
    expect(target.listenerCount('uncaughtException')).toBe(0)
    expect(target.listenerCount('unhandledRejection')).toBe(0)
  })

  it('survives a report that throws', () => {
    const target = new EventEmitter()
    installProcessGuard(
      () => {
        throw new Error('the log is gone')
      },
      target as unknown as NodeJS.Process,
    )
    expect(() => target.emit('uncaughtException', new Error('x'))).not.toThrow()
  })
})
