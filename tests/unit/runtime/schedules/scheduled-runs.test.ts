import { describe, expect, it } from 'vitest'
import { text, toolCall, type Script } from '../../../../src/offline-model/script'
import { waitFor } from '../../../helpers/wait'
import {
  CODER_TEMPLATE,
  events,
  runLines,
  scheduledHost,
  startClock,
  workspaceWith,
} from './schedule-helpers'

/** The lead calls a harmless tool forever, 4,100 tokens a call: only a cap ends it. */
function endlessLead(counts: { lead: number }): Script {
  return (_request, context) => {
    if (context.agent === 'lead') {
      counts.lead += 1
      return {
        ...toolCall('list_teammates', {}),
        usage: { input_tokens: 4000, output_tokens: 100 },
      }
    }
    return text('ok')
  }
}

describe('a scheduled run', () => {
  it('fires when due, sends its prompt to the lead, and stops the team at its cap', async () => {
    const clock = startClock()
    const workspace = workspaceWith(clock, [
      {
        name: 'nightly',
        when: { type: 'in', seconds: 300 },
        prompt: 'Check the build and report.',
        tokens: 10_000,
      },
    ])
    const counts = { lead: 0 }
    const { host, records } = await scheduledHost(endlessLead(counts), clock, workspace)

    clock.advance(299_000)
    expect(events(workspace)).toEqual([])
    expect(records('lead', 'user')).toEqual([])

    clock.advance(1000)
    await waitFor(
      () => events(workspace).includes('nightly:capped'),
      () => events(workspace).join(),
    )
    await host.whenIdle()

    // The prompt went to the lead as the person's own message.
    expect(records('lead', 'user').map((record) => [record.from, record.text])).toEqual([
      ['user', 'Check the build and report.'],
    ])
    // 4,100 tokens a call: the cap of 10,000 is reached at the third call, and the team stops.
    expect(counts.lead).toBe(3)
    const [started, capped] = runLines(workspace)
    expect(started).toMatchObject({
      event: 'started',
      schedule: 'nightly',
      due: clock.now() / 1000,
    })
    expect(capped).toMatchObject({ event: 'capped', run: started?.id, tokens: 12_300 })
    expect(capped?.summary).toMatch(/12,300 tokens, reaching its cap of 10,000/)
    expect(runLines(workspace)).toHaveLength(2)
    // Needs-you says so, for the lead.
    const entry = host.needsYou.pending().find((candidate) => candidate.kind === 'schedule')
    expect(entry).toMatchObject({ agent: 'lead', status: 'pending' })
    expect(entry?.summary).toMatch(/nightly reached its cap \(10,000 tokens\)/)
    expect(host.team.leadStatus).toBe('idle')
    // Dismissed by the person, it is settled and nothing resumes.
    host.answerNeedsYou({ id: entry?.id ?? '', decision: 'deny' })
    expect(host.needsYou.pending().filter((candidate) => candidate.kind === 'schedule')).toEqual([])
    expect(counts.lead).toBe(3)
    // A one-off schedule has no next run; its last one shows the cap.
    const listing = host.schedules?.listing()
    expect(listing?.schedules[0]).toMatchObject({ next_run: null, state: 'idle' })
    expect(listing?.schedules[0]?.last_run?.event).toBe('capped')
  })

  it('a dollar cap stops a run on a model with no price, unless a token cap bounds it', async () => {
    const clock = startClock()
    const workspace = workspaceWith(clock, [
      { name: 'priced', when: { type: 'in', seconds: 60 }, prompt: 'Go.', usd: 1 },
    ])
    const counts = { lead: 0 }
    await scheduledHost(endlessLead(counts), clock, workspace)
    clock.advance(60_000)
    await waitFor(() => events(workspace).includes('priced:capped'))
    expect(runLines(workspace)[1]?.summary).toMatch(
      /cannot be enforced: no price is known for offline-test/,
    )
    expect(counts.lead).toBe(1)
  })

  it('finishes when the lead and every teammate are idle, after its template made the team', async () => {
    const clock = startClock()
    const workspace = workspaceWith(clock, [
      {
        name: 'weekly',
        when: { type: 'in', seconds: 60 },
        prompt: 'Plan the week.',
        template: CODER_TEMPLATE.name,
        // The offline model has no price: a dollar cap would stop the run at its first call.
        tokens: 1_000_000,
      },
    ])
    const { host, records } = await scheduledHost(
      (_request, context) => text(context.agent === 'alice' ? 'Parser written.' : 'Planned.'),
      clock,
      workspace,
    )
    expect(host.team.roster.members).toEqual([])
    clock.advance(60_000)
    await waitFor(
      () => events(workspace).includes('weekly:finished'),
      () => events(workspace).join(),
    )
    expect(events(workspace)).toEqual(['weekly:started', 'weekly:finished'])
    expect(host.team.roster.members.map((member) => member.name)).toEqual(['alice'])
    expect(records('alice', 'user')[0]?.text).toContain('Write the parser.')
    expect(records('lead', 'user').map((record) => record.text)).toEqual(['Plan the week.'])
    const [started, finished] = runLines(workspace)
    expect(started?.summary).toMatch(/applied the template one-coder/)
    expect(finished).toMatchObject({ run: started?.id })
    expect(finished?.tokens).toBeGreaterThan(0)
  })

  it('on a team that has members already, goes on without the template and says so', async () => {
    const clock = startClock()
    const workspace = workspaceWith(clock, [
      {
        name: 'weekly',
        when: { type: 'in', seconds: 60 },
        prompt: 'Go on.',
        template: 'one-coder',
        tokens: 1_000_000,
      },
    ])
    const { host } = await scheduledHost(() => text('fine'), clock, workspace)
    await host.spawn({ name: 'bob', role: 'tester', prompt: 'Wait.', planFirst: false, by: 'user' })
    await host.whenIdle()
    clock.advance(60_000)
    await waitFor(() => events(workspace).includes('weekly:finished'))
    expect(runLines(workspace)[0]?.summary).toMatch(
      /has members, so the template one-coder was not applied/,
    )
    expect(host.team.roster.members.map((member) => member.name)).toEqual(['bob'])
  })

  it('a template that is gone is a run that could not start, said in the log', async () => {
    const clock = startClock()
    const workspace = workspaceWith(clock, [
      { name: 'weekly', when: { type: 'in', seconds: 60 }, prompt: 'Go.', template: 'gone' },
    ])
    const { records, events: teamEvents } = await scheduledHost(
      () => text('fine'),
      clock,
      workspace,
    )
    clock.advance(60_000)
    await waitFor(() => events(workspace).includes('weekly:skipped'))
    expect(runLines(workspace)[0]?.summary).toMatch(/could not start: There is no template "gone"/)
    expect(records('lead', 'user')).toEqual([])
    expect(teamEvents).toContainEqual(
      expect.objectContaining({ type: 'agent-error', agent: 'team', code: 'schedule' }),
    )
  })
})
