// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Timeline } from '../../../../src/shared/timeline'
import { agentView, fakeApi, snapshot, taskOf } from '../fake-api'
import { failOnConsoleErrors, renderApp } from '../render-app'
import { entry, message } from './entries'

failOnConsoleErrors()

beforeAll(() => {
  // jsdom has no 2D canvas (it says so on the console): the lanes are drawn in the browser
  // specs; here the view's controls, list, replay and digest are checked.
  HTMLCanvasElement.prototype.getContext = () => null
})

const T = 1_700_000_000
const task = (status: 'pending' | 'in_progress' | 'done', owner: string | null) => ({
  id: '1',
  subject: 'Write the parser',
  status,
  owner,
})
const timeline: Timeline = {
  entries: [
    entry('e1', T, 'lead', { kind: 'status', status: 'working', summary: 'lead is working' }),
    entry('e2', T + 1, 'lead', {
      kind: 'task',
      task: task('pending', null),
      summary: 'task #1 made',
      source: { type: 'task', id: '1' },
    }),
    message('e3', T + 2, 'lead', 'alice', 'delivered', T + 3),
    entry('e4', T + 3, 'alice', { kind: 'status', status: 'working', summary: 'alice is working' }),
    entry('e5', T + 4, 'alice', {
      kind: 'task',
      task: task('in_progress', 'alice'),
      summary: 'alice claimed #1',
      source: { type: 'task', id: '1' },
    }),
    entry('e6', T + 5, 'alice', {
      kind: 'tool',
      end: T + 6,
      summary: 'bash: npm test (exit 1)',
      failed: true,
      source: { type: 'transcript', agent: 'alice', seq: 7 },
    }),
    entry('e7', T + 8, 'alice', {
      kind: 'task',
      task: task('done', 'alice'),
      summary: 'alice finished #1',
      source: { type: 'task', id: '1' },
    }),
    entry('e8', T + 9, 'alice', { kind: 'status', status: 'idle', summary: 'alice is idle' }),
  ],
  agents: ['lead', 'alice'],
  span: { start: T, end: T + 9 },
  truncated: false,
  problems: [],
}
const team = snapshot({
  members: [agentView('alice')],
  tasks: { tasks: [taskOf('1', { subject: 'Write the parser', status: 'done' })], problems: [] },
})

async function openTimeline(options: Parameters<typeof fakeApi>[0] = {}) {
  const api = fakeApi({ snapshot: team, timeline, ...options })
  await renderApp(api)
  fireEvent.click(screen.getByRole('tab', { name: 'Timeline' }))
  await screen.findByTestId('timeline-canvas')
  return api
}

const rows = () => within(screen.getByTestId('timeline-table')).getAllByTestId('timeline-row')

describe('the Timeline view', () => {
  it('shows a lane per agent, the lead first, and lists the entries in view', async () => {
    await openTimeline()
    const lanes = within(screen.getByRole('list', { name: 'Lanes' })).getAllByRole('listitem')
    expect(lanes.map((lane) => lane.textContent)).toEqual(['Lead', 'alice'])
    expect(rows()).toHaveLength(8)
    expect(screen.getByTestId('timeline-count')).toHaveTextContent('8 of 8 entries')
    // The failed tool call says so in words, not only in colour.
    expect(rows()[5]).toHaveTextContent('Tool calls (failed)')
  })

  it('filters by agent and by kind', async () => {
    await openTimeline()
    fireEvent.click(screen.getByRole('button', { name: 'alice', pressed: true }))
    expect(screen.queryByTestId('timeline-lane-alice')).toBeNull()
    expect(rows()).toHaveLength(3)
    fireEvent.click(screen.getByRole('button', { name: 'alice', pressed: false }))
    fireEvent.click(screen.getByRole('button', { name: /^Status changes/ }))
    expect(rows()).toHaveLength(5)
    expect(screen.getByTestId('timeline-count')).toHaveTextContent('5 of 8 entries')
  })

  it('opens the transcript at the record, and the board at the task', async () => {
    const api = await openTimeline()
    fireEvent.click(screen.getByRole('button', { name: 'bash: npm test (exit 1)' }))
    await waitFor(() =>
      expect(screen.getByRole('tab', { name: 'Transcript' })).toHaveAttribute(
        'aria-selected',
        'true',
      ),
    )
    expect(screen.getByRole('heading', { name: 'alice' })).toBeInTheDocument()
    // The transcript is read back to the record the entry is.
    await waitFor(() =>
      expect(api.getTranscript).toHaveBeenCalledWith(expect.objectContaining({ name: 'alice' })),
    )

    fireEvent.click(screen.getByRole('tab', { name: 'Timeline' }))
    fireEvent.click(await screen.findByRole('button', { name: 'alice finished #1' }))
    expect(await screen.findByRole('dialog', { name: /Write the parser/ })).toBeInTheDocument()
  })

  it('reads the timeline again after events that mean new records', async () => {
    const api = await openTimeline()
    expect(api.getTimeline).toHaveBeenCalledTimes(1)
    act(() =>
      api.emit([{ type: 'tasks-changed', board: team.tasks ?? { tasks: [], problems: [] } }]),
    )
    await waitFor(() => expect(api.getTimeline).toHaveBeenCalledTimes(2), { timeout: 3000 })
  })

  it('replays the roster and the board as they were at the moment scrubbed to', async () => {
    await openTimeline()
    fireEvent.click(screen.getByRole('button', { name: 'Replay' }))
    const replay = await screen.findByTestId('replay')
    expect(within(replay).getByText('Replay of the past')).toBeInTheDocument()
    const scrubber = within(replay).getByRole('slider', { name: 'Moment of the replay' })
    const member = (name: string) => within(replay).getByTestId(`replay-member-${name}`)

    fireEvent.change(scrubber, { target: { value: String(Math.round((4.5 / 9) * 1000)) } })
    expect(member('alice')).toHaveTextContent('Working')
    expect(within(replay).getByTestId('replay-column-in_progress')).toHaveTextContent(
      'Write the parser',
    )
    expect(within(replay).getByTestId('replay-column-done')).not.toHaveTextContent(
      'Write the parser',
    )

    fireEvent.change(scrubber, { target: { value: '1000' } })
    expect(member('alice')).toHaveTextContent('Idle')
    expect(within(replay).getByTestId('replay-column-done')).toHaveTextContent('Write the parser')

    // Backwards: before alice had any status, and before the task existed.
    fireEvent.change(scrubber, { target: { value: '0' } })
    expect(member('alice')).toHaveTextContent('not started')
    expect(within(replay).queryByText('Write the parser')).toBeNull()

    fireEvent.click(within(replay).getByRole('button', { name: 'Exit replay' }))
    expect(screen.queryByTestId('replay')).toBeNull()
  })
})

describe('While you were away', () => {
  const digest = {
    since: T - 3600,
    until: T + 9,
    finished: [{ agent: 'alice', summary: 'finished #1 Write the parser', entryId: 'e7' }],
    failed: [{ agent: 'alice', summary: 'bash: npm test (exit 1)', entryId: 'e6' }],
    waiting: [{ agent: 'alice', summary: 'bash: rm -rf build', id: 'ny-1' }],
    usd: 0.42,
    tokens: 12_345,
    counts: { tool: 1, task: 3 },
  }

  it('shows what happened when the team opens, and marks it seen when dismissed', async () => {
    const api = fakeApi({ snapshot: team, timeline, awayDigest: digest })
    await renderApp(api)
    const panel = await screen.findByTestId('away-digest')
    expect(within(panel).getByTestId('away-digest-finished')).toHaveTextContent(
      'finished #1 Write the parser',
    )
    expect(within(panel).getByTestId('away-digest-failed')).toHaveTextContent('npm test (exit 1)')
    expect(within(panel).getByTestId('away-digest-cost')).toHaveTextContent('$0.42')
    fireEvent.click(within(panel).getByRole('button', { name: 'Dismiss' }))
    expect(screen.queryByTestId('away-digest')).toBeNull()
    await waitFor(() => expect(api.markTimelineSeen).toHaveBeenCalledWith({ at: T + 9 }))
  })

  it('stays closed when the person looked a moment ago, and notes a first look', async () => {
    const api = fakeApi({ snapshot: team, timeline, awayDigest: { ...digest, since: T } })
    await renderApp(api)
    await waitFor(() => expect(api.markTimelineSeen).toHaveBeenCalled())
    expect(api.getAwayDigest).toHaveBeenCalledTimes(1)
    expect(screen.queryByTestId('away-digest')).toBeNull()
  })

  it('says nothing when nothing happened, and is reachable from the Timeline view', async () => {
    const api = await openTimeline()
    expect(screen.queryByTestId('away-digest')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'While you were away' }))
    expect(await screen.findByTestId('away-digest')).toHaveTextContent('Nothing.')
    expect(api.getAwayDigest).toHaveBeenCalledTimes(2)
  })

  it('links what waits on the person into Needs you', async () => {
    const api = fakeApi({ snapshot: team, timeline, awayDigest: digest })
    await renderApp(api)
    const panel = await screen.findByTestId('away-digest')
    fireEvent.click(within(panel).getByRole('button', { name: /bash: rm -rf build/ }))
    expect(screen.getByRole('tab', { name: /^Needs you/ })).toHaveAttribute('aria-selected', 'true')
  })
})
