import { DEFAULT_REACTIONS } from '../../../src/shared/reactions'
import { describe, expect, it } from 'vitest'
import { hostEventSchema, type HostEvent } from '../../../src/shared/contract'
import type { TranscriptRecord } from '../../../src/shared/transcript'
import { reduceEvent, reduceEvents } from '../../../src/renderer/store/reducer'
import { inboxPageLoaded, transcriptTailLoaded } from '../../../src/renderer/store/pages'
import {
  leadPlanCards,
  planAnswered,
  reviewDismissed,
  shutdownAsked,
} from '../../../src/renderer/store/protocols'
import {
  initialTeamData,
  type ProtocolRequest,
  type TeamData,
} from '../../../src/renderer/store/state'
import { agentView, inboxEntry, planRequest, settingsView, snapshot, trustView } from './fake-api'

type EventOf<T extends HostEvent['type']> = Extract<HostEvent, { type: T }>

const team = snapshot({
  lead: agentView('lead'),
  members: [
    agentView('alice', { role: 'coder', pending: 1 }),
    agentView('bob', { role: 'tester', status: 'working', running: true }),
  ],
})

function opened(): TeamData {
  return reduceEvents(
    {
      ...initialTeamData,
      info: { version: '1', workspace: null, mode: 'browser', offline: false },
    },
    [{ type: 'workspace-opened', snapshot: team }],
  )
}

function withTranscript(state: TeamData, name: string, records: TranscriptRecord[] = []): TeamData {
  return transcriptTailLoaded(state, name, { records, total: records.length })
}

const assistant = (
  seq: number,
  content: Extract<TranscriptRecord, { kind: 'assistant' }>['content'],
): TranscriptRecord => ({
  v: 1,
  seq,
  at: 1000 + seq,
  kind: 'assistant',
  message_id: `msg${seq}`,
  model: 'm',
  content,
  stop_reason: 'end_turn',
  usage: { input_tokens: 1, output_tokens: 1 },
})

/** One example of every event type: the compiler refuses this table when a type is missing. */
const examples: { [T in HostEvent['type']]: EventOf<T> } = {
  'workspace-opened': { type: 'workspace-opened', snapshot: snapshot({ teamName: 'other' }) },
  'settings-changed': { type: 'settings-changed', settings: settingsView({ model: 'new-model' }) },
  'mcp-changed': {
    type: 'mcp-changed',
    state: { servers: [], problems: ['.mcp.json is not valid JSON'] },
  },
  'trust-changed': {
    type: 'trust-changed',
    trust: trustView({ trusted: false, reason: 'no-record' }),
  },
  'agent-status-changed': {
    type: 'agent-status-changed',
    name: 'alice',
    previous: 'idle',
    status: 'working',
    reason: 'activated',
    cause: null,
    error_code: null,
  },
  'roster-changed': {
    type: 'roster-changed',
    team_name: 'stats',
    members: [{ name: 'alice', role: 'coder', status: 'idle' }],
  },
  'roster-invalid': {
    type: 'roster-invalid',
    message: 'Unexpected token',
    file: '/w/.team/config.json',
    line: 3,
    column: 7,
  },
  'inbox-changed': { type: 'inbox-changed', name: 'alice', change: 'appended', pending: 2 },
  'budget-changed': {
    type: 'budget-changed',
    name: 'alice',
    budget: { tokens: 5000, rounds: null, usd: 2 },
  },
  'message-sent': {
    type: 'message-sent',
    message: {
      id: 'n1',
      type: 'message',
      from: 'user',
      to: 'alice',
      content: 'hi',
      timestamp: 1,
      extra: {},
    },
  },
  'message-rejected': {
    type: 'message-rejected',
    inbox: 'alice',
    position: { segment: 1, offset: 10 },
    reason: 'not JSON',
  },
  'message-delivered': { type: 'message-delivered', agent: 'alice', ids: ['m0'] },
  'text-delta': { type: 'text-delta', agent: 'bob', text: 'Hel' },
  'tool-call-started': { type: 'tool-call-started', agent: 'bob', id: 't1', name: 'bash' },
  'tool-input-delta': { type: 'tool-input-delta', agent: 'bob', id: 't1', partial_json: '{"comm' },
  'tool-call-finished': {
    type: 'tool-call-finished',
    agent: 'bob',
    id: 't1',
    name: 'bash',
    content: 'ok',
    is_error: false,
  },
  'transcript-appended': {
    type: 'transcript-appended',
    agent: 'bob',
    record: assistant(1, [{ type: 'text', text: 'Hello' }]),
  },
  'usage-reported': {
    type: 'usage-reported',
    agent: 'bob',
    model: 'claude-haiku-4-5',
    usage: { input_tokens: 5, output_tokens: 2 },
    total: { input_tokens: 50, output_tokens: 20 },
  },
  'agent-error': { type: 'agent-error', agent: 'bob', code: 'http-529', message: 'Overloaded' },
  'stream-reset': { type: 'stream-reset', agent: 'bob', reason: 'retrying' },
  'team-alert': { type: 'team-alert', code: 'auth', message: 'The endpoint refused the API key' },
  'team-alert-cleared': { type: 'team-alert-cleared', code: 'auth' },
  'protocol-changed': {
    type: 'protocol-changed',
    request: {
      id: 'r1',
      kind: 'shutdown',
      from: 'lead',
      to: 'bob',
      status: 'pending',
      plan: null,
      reason: null,
    },
  },
  'tasks-changed': {
    type: 'tasks-changed',
    board: {
      tasks: [
        {
          v: 1,
          id: '1',
          subject: 'Write the parser',
          description: '',
          status: 'pending',
          owner: null,
          blocked_by: [],
          created_by: 'lead',
          created_at: 1,
          updated_at: 1,
          links: [],
          result: null,
          notes: [],
        },
      ],
      problems: [],
    },
  },
  'task-auto-claimed': {
    type: 'task-auto-claimed',
    agent: 'bob',
    task: '1',
    subject: 'Write the parser',
  },
  'needs-you-changed': {
    type: 'needs-you-changed',
    entry: {
      id: 'ny-1',
      agent: 'alice',
      kind: 'tool',
      summary: 'bash: ls',
      detail: 'ls',
      status: 'pending',
      created_at: 1,
      settled_at: null,
      answer: null,
      tool: 'bash',
      tool_use_id: 'tu_1',
      pattern: 'ls',
      request_id: null,
    },
  },
  'workspace-closed': { type: 'workspace-closed' },
  'branches-changed': { type: 'branches-changed' },
  'reactions-changed': {
    type: 'reactions-changed',
    reactions: {
      config: DEFAULT_REACTIONS,
      problem: null,
      trusted: true,
      counts: { check: 1, nudge: 0, escalate: 0, conflict: 0, fold: 0 },
      unreadable_lines: 0,
      checks: [],
    },
  },
  'menu-command': { type: 'menu-command', command: { kind: 'toggle-roster' } },
  'desktop-notice': {
    type: 'desktop-notice',
    tone: 'warning',
    title: 'Link not opened',
    message: 'file:///etc/passwd is not a web link',
  },
}

describe('reduceEvents', () => {
  it.each(Object.values(examples))(
    'folds $type purely (the input state is never changed)',
    (event) => {
      expect(hostEventSchema.safeParse(event).success).toBe(true)
      const state = opened()
      const frozen = JSON.stringify(state)
      reduceEvent(state, event)
      expect(JSON.stringify(state)).toBe(frozen)
    },
  )

  it('branches-changed bumps the version the branch lines ask again on, once an event', () => {
    const state = opened()
    const moved = reduceEvents(state, [{ type: 'branches-changed' }, { type: 'branches-changed' }])
    expect(moved.branchesVersion).toBe(state.branchesVersion + 2)
  })

  it('applies a whole batch at once, in order', () => {
    const next = reduceEvents(opened(), [
      { type: 'text-delta', agent: 'bob', text: 'Hel' },
      { type: 'text-delta', agent: 'bob', text: 'lo' },
      { type: 'text-delta', agent: 'bob', text: '!' },
    ])
    expect(next.live['bob']?.text).toBe('Hello!')
  })

  it('workspace-opened replaces the team and forgets what belonged to the old one', () => {
    let state = withTranscript(opened(), 'alice', [])
    state = reduceEvent(state, { type: 'text-delta', agent: 'alice', text: 'x' })
    const next = reduceEvent(state, {
      type: 'workspace-opened',
      snapshot: snapshot({ workspace: '/other', teamName: 'other', members: [agentView('zed')] }),
    })
    expect(next.workspace).toBe('/other')
    expect(next.info?.workspace).toBe('/other')
    expect(next.teamName).toBe('other')
    expect(next.order).toEqual(['lead', 'zed'])
    expect(next.transcripts).toEqual({})
    expect(next.live).toEqual({})
  })

  it('workspace-opened shows an error status with its reason as the failure', () => {
    const next = reduceEvent(initialTeamData, {
      type: 'workspace-opened',
      snapshot: snapshot({
        members: [agentView('carol', { status: 'error', statusReason: 'HTTP 401' })],
      }),
    })
    expect(next.agents['carol']?.failure).toEqual({ code: 'error', message: 'HTTP 401' })
  })

  it('workspace-closed forgets the team but keeps the settings and banners', () => {
    const withNotice = reduceEvent(opened(), examples['desktop-notice'])
    const closed = reduceEvent(withNotice, examples['workspace-closed'])
    expect(closed.workspace).toBeNull()
    expect(closed.order).toEqual([])
    expect(closed.agents).toEqual({})
    expect(closed.settings).toBe(withNotice.settings)
    expect(closed.notices.map((notice) => notice.title)).toEqual(['Link not opened'])
  })

  it('settings-changed replaces the settings', () => {
    expect(reduceEvent(opened(), examples['settings-changed']).settings?.model).toBe('new-model')
  })

  it('agent-status-changed sets status, reason and running; working clears a failure', () => {
    let state = reduceEvent(opened(), {
      type: 'agent-error',
      agent: 'alice',
      code: 'http-500',
      message: 'boom',
    })
    state = reduceEvent(state, {
      type: 'agent-status-changed',
      name: 'alice',
      previous: 'idle',
      status: 'error',
      reason: 'boom',
      cause: null,
      error_code: null,
    })
    expect(state.agents['alice']).toMatchObject({
      status: 'error',
      statusReason: 'boom',
      failure: { code: 'http-500' },
    })
    state = reduceEvent(state, examples['agent-status-changed'])
    expect(state.agents['alice']).toMatchObject({
      status: 'working',
      running: true,
      statusReason: 'activated',
      failure: null,
    })
  })

  it('agent-status-changed away from working retires what streamed but was never recorded', () => {
    let state = reduceEvents(opened(), [
      { type: 'text-delta', agent: 'bob', text: 'half a thought' },
      { type: 'tool-call-started', agent: 'bob', id: 't9', name: 'bash' },
    ])
    state = reduceEvent(state, {
      type: 'agent-status-changed',
      name: 'bob',
      previous: 'working',
      status: 'idle',
      reason: 'stopped',
      cause: null,
      error_code: null,
    })
    expect(state.live['bob']).toEqual({ text: '', lastText: 'half a thought', tools: [] })
  })

  it('agent-status-changed for an unknown agent changes nothing', () => {
    const state = opened()
    const next = reduceEvent(state, {
      type: 'agent-status-changed',
      name: 'ghost',
      previous: 'idle',
      status: 'working',
      reason: 'x',
      cause: null,
      error_code: null,
    })
    expect(next.agents).toBe(state.agents)
  })

  it('roster-changed adds, updates and removes members and keeps what events told us', () => {
    let state = reduceEvent(opened(), examples['usage-reported'])
    state = reduceEvent(state, {
      type: 'roster-changed',
      team_name: 'renamed',
      members: [
        { name: 'bob', role: 'reviewer', status: 'idle' },
        { name: 'dave', role: 'docs', status: 'working', model: 'claude-x' },
      ],
    })
    expect(state.order).toEqual(['lead', 'bob', 'dave'])
    expect(state.teamName).toBe('renamed')
    expect(state.agents['alice']).toBeUndefined()
    expect(state.agents['bob']).toMatchObject({
      role: 'reviewer',
      status: 'idle',
      usage: { input_tokens: 50 },
    })
    expect(state.agents['dave']).toMatchObject({
      role: 'docs',
      status: 'working',
      running: true,
      model: 'claude-x',
      pending: 0,
    })
  })

  it('roster-changed keeps the objects of members it did not change', () => {
    const members = [
      { name: 'alice', role: 'coder', status: 'idle' as const },
      { name: 'bob', role: 'tester', status: 'working' as const },
    ]
    const state = reduceEvent(opened(), { type: 'roster-changed', team_name: 'team', members })
    const same = reduceEvent(state, { type: 'roster-changed', team_name: 'team', members })
    expect(same.agents).toBe(state.agents)
    expect(same.order).toBe(state.order)

    const grown = reduceEvent(same, {
      type: 'roster-changed',
      team_name: 'team',
      members: [...members.slice(0, 1), { ...members[1]!, status: 'idle' }],
    })
    expect(grown.agents['alice']).toBe(state.agents['alice'])
    expect(grown.agents['bob']).not.toBe(state.agents['bob'])
    expect(grown.agents['bob']?.status).toBe('idle')
  })

  it('roster-invalid shows where the file is broken; roster-changed clears it', () => {
    let state = reduceEvent(opened(), examples['roster-invalid'])
    expect(state.rosterProblem).toEqual({
      message: 'Unexpected token',
      file: '/w/.team/config.json',
      line: 3,
      column: 7,
    })
    state = reduceEvent(state, examples['roster-changed'])
    expect(state.rosterProblem).toBeNull()
  })

  it('inbox-changed marks a loaded inbox stale and leaves unloaded ones alone', () => {
    const state = inboxPageLoaded(opened(), 'alice', null, { entries: [], next: null })
    const next = reduceEvent(state, examples['inbox-changed'])
    expect(next.inboxes['alice']?.stale).toBe(true)
    expect(reduceEvent(opened(), examples['inbox-changed']).inboxes).toEqual({})
  })

  it('inbox-changed sets the unread count it carries, whatever the count was', () => {
    const next = reduceEvent(opened(), examples['inbox-changed'])
    expect(next.agents['alice']?.pending).toBe(2)
    const consumed = reduceEvent(next, {
      type: 'inbox-changed',
      name: 'alice',
      change: 'consumed',
      pending: 0,
    })
    expect(consumed.agents['alice']?.pending).toBe(0)
    // The same count again changes nothing: the roster row does not render again.
    expect(reduceEvent(consumed, { ...examples['inbox-changed'], pending: 0 }).agents).toBe(
      consumed.agents,
    )
  })

  it('message-sent and message-delivered leave the count to the inbox-changed after them', () => {
    const sent = reduceEvent(opened(), examples['message-sent'])
    expect(sent.agents['alice']?.pending).toBe(1)
    expect(reduceEvent(opened(), examples['message-delivered']).agents['alice']?.pending).toBe(1)
  })

  it('budget-changed sets the budget it carries, the team’s when its name is null', () => {
    const next = reduceEvent(opened(), examples['budget-changed'])
    expect(next.agents['alice']?.budget).toEqual({ tokens: 5000, rounds: null, usd: 2 })
    const team = reduceEvent(next, {
      type: 'budget-changed',
      name: null,
      budget: { tokens: null, rounds: 40, usd: null },
    })
    expect(team.teamBudget).toEqual({ tokens: null, rounds: 40, usd: null })
  })

  it('message-delivered marks the entries delivered', () => {
    const state = inboxPageLoaded(opened(), 'alice', null, {
      entries: [inboxEntry(0), inboxEntry(10, { id: 'm10' })],
      next: null,
    })
    const next = reduceEvent(state, examples['message-delivered'])
    expect(next.inboxes['alice']?.entries.map((entry) => entry.state)).toEqual([
      'delivered',
      'pending',
    ])
    expect(next.inboxes['alice']?.stale).toBe(false)
  })

  it('message-delivered for a line not shown yet marks the inbox to be read again', () => {
    // The read that brings the line may have started before the delivery: it says pending.
    const state = inboxPageLoaded(opened(), 'alice', null, {
      entries: [inboxEntry(0)],
      next: null,
    })
    const next = reduceEvent(state, { type: 'message-delivered', agent: 'alice', ids: ['m1'] })
    expect(next.inboxes['alice']?.stale).toBe(true)
  })

  it('message-rejected marks the line rejected with its reason and raises an error banner', () => {
    const state = inboxPageLoaded(opened(), 'alice', null, {
      entries: [inboxEntry(0), inboxEntry(10)],
      next: null,
    })
    const next = reduceEvent(state, examples['message-rejected'])
    expect(next.inboxes['alice']?.entries[1]).toMatchObject({
      state: 'rejected',
      reason: 'not JSON',
    })
    expect(next.inboxes['alice']?.entries[0]?.state).toBe('pending')
    expect(next.notices).toEqual([
      {
        id: 1,
        tone: 'error',
        title: "A line in alice's inbox was rejected",
        message: 'not JSON',
        group: 'rejected:alice',
        count: 1,
      },
    ])
  })

  it('groups rejected lines per inbox into one notice with a count', () => {
    const rejected = (inbox: string, offset: number, reason: string) => ({
      type: 'message-rejected' as const,
      inbox,
      position: { segment: 1, offset },
      reason,
    })
    const next = reduceEvents(opened(), [
      rejected('alice', 0, 'not JSON'),
      rejected('bob', 0, 'no sender'),
      rejected('alice', 10, 'too large'),
      rejected('alice', 20, 'bad type'),
    ])
    expect(next.notices.map(({ title, message, count }) => ({ title, message, count }))).toEqual([
      { title: "A line in bob's inbox was rejected", message: 'no sender', count: 1 },
      {
        title: "3 lines in alice's inbox were rejected",
        message: 'The last one: bad type',
        count: 3,
      },
    ])
  })

  it('text-delta appends to the agent’s streaming text', () => {
    const next = reduceEvents(opened(), [
      examples['text-delta'],
      { type: 'text-delta', agent: 'bob', text: 'lo' },
    ])
    expect(next.live['bob']?.text).toBe('Hello')
  })

  it('tool-call-started, tool-input-delta and tool-call-finished build a live tool card', () => {
    let state = reduceEvents(opened(), [
      examples['tool-call-started'],
      examples['tool-input-delta'],
      { type: 'tool-input-delta', agent: 'bob', id: 't1', partial_json: 'and": "ls"}' },
    ])
    expect(state.live['bob']?.tools).toEqual([
      {
        id: 't1',
        name: 'bash',
        input: '{"command": "ls"}',
        phase: 'input',
        output: null,
        isError: false,
      },
    ])
    state = reduceEvent(state, {
      ...examples['tool-call-finished'],
      content: 'No such file',
      is_error: true,
    })
    expect(state.live['bob']?.tools[0]).toMatchObject({
      phase: 'finished',
      output: 'No such file',
      isError: true,
    })
  })

  it('tool-call-finished for a call it never saw start still shows it', () => {
    const next = reduceEvent(opened(), examples['tool-call-finished'])
    expect(next.live['bob']?.tools[0]).toMatchObject({ id: 't1', phase: 'finished', output: 'ok' })
  })

  it('keeps only the latest finished tool calls live', () => {
    const events: HostEvent[] = []
    for (let index = 0; index < 20; index++) {
      events.push({ type: 'tool-call-started', agent: 'bob', id: `t${index}`, name: 'bash' })
      events.push({
        type: 'tool-call-finished',
        agent: 'bob',
        id: `t${index}`,
        name: 'bash',
        content: '',
        is_error: false,
      })
    }
    const tools = reduceEvents(opened(), events).live['bob']?.tools ?? []
    expect(tools.length).toBeLessThanOrEqual(6)
    expect(tools[tools.length - 1]?.id).toBe('t19')
  })

  it('transcript-appended adds the record to a loaded transcript and replaces the live stream', () => {
    let state = withTranscript(opened(), 'bob', [])
    state = reduceEvents(state, [
      { type: 'text-delta', agent: 'bob', text: 'Hello' },
      { type: 'tool-call-started', agent: 'bob', id: 't1', name: 'bash' },
      { type: 'tool-input-delta', agent: 'bob', id: 't1', partial_json: '{"command":"ls"}' },
      {
        type: 'transcript-appended',
        agent: 'bob',
        record: assistant(1, [
          { type: 'text', text: 'Hello' },
          { type: 'tool_use', id: 't1', name: 'bash', input: { command: 'ls' } },
        ]),
      },
    ])
    expect(state.transcripts['bob']?.records.map((record) => record.seq)).toEqual([1])
    expect(state.transcripts['bob']?.total).toBe(1)
    expect(state.live['bob']).toMatchObject({ text: '', lastText: 'Hello' })
    expect(state.live['bob']?.tools[0]).toMatchObject({ id: 't1', phase: 'running' })
    state = reduceEvent(state, {
      type: 'transcript-appended',
      agent: 'bob',
      record: {
        v: 1,
        seq: 2,
        at: 2,
        kind: 'tool-result',
        tool_use_id: 't1',
        name: 'bash',
        content: 'a.txt',
        is_error: false,
      },
    })
    expect(state.live['bob']?.tools[0]).toMatchObject({ phase: 'finished', output: 'a.txt' })
  })

  it('transcript-appended ignores a record it already has, and unloaded transcripts', () => {
    const record = assistant(1, [{ type: 'text', text: 'x' }])
    const state = withTranscript(opened(), 'bob', [record])
    const next = reduceEvent(state, { type: 'transcript-appended', agent: 'bob', record })
    expect(next.transcripts['bob']?.records).toHaveLength(1)
    expect(
      reduceEvent(opened(), { type: 'transcript-appended', agent: 'bob', record }).transcripts,
    ).toEqual({})
  })

  it('usage-reported shows the agent’s running total', () => {
    expect(reduceEvent(opened(), examples['usage-reported']).agents['bob']?.usage).toEqual({
      input_tokens: 50,
      output_tokens: 20,
    })
  })

  it('agent-error puts the error on the agent', () => {
    const next = reduceEvent(opened(), examples['agent-error'])
    expect(next.agents['bob']).toMatchObject({
      failure: { code: 'http-529', message: 'Overloaded' },
      statusReason: 'Overloaded',
    })
  })

  it('stream-reset throws away the streamed text and live tool cards of the partial turn', () => {
    let state = reduceEvents(opened(), [
      { type: 'text-delta', agent: 'bob', text: 'partial' },
      examples['tool-call-started'],
      examples['tool-input-delta'],
      { type: 'text-delta', agent: 'alice', text: 'alice keeps hers' },
    ])
    state = reduceEvent(state, examples['stream-reset'])
    expect(state.live['bob']).toMatchObject({ text: '', tools: [] })
    expect(state.live['alice']?.text).toBe('alice keeps hers')
    expect(reduceEvent(opened(), examples['stream-reset']).live).toEqual({})
  })

  it('stream-reset keeps the calls of recorded turns that are still running', () => {
    let state = withTranscript(opened(), 'bob', [])
    state = reduceEvents(state, [
      {
        type: 'transcript-appended',
        agent: 'bob',
        record: assistant(1, [{ type: 'tool_use', id: 'kept', name: 'bash', input: {} }]),
      },
      { type: 'text-delta', agent: 'bob', text: 'the next turn, half streamed' },
      { type: 'tool-call-started', agent: 'bob', id: 'void', name: 'bash' },
      examples['stream-reset'],
    ])
    expect(state.live['bob']?.text).toBe('')
    expect(state.live['bob']?.tools.map((tool) => tool.id)).toEqual(['kept'])
  })

  it('team-alert is one alert for the team, the latest winning, until team-alert-cleared', () => {
    let state = reduceEvents(opened(), [
      examples['team-alert'],
      { ...examples['team-alert'], message: 'again' },
    ])
    expect(state.alert).toEqual({ code: 'auth', message: 'again' })
    state = reduceEvent(state, { type: 'team-alert-cleared', code: 'other' })
    expect(state.alert).toEqual({ code: 'auth', message: 'again' })
    state = reduceEvent(state, examples['team-alert-cleared'])
    expect(state.alert).toBeNull()
  })

  it('workspace-opened takes the alert, requests, budgets and offline flag of the snapshot', () => {
    const next = reduceEvent(opened(), {
      type: 'workspace-opened',
      snapshot: snapshot({
        alert: { code: 'auth', message: 'HTTP 401: invalid x-api-key' },
        requests: [planRequest()],
        teamBudget: { tokens: 100_000, rounds: null, usd: null },
        offline: true,
        members: [
          agentView('alice', { rounds: 3, budget: { tokens: 9000, rounds: 10, usd: null } }),
        ],
      }),
    })
    expect(next.alert).toEqual({ code: 'auth', message: 'HTTP 401: invalid x-api-key' })
    expect(next.protocols['plan-1']).toMatchObject({ kind: 'plan', status: 'pending' })
    expect(next.teamBudget).toEqual({ tokens: 100_000, rounds: null, usd: null })
    expect(next.offline).toBe(true)
    expect(next.info?.offline).toBe(true)
    expect(next.agents['alice']).toMatchObject({
      rounds: 3,
      budget: { tokens: 9000, rounds: 10, usd: null },
    })
  })

  it('usage-reported counts a round: one report per model call', () => {
    const next = reduceEvents(opened(), [examples['usage-reported'], examples['usage-reported']])
    expect(next.agents['bob']?.rounds).toBe(2)
  })

  it('protocol-changed keeps each handshake by request id, latest state winning', () => {
    let state = reduceEvent(opened(), examples['protocol-changed'])
    state = reduceEvent(state, {
      type: 'protocol-changed',
      request: { ...examples['protocol-changed'].request, status: 'approved' },
    })
    expect(Object.values(state.protocols)).toEqual([
      expect.objectContaining({ id: 'r1', status: 'approved' }),
    ])
  })

  it('protocol-changed settles a shutdown the person asked for and says how it was answered', () => {
    let state = shutdownAsked(opened(), 'r2', 'bob')
    expect(state.protocols['r2']).toMatchObject({ kind: 'shutdown', to: 'bob', status: 'pending' })
    const request = { ...(state.protocols['r2'] as ProtocolRequest) }
    state = reduceEvent(state, { type: 'protocol-changed', request })
    expect(state.notices).toEqual([])
    const answered = {
      type: 'protocol-changed' as const,
      request: { ...request, status: 'rejected' as const, reason: 'tests still running' },
    }
    state = reduceEvents(state, [answered, answered])
    expect(state.protocols['r2']).toMatchObject({
      status: 'rejected',
      reason: 'tests still running',
    })
    expect(state.notices).toEqual([
      {
        id: 1,
        tone: 'warning',
        title: 'bob declined to shut down',
        message: 'tests still running',
        count: 1,
      },
    ])
  })

  it('a shutdown the person asked for does not undo an answer that came first', () => {
    const settled = reduceEvent(opened(), {
      type: 'protocol-changed',
      request: { ...examples['protocol-changed'].request, id: 'r3', status: 'approved' },
    })
    expect(shutdownAsked(settled, 'r3', 'bob').protocols['r3']?.status).toBe('approved')
  })

  it('protocol-changed settles a plan the person answered; the answer stays until dismissed', () => {
    let state = reduceEvent(opened(), {
      type: 'protocol-changed',
      request: planRequest(),
    })
    expect(leadPlanCards(state).map((request) => request.id)).toEqual(['plan-1'])
    state = planAnswered(state, 'plan-1', false)
    expect(state.sentReviews).toEqual({ 'plan-1': { approve: false } })
    state = reduceEvent(state, {
      type: 'protocol-changed',
      request: planRequest({ status: 'rejected', reason: 'test the median first' }),
    })
    expect(leadPlanCards(state)).toEqual([
      expect.objectContaining({ id: 'plan-1', status: 'rejected' }),
    ])
    expect(planAnswered(state, 'plan-1', true)).toBe(state)
    expect(leadPlanCards(reviewDismissed(state, 'plan-1'))).toEqual([])
  })

  it('the examples cover every event type of the contract', () => {
    const schemaTypes = hostEventSchema.options.flatMap((option) =>
      'options' in option
        ? option.options.map((inner) => inner.shape.type.value)
        : [option.shape.type.value],
    )
    expect(Object.keys(examples).sort()).toEqual([...schemaTypes].sort())
  })
})
