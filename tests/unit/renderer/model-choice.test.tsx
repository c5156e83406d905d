// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { reduceEvent as reduce } from '../../../src/renderer/store/reducer'
import { agentFromView, initialTeamData } from '../../../src/renderer/store/state'
import type { TranscriptRecord } from '../../../src/shared/transcript'
import { agentView, fakeApi, snapshot } from './fake-api'
import { giveElementsASize } from './layout'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()

giveElementsASize()

const base = { v: 1 as const, at: 1_700_000_000 }
const thinkingTurn: TranscriptRecord[] = [
  { ...base, seq: 1, kind: 'user', from: 'user', text: 'Check the file' },
  {
    ...base,
    seq: 2,
    kind: 'assistant',
    message_id: 'a',
    model: 'm',
    stop_reason: 'end_turn',
    usage: { input_tokens: 1, output_tokens: 1 },
    content: [
      { type: 'thinking', thinking: 'The file may be missing; look first.', signature: 'sig' },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'text', text: 'It is there.' },
    ],
  },
]

function type(label: string, value: string): void {
  fireEvent.change(screen.getByLabelText(label), { target: { value } })
}

describe('thinking in the transcript', () => {
  it('shows thinking collapsed behind a Thinking disclosure, and redacted thinking as redacted', async () => {
    await renderApp(fakeApi({ transcripts: { lead: thinkingTurn } }))
    const transcript = screen.getByTestId('transcript')
    await within(transcript).findByText('It is there.')

    const disclosure = within(transcript).getByText('Thinking', { selector: 'details *' })
    const details = disclosure.closest('details')
    expect(details).not.toBeNull()
    expect(details).not.toHaveAttribute('open')
    expect(within(details!).getByText('The file may be missing; look first.')).not.toBeVisible()
    fireEvent.click(within(details!).getByText('Thinking'))
    expect(details).toHaveAttribute('open')
    expect(within(details!).getByText('The file may be missing; look first.')).toBeVisible()

    const redacted = within(transcript).getByText('redacted')
    expect(redacted.closest('.thinking-redacted')).toHaveTextContent('Thinking')
    // The opaque data is never shown.
    expect(transcript).not.toHaveTextContent('opaque')
  })
})

describe('the model per agent in the window', () => {
  const team = snapshot({
    defaultModel: 'claude-team',
    members: [
      agentView('alice', { model: 'claude-opus-4-1', thinking: 2048 }),
      agentView('bob', { status: 'idle' }),
    ],
  })

  it('the roster shows each agent’s model, the team’s one muted', async () => {
    await renderApp(fakeApi({ snapshot: team }))
    expect(screen.getByTestId('roster-model-alice')).toHaveTextContent(
      'claude-opus-4-1 · thinking 2k',
    )
    expect(screen.getByTestId('roster-model-alice')).not.toHaveClass('roster-model-default')
    expect(screen.getByTestId('roster-model-bob')).toHaveTextContent('claude-team')
    expect(screen.getByTestId('roster-model-bob')).toHaveClass('roster-model-default')
    expect(screen.getByTestId('roster-model-lead')).toHaveTextContent('claude-team')
    expect(screen.getByTestId('agent-model')).toHaveTextContent('claude-team')
  })

  it('changes a model from the roster: checks the fields, sends, closes', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    fireEvent.click(
      within(screen.getByTestId('roster-item-bob')).getByRole('button', { name: 'Model…' }),
    )
    const dialog = await screen.findByRole('dialog', { name: 'Model of bob' })
    type('Model', 'claude sonnet')
    fireEvent.click(within(dialog).getByLabelText(/Extended thinking/))
    type('Thinking budget (tokens)', '512')
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    })
    expect(api.setAgentModel).not.toHaveBeenCalled()
    const alerts = within(dialog).getAllByRole('alert')
    expect(alerts[0]).toHaveTextContent('may hold only letters, digits')
    expect(alerts[1]).toHaveTextContent("512 is below the API's minimum")

    type('Model', 'claude-sonnet-4-5')
    type('Thinking budget (tokens)', '8,000')
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    })
    expect(api.setAgentModel).toHaveBeenCalledWith({
      name: 'bob',
      model: 'claude-sonnet-4-5',
      thinking: 8000,
    })
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('the header chip opens the change for the open agent; emptying goes back to the default', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    fireEvent.click(screen.getByRole('button', { name: /Open alice/ }))
    fireEvent.click(screen.getByTestId('agent-model'))
    const dialog = await screen.findByRole('dialog', { name: 'Model of alice' })
    expect(screen.getByLabelText('Model')).toHaveValue('claude-opus-4-1')
    expect(within(dialog).getByLabelText(/Extended thinking/)).toBeChecked()
    type('Model', '')
    fireEvent.click(within(dialog).getByLabelText(/Extended thinking/))
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    })
    expect(api.setAgentModel).toHaveBeenCalledWith({ name: 'alice', model: null, thinking: null })
  })

  it('spawns with thinking on and a budget, refusing one under the minimum', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    fireEvent.click(screen.getByRole('button', { name: '+ Spawn teammate' }))
    const dialog = await screen.findByRole('dialog', { name: 'Spawn a teammate' })
    type('Name', 'carol')
    type('Role', 'reviewer')
    type('First prompt', 'Review it')
    fireEvent.click(within(dialog).getByLabelText(/Extended thinking/))
    type('Thinking budget (tokens)', '100')
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Spawn' }))
    })
    expect(api.spawn).not.toHaveBeenCalled()
    expect(within(dialog).getByRole('alert')).toHaveTextContent('below the API')
    type('Thinking budget (tokens)', '3000')
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Spawn' }))
    })
    expect(api.spawn).toHaveBeenCalledWith({
      name: 'carol',
      role: 'reviewer',
      prompt: 'Review it',
      thinking: 3000,
    })
  })
})

describe('re-spawn from the roster', () => {
  it('starts from the member’s model and thinking, and sends what the fields say', async () => {
    const api = fakeApi({
      snapshot: snapshot({
        members: [agentView('dana', { status: 'shutdown', model: 'claude-a', thinking: 2048 })],
      }),
    })
    await renderApp(api)
    fireEvent.click(
      within(screen.getByTestId('roster-item-dana')).getByRole('button', { name: 'Re-spawn' }),
    )
    const dialog = await screen.findByRole('dialog', { name: 'Re-spawn dana' })
    expect(screen.getByLabelText('Model')).toHaveValue('claude-a')
    expect(screen.getByLabelText('Thinking budget (tokens)')).toHaveValue('2048')
    type('First prompt', 'Again')
    type('Model', '')
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Re-spawn dana' }))
    })
    expect(api.spawn).toHaveBeenCalledWith({
      name: 'dana',
      role: 'coder',
      prompt: 'Again',
      model: null,
      thinking: 2048,
    })
  })
})

describe('the reducer: model and thinking from roster-changed', () => {
  it('follows config.json: a member’s fields, the lead’s object, and a removed model', () => {
    const opened = reduce(initialTeamData, {
      type: 'workspace-opened',
      snapshot: snapshot({
        members: [agentView('alice', { model: 'claude-a', thinking: 1024 })],
      }),
    })
    expect(opened.agents['alice']).toEqual(
      agentFromView(agentView('alice', { model: 'claude-a', thinking: 1024 })),
    )
    const changed = reduce(opened, {
      type: 'roster-changed',
      team_name: 'stats',
      members: [{ name: 'alice', role: 'coder', status: 'idle' }],
      lead: { model: 'claude-lead', thinking: 2048 },
    })
    expect(changed.agents['alice']).toMatchObject({ model: null, thinking: null })
    expect(changed.agents['lead']).toMatchObject({ model: 'claude-lead', thinking: 2048 })
    const unchanged = reduce(changed, {
      type: 'roster-changed',
      team_name: 'stats',
      members: [{ name: 'alice', role: 'coder', status: 'idle' }],
      lead: { model: 'claude-lead', thinking: 2048 },
    })
    expect(unchanged.agents['lead']).toBe(changed.agents['lead'])
  })
})
