import { describe, expect, it } from 'vitest'
import { text, type Script } from '../../../../src/offline-model/script'
import { TeamError } from '../../../../src/shared/errors'
import type { ScheduleInput } from '../../../../src/shared/schedules'
import type { FakeClock } from '../../../helpers/fake-clock'
import { waitFor } from '../../../helpers/wait'
import { startHost } from '../../../helpers/host'
import { events, runLines, scheduledHost, startClock, workspaceWith } from './schedule-helpers'

const MINUTE = 60_000
const HOUR = 60 * MINUTE

/** The lead answers only when the test lets it: a run works for as long as the test says. */
function gatedLead(): { script: Script; calls: () => number; release: () => void } {
  const gates: (() => void)[] = []
  let calls = 0
  return {
    script: (_request, context) => {
      if (context.agent !== 'lead') return text('ok')
      calls += 1
      return new Promise((resolve) => gates.push(() => resolve(text('done'))))
    },
    calls: () => calls,
    release: () => gates.shift()?.(),
  }
}

/** Never two runs at once: every `started` is ended before the next one. */
function assertOneAtATime(workspace: string): void {
  let open = 0
  for (const line of runLines(workspace)) {
    if (line.event === 'started') open += 1
    if (line.event === 'finished' || line.event === 'capped') open -= 1
    expect(open).toBeLessThanOrEqual(1)
  }
}

const everyMinute = (overlap: 'wait' | 'skip'): ScheduleInput => ({
  name: 'poll',
  when: { type: 'every', seconds: 60 },
  prompt: 'Look again.',
  tokens: 1_000_000,
  overlap,
})

async function advanceAndSettle(clock: FakeClock, milliseconds: number): Promise<void> {
  clock.advance(milliseconds)
  // The run's start waits a microtask (its template step); let it happen.
  await new Promise((resolve) => setImmediate(resolve))
}

describe('overlap', () => {
  it('wait: a schedule due while its run works waits once, then starts when it finishes', async () => {
    const clock = startClock()
    const workspace = workspaceWith(clock, [everyMinute('wait')])
    const lead = gatedLead()
    const { host } = await scheduledHost(lead.script, clock, workspace)

    await advanceAndSettle(clock, MINUTE)
    await waitFor(() => lead.calls() === 1)
    await advanceAndSettle(clock, MINUTE)
    await advanceAndSettle(clock, MINUTE)
    await advanceAndSettle(clock, MINUTE)
    // Due three more times while it worked: it waits, once.
    expect(events(workspace)).toEqual(['poll:started', 'poll:waiting'])
    expect(host.schedules?.listing().schedules[0]?.state).toBe('running')

    lead.release()
    await waitFor(
      () => lead.calls() === 2,
      () => events(workspace).join(),
    )
    expect(events(workspace)).toEqual([
      'poll:started',
      'poll:waiting',
      'poll:finished',
      'poll:started',
    ])
    lead.release()
    await waitFor(() => events(workspace).length === 5)
    expect(events(workspace).at(-1)).toBe('poll:finished')
    assertOneAtATime(workspace)
  })

  it('skip: a schedule due while its run works is skipped each time, never started twice', async () => {
    const clock = startClock()
    const workspace = workspaceWith(clock, [everyMinute('skip')])
    const lead = gatedLead()
    await scheduledHost(lead.script, clock, workspace)

    await advanceAndSettle(clock, MINUTE)
    await waitFor(() => lead.calls() === 1)
    await advanceAndSettle(clock, MINUTE)
    await advanceAndSettle(clock, MINUTE)
    expect(events(workspace)).toEqual(['poll:started', 'poll:skipped', 'poll:skipped'])
    expect(runLines(workspace)[1]?.summary).toMatch(/the run of poll was still working: skipped/)
    lead.release()
    await waitFor(() => events(workspace).includes('poll:finished'))
    expect(lead.calls()).toBe(1)
    assertOneAtATime(workspace)
  })

  it('run now while a run works follows the same policy', async () => {
    const clock = startClock()
    const workspace = workspaceWith(clock, [
      { ...everyMinute('wait'), when: { type: 'every', seconds: 3600 } },
      { ...everyMinute('skip'), name: 'other', when: { type: 'every', seconds: 3600 } },
    ])
    const lead = gatedLead()
    const { host } = await scheduledHost(lead.script, clock, workspace)
    expect(host.runScheduleNow('poll')).toBe('started')
    await waitFor(() => lead.calls() === 1)
    expect(host.runScheduleNow('poll')).toBe('waiting')
    expect(host.runScheduleNow('other')).toBe('skipped')
    expect(() => host.runScheduleNow('nobody')).toThrow(/There is no schedule "nobody"/)
    lead.release()
    await waitFor(() => lead.calls() === 2)
    lead.release()
    await waitFor(() => events(workspace).filter((line) => line.endsWith(':finished')).length === 2)
    assertOneAtATime(workspace)
  })
})

describe('runs missed while no team ran', () => {
  const missedTen = (missed: 'run-once' | 'skip', clock: FakeClock): string =>
    workspaceWith(clock, [
      {
        name: 'hourly',
        when: { type: 'every', seconds: 3600 },
        prompt: 'Hourly check.',
        tokens: 1_000_000,
        missed,
        // Made 10.5 hours ago: ten due times passed, the last half an hour ago.
        createdAt: clock.now() - 10.5 * HOUR,
      },
    ])

  it('run-once: one catch-up run at the start, however many were missed, and not again after a restart', async () => {
    const clock = startClock()
    const workspace = missedTen('run-once', clock)
    const target = await scheduledHost(() => text('checked'), clock, workspace)
    await waitFor(() => events(workspace).includes('hourly:finished'))
    expect(events(workspace)).toEqual(['hourly:started', 'hourly:finished'])
    expect(runLines(workspace)[0]?.summary).toMatch(/catching up 10 runs missed while no team ran/)
    expect(target.records('lead', 'user')).toHaveLength(1)

    const again = await target.restart()
    await advanceAndSettle(clock, 29 * MINUTE)
    expect(events(workspace)).toEqual(['hourly:started', 'hourly:finished'])
    // The next due time (on the grid, half an hour after the start) runs as usual.
    await advanceAndSettle(clock, MINUTE)
    await waitFor(() => events(workspace).length === 4)
    expect(runLines(workspace)[2]?.summary).not.toMatch(/catching up/)
    expect(again.records('lead', 'user')).toHaveLength(2)
  })

  it('skip: missed runs are skipped with one line, and the next due time runs', async () => {
    const clock = startClock()
    const workspace = missedTen('skip', clock)
    const { records } = await scheduledHost(() => text('checked'), clock, workspace)
    expect(events(workspace)).toEqual(['hourly:skipped'])
    expect(runLines(workspace)[0]?.summary).toMatch(/10 runs missed while no team ran: skipped/)
    expect(records('lead', 'user')).toEqual([])
    await advanceAndSettle(clock, 30 * MINUTE)
    await waitFor(() => events(workspace).includes('hourly:finished'))
    expect(events(workspace)).toEqual(['hourly:skipped', 'hourly:started', 'hourly:finished'])
  })

  it('a disabled schedule owes nothing for the time it was off', async () => {
    const clock = startClock()
    const workspace = workspaceWith(clock, [
      { ...everyMinute('wait'), enabled: false, createdAt: clock.now() - 10.5 * HOUR },
    ])
    const { host } = await scheduledHost(() => text('ok'), clock, workspace)
    await advanceAndSettle(clock, 10 * MINUTE)
    expect(events(workspace)).toEqual([])
    expect(host.schedules?.listing().schedules[0]?.next_run).toBeNull()
  })
})

describe('who runs schedules', () => {
  it('an untrusted workspace’s schedules never fire until the person trusts it', async () => {
    const clock = startClock()
    const workspace = workspaceWith(clock, [
      { name: 'cloned', when: { type: 'in', seconds: 60 }, prompt: 'Spend.', tokens: 1_000_000 },
    ])
    const { host, records } = await scheduledHost(() => text('ok'), clock, workspace, {
      trust: { store: null },
    })
    expect(host.trust.isTrusted()).toBe(false)
    expect(host.trust.view().grants.schedules).toEqual([
      expect.objectContaining({
        key: 'schedule:cloned',
        prompt: 'Spend.',
        cap: '1,000,000 tokens',
      }),
    ])
    await advanceAndSettle(clock, 90_000)
    expect(events(workspace)).toEqual([])
    expect(records('lead', 'user')).toEqual([])
    expect(() => host.runScheduleNow('cloned')).toThrow(TeamError)
    expect(host.schedules?.listing().trusted).toBe(false)

    host.answerTrust(true)
    await waitFor(
      () => events(workspace).includes('cloned:finished'),
      () => `${events(workspace).join()} ${JSON.stringify(runLines(workspace))}`,
    )
    expect(records('lead', 'user').map((record) => record.text)).toEqual(['Spend.'])
  })

  it('a host opened without schedule options (chat, team apply) runs none', async () => {
    const clock = startClock()
    const workspace = workspaceWith(clock, [
      { name: 'soon', when: { type: 'in', seconds: 1 }, prompt: 'Go.', tokens: 1000 },
    ])
    clock.advance(10_000)
    const { host, records } = await startHost(() => text('ok'), { workspace, clock })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(host.schedules).toBeNull()
    expect(events(workspace)).toEqual([])
    expect(records('lead', 'user')).toEqual([])
    expect(() => host.runScheduleNow('soon')).toThrow(/Schedules run in the window/)
  })
})
