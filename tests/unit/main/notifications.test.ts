import { describe, expect, it } from 'vitest'
import {
  badgeCount,
  emptyAttention,
  observe,
  quitQuestion,
  workingAgents,
  type AttentionState,
  type DesktopNotification,
} from '../../../src/main/notifications'
import type { HostEvent } from '../../../src/shared/contract'
import type { MemberStatus, StatusCause } from '../../../src/shared/roster'
import { agentView, planRequest, snapshot } from '../renderer/fake-api'

const status = (
  name: string,
  previous: MemberStatus,
  next: MemberStatus,
  reason = 'because',
  cause: StatusCause | null = null,
): HostEvent => ({
  type: 'agent-status-changed',
  name,
  previous,
  status: next,
  reason,
  cause,
  error_code: null,
})

/** Folds a sequence, as the shell does, and collects every notification raised. */
function run(events: readonly HostEvent[], focused: (index: number) => boolean = () => false) {
  let state: AttentionState = emptyAttention
  const shown: DesktopNotification[] = []
  events.forEach((event, index) => {
    const observed = observe(state, event, { focused: focused(index) })
    state = observed.state
    shown.push(...observed.notifications)
  })
  return { state, shown, titles: shown.map((notification) => notification.title) }
}

const open: HostEvent = {
  type: 'workspace-opened',
  snapshot: snapshot({ members: [agentView('alice'), agentView('bob')] }),
}

describe('desktop notifications', () => {
  it('an agent that needs the person: paused on a budget, an error, a stall', () => {
    const { titles, shown } = run([
      open,
      status('alice', 'working', 'waiting', 'the team budget of 10000 tokens is spent', 'budget'),
      status('bob', 'working', 'error', 'HTTP 529: overloaded'),
      status('lead', 'working', 'stalled', 'no data for 60 s'),
    ])
    expect(titles).toEqual([
      'alice is paused and needs you',
      'bob stopped on an error',
      'lead stalled: its model went silent',
    ])
    expect(shown[0]).toEqual({
      title: 'alice is paused and needs you',
      body: 'the team budget of 10000 tokens is spent',
      agent: 'alice',
    })
    expect(shown[1]?.body).toBe('HTTP 529: overloaded')
  })

  it('a retry wait goes on by itself: no notification, no badge', () => {
    const { titles, state } = run([open, status('alice', 'working', 'waiting', 'retrying in 4 s')])
    expect(titles).toEqual([])
    expect(badgeCount(state)).toBe(0)
  })

  it('a plan to approve, once per request; settled plans leave the badge', () => {
    const plan = planRequest({ id: 'p1', from: 'alice', plan: 'Add a median' })
    const { titles, shown, state } = run([
      open,
      { type: 'protocol-changed', request: plan },
      { type: 'protocol-changed', request: plan },
      { type: 'protocol-changed', request: planRequest({ id: 'p2', from: 'bob' }) },
      { type: 'protocol-changed', request: { ...plan, status: 'approved' } },
    ])
    expect(titles).toEqual(['alice asks you to approve a plan', 'bob asks you to approve a plan'])
    expect(shown[0]).toMatchObject({ body: 'Add a median', agent: 'alice' })
    expect(badgeCount(state)).toBe(1)
  })

  it('a shutdown request is not the person’s to answer', () => {
    const shutdown = planRequest({ id: 's1', kind: 'shutdown', plan: null })
    expect(run([open, { type: 'protocol-changed', request: shutdown }]).titles).toEqual([])
  })

  it('the lead finishing a reply', () => {
    const { shown } = run([
      open,
      status('lead', 'idle', 'working'),
      status('lead', 'working', 'idle'),
    ])
    expect(shown).toEqual([
      { title: 'The lead replied', body: 'Its answer is in the chat.', agent: 'lead' },
    ])
    // A teammate finishing is not news for the person.
    expect(run([open, status('alice', 'working', 'idle')]).titles).toEqual([])
  })

  it('not while the window is focused, and the state is kept all the same', () => {
    const { titles, state } = run(
      [open, status('bob', 'working', 'error', 'boom'), status('bob', 'error', 'error', 'boom')],
      () => true,
    )
    expect(titles).toEqual([])
    expect(badgeCount(state)).toBe(1)
  })

  it('not repeated for the same state; again after it was settled and came back', () => {
    const { titles } = run([
      open,
      status('bob', 'working', 'error', 'boom'),
      status('bob', 'error', 'error', 'boom again'),
      status('bob', 'error', 'working', 'resumed'),
      status('bob', 'working', 'error', 'boom'),
    ])
    expect(titles).toEqual(['bob stopped on an error', 'bob stopped on an error'])
  })

  it('an error seen while focused is not announced later when the window loses focus', () => {
    const { titles } = run(
      [open, status('bob', 'working', 'error', 'boom'), status('bob', 'error', 'error', 'boom')],
      (index) => index === 1,
    )
    expect(titles).toEqual([])
  })
})

describe('the badge and quitting', () => {
  it('counts what waits in a freshly opened team, without notifying it', () => {
    const { titles, state } = run([
      {
        type: 'workspace-opened',
        snapshot: snapshot({
          members: [
            agentView('alice', { status: 'error', statusReason: 'boom' }),
            agentView('bob', {
              status: 'waiting',
              statusReason: 'the budget is used up',
              statusCause: 'budget',
            }),
            agentView('carol', { status: 'working', running: true }),
          ],
          requests: [planRequest({ id: 'p1' }), planRequest({ id: 'p0', status: 'approved' })],
        }),
      },
    ])
    expect(titles).toEqual([])
    expect(badgeCount(state)).toBe(3)
    expect(workingAgents(state)).toEqual(['carol'])
  })

  it('closing the folder clears the badge', () => {
    const { state } = run([open, status('bob', 'working', 'error'), { type: 'workspace-closed' }])
    expect(badgeCount(state)).toBe(0)
  })

  it('asks before quitting only while agents work', () => {
    const calm = run([open]).state
    expect(quitQuestion([calm])).toBeNull()
    const one = run([open, status('alice', 'idle', 'working')]).state
    expect(quitQuestion([one])?.message).toBe('alice is still working. Quit anyway?')
    expect(quitQuestion([calm, one], 'close')?.message).toBe(
      'alice is still working. Close the window anyway?',
    )
    const two = run([open, status('alice', 'idle', 'working'), status('lead', 'idle', 'working')])
    expect(quitQuestion([two.state])?.message).toBe('2 agents are still working. Quit anyway?')
    // Two windows, one agent at work in each: both count.
    expect(quitQuestion([one, one])?.message).toBe('2 agents are still working. Quit anyway?')
    const done = run([open, status('alice', 'idle', 'working'), status('alice', 'working', 'idle')])
    expect(quitQuestion([done.state])).toBeNull()
  })
})

describe('Needs-you entries', () => {
  it('a tool approval or a question notifies once and counts in the badge until answered', () => {
    const entry = {
      id: 'ny-1',
      agent: 'alice',
      kind: 'tool' as const,
      summary: 'bash: npm test',
      detail: 'npm test',
      status: 'pending' as const,
      created_at: 1,
      settled_at: null,
      answer: null,
      tool: 'bash',
      tool_use_id: 'tu_1',
      pattern: 'npm test',
      request_id: null,
    }
    let observed = observe(emptyAttention, { type: 'needs-you-changed', entry }, { focused: false })
    expect(observed.notifications).toEqual([
      { title: 'alice asks to run bash', body: 'bash: npm test', agent: 'alice' },
    ])
    expect(badgeCount(observed.state)).toBe(1)
    observed = observe(observed.state, { type: 'needs-you-changed', entry }, { focused: false })
    expect(observed.notifications).toEqual([])
    observed = observe(
      observed.state,
      { type: 'needs-you-changed', entry: { ...entry, status: 'approved' } },
      { focused: false },
    )
    expect(badgeCount(observed.state)).toBe(0)
  })

  it("a reaction's escalation (a stall entry) notifies once and counts until settled", () => {
    const entry = {
      id: 'ny-2',
      agent: 'bob',
      kind: 'stall' as const,
      summary: 'bob has not moved since a nudge',
      detail: 'bob is idle with task #3 (Parser) in progress, and has not moved it.',
      status: 'pending' as const,
      created_at: 1,
      settled_at: null,
      answer: null,
      tool: null,
      tool_use_id: null,
      pattern: null,
      request_id: null,
    }
    let observed = observe(emptyAttention, { type: 'needs-you-changed', entry }, { focused: false })
    expect(observed.notifications).toEqual([
      { title: 'bob has not moved since a nudge', body: entry.detail, agent: 'bob' },
    ])
    expect(badgeCount(observed.state)).toBe(1)
    observed = observe(
      observed.state,
      { type: 'needs-you-changed', entry: { ...entry, status: 'resolved' } },
      { focused: false },
    )
    expect(badgeCount(observed.state)).toBe(0)

    // A stream stall is counted and told by its status: its mirrored entry adds nothing.
    const stalled = run([status('bob', 'working', 'stalled')])
    const mirrored = observe(
      stalled.state,
      { type: 'needs-you-changed', entry },
      { focused: false },
    )
    expect(mirrored.notifications).toEqual([])
    expect(badgeCount(mirrored.state)).toBe(1)
  })
})
