// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { reduceEvent } from '../../../src/renderer/store/reducer'
import { pendingEntries, titleWithCount } from '../../../src/renderer/store/needs-you'
import { initialTeamData } from '../../../src/renderer/store/state'
import { agentView, fakeApi, needsYouEntry, snapshot } from './fake-api'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()

const entries = [
  needsYouEntry({ id: 'ny-old', agent: 'alice', created_at: 100, summary: 'bash: npm test' }),
  needsYouEntry({
    id: 'ny-bob',
    agent: 'bob',
    kind: 'question',
    created_at: 200,
    summary: 'Which port?',
    detail: 'Which port?',
    tool: null,
    pattern: null,
  }),
  needsYouEntry({
    id: 'ny-new',
    agent: 'alice',
    created_at: 300,
    summary: 'bash: rm -rf build',
    detail: 'rm -rf build',
    pattern: 'rm',
  }),
  needsYouEntry({ id: 'ny-done', status: 'approved', created_at: 400 }),
]
const team = snapshot({
  members: [
    agentView('alice', { status: 'waiting-for-you', profile: 'tester', approval: 'ask' }),
    agentView('bob', { status: 'waiting-for-you' }),
  ],
  needsYou: entries,
})

const queueView = () => screen.getByTestId('needs-you')
const selected = () => within(queueView()).getByRole('option', { selected: true })

describe('the Needs-you queue', () => {
  it('orders pending entries newest first, grouped by agent', () => {
    const state = reduceEvent(initialTeamData, { type: 'workspace-opened', snapshot: team })
    expect(pendingEntries(state.needsYou).map((entry) => entry.id)).toEqual([
      'ny-new',
      'ny-old',
      'ny-bob',
    ])
    expect(titleWithCount('Agent Teams', 3)).toBe('(3) Agent Teams')
    expect(titleWithCount('Agent Teams', 0)).toBe('Agent Teams')
  })

  it('counts in the header and the title, and is triaged with the keyboard', async () => {
    document.title = 'Agent Teams'
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    expect(screen.getByTestId('needs-you-count')).toHaveTextContent('Needs you 3')
    expect(document.title).toBe('(3) Agent Teams')
    expect(screen.getByTestId('status-alice')).toHaveTextContent('Waiting for you')

    fireEvent.click(screen.getByTestId('needs-you-count'))
    expect(selected()).toHaveTextContent('bash: rm -rf build')
    expect(
      within(queueView())
        .getAllByRole('heading')
        .map((heading) => heading.textContent),
    ).toEqual(['alice', 'bob'])
    // j moves down, k back up; a approves the selected entry.
    fireEvent.keyDown(queueView(), { key: 'j' })
    expect(selected()).toHaveTextContent('bash: npm test')
    fireEvent.keyDown(queueView(), { key: 'k' })
    fireEvent.keyDown(queueView(), { key: 'j' })
    await act(async () => {
      fireEvent.keyDown(queueView(), { key: 'a' })
    })
    expect(api.answerNeedsYou).toHaveBeenCalledWith({ id: 'ny-old', decision: 'approve' })
    expect(screen.getByTestId('needs-you-count')).toHaveTextContent('Needs you 2')
    expect(document.title).toBe('(2) Agent Teams')

    // d asks for the reason, which goes with the denial.
    expect(selected()).toHaveTextContent('Which port?')
    fireEvent.keyDown(queueView(), { key: 'k' })
    expect(selected()).toHaveTextContent('rm -rf build')
    fireEvent.keyDown(queueView(), { key: 'd' })
    const reason = screen.getByRole('textbox', { name: 'Reason (the agent reads it)' })
    expect(reason).toHaveFocus()
    fireEvent.change(reason, { target: { value: 'keep the build' } })
    await act(async () => {
      fireEvent.submit(reason.closest('form') as HTMLFormElement)
    })
    expect(api.answerNeedsYou).toHaveBeenCalledWith({
      id: 'ny-new',
      decision: 'deny',
      text: 'keep the build',
    })

    // a on a question asks for the answer.
    fireEvent.keyDown(queueView(), { key: 'a' })
    const answer = screen.getByRole('textbox', { name: 'Your answer' })
    fireEvent.change(answer, { target: { value: '8080' } })
    await act(async () => {
      fireEvent.submit(answer.closest('form') as HTMLFormElement)
    })
    expect(api.answerNeedsYou).toHaveBeenLastCalledWith({
      id: 'ny-bob',
      decision: 'answer',
      text: '8080',
    })
    expect(screen.getByTestId('needs-you-count')).toHaveTextContent('Needs you 0')
    expect(queueView()).toHaveTextContent('Nothing needs you.')
    expect(document.title).toBe('Agent Teams')
  })

  it('a new entry from an event shows at once, with Always for its pattern', async () => {
    const api = fakeApi({ snapshot: snapshot({ members: [agentView('alice')] }) })
    await renderApp(api)
    fireEvent.click(screen.getByTestId('needs-you-count'))
    act(() =>
      api.emit([
        {
          type: 'needs-you-changed',
          entry: needsYouEntry({ id: 'ny-1', detail: 'npm test --watch', pattern: 'npm test' }),
        },
      ]),
    )
    expect(screen.getByTestId('needs-you-count')).toHaveTextContent('Needs you 1')
    expect(selected()).toHaveTextContent('npm test --watch')
    await act(async () => {
      fireEvent.click(within(selected()).getByRole('button', { name: 'Always: npm test' }))
    })
    expect(api.answerNeedsYou).toHaveBeenCalledWith({ id: 'ny-1', decision: 'approve-always' })
  })
})

describe('permissions in the spawn dialog and the roster', () => {
  it('spawns with the chosen profile and approval mode, and the roster shows them', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    expect(screen.getByTestId('profile-alice')).toHaveTextContent('tester · ask')
    fireEvent.click(screen.getByRole('button', { name: /Spawn/ }))
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'rita' } })
    fireEvent.change(screen.getByLabelText('Role'), { target: { value: 'reviewer' } })
    fireEvent.change(screen.getByLabelText('First prompt'), { target: { value: 'Review.' } })
    fireEvent.change(screen.getByLabelText('Profile'), { target: { value: 'reviewer' } })
    expect(screen.getByText('Tools: read_file, grep, glob, send_message, ask_user')).toBeVisible()
    fireEvent.change(screen.getByLabelText('Approvals'), { target: { value: 'ask' } })
    await act(async () => {
      fireEvent.keyDown(screen.getByLabelText('Role'), { key: 'Enter' })
    })
    expect(api.spawn).toHaveBeenCalledWith({
      name: 'rita',
      role: 'reviewer',
      prompt: 'Review.',
      profile: 'reviewer',
      approval: 'ask',
    })
  })
})

describe('the agent view', () => {
  it('points to the queue instead of its status banner while the queue holds its state', async () => {
    const paused = snapshot({
      members: [
        agentView('bob', {
          status: 'waiting',
          statusReason: 'the budget is used up',
          statusCause: 'budget',
        }),
      ],
      needsYou: [
        needsYouEntry({
          id: 'ny-p',
          agent: 'bob',
          kind: 'pause',
          summary: 'bob is paused',
          detail: "the agent's round budget is used up (1 of 1 model calls); raise it to resume",
          tool: null,
          pattern: null,
        }),
      ],
    })
    const api = fakeApi({ snapshot: paused })
    await renderApp(api)
    fireEvent.click(screen.getByRole('button', { name: /^Open bob/ }))
    expect(screen.queryByTestId('budget-pause')).not.toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: 'Open Needs you' }))
    expect(selected()).toHaveTextContent('bob is paused')
    fireEvent.click(within(selected()).getByRole('button', { name: 'Set budget…' }))
    expect(screen.getByRole('dialog')).toBeVisible()
  })
})
