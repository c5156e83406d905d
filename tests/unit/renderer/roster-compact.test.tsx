// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import {
  COMPACT_FROM,
  createDensityController,
  densityController,
} from '../../../src/renderer/roster/roster-density'
import { agentView, fakeApi, snapshot } from './fake-api'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()

const small = snapshot({
  members: [
    agentView('alice', { role: 'coder', status: 'working', running: true }),
    agentView('bob', { role: 'tester', status: 'error', statusReason: 'HTTP 529: overloaded' }),
    agentView('carol', { role: 'release-manager', status: 'idle', pending: 2 }),
  ],
})

/** A team of twenty teammates (and the lead): Auto goes compact. */
const large = snapshot({
  members: Array.from({ length: 20 }, (_, index) =>
    agentView(`member-${String(index + 1).padStart(2, '0')}`, {
      role: index % 2 === 0 ? 'frontend-and-accessibility-engineer' : 'tester',
      status: index === 3 ? 'working' : 'idle',
      running: index === 3,
    }),
  ),
})

function layoutSwitch(): HTMLSelectElement {
  return screen.getByRole('combobox', { name: 'Roster layout' })
}

function filterBox(): HTMLInputElement {
  return screen.getByRole('searchbox', { name: 'Filter the team by name, role or status' })
}

beforeEach(() => {
  window.localStorage.clear()
  densityController().choose('auto')
})

describe('the compact roster', () => {
  it('is normal for a small team and compact on its own for a large one', async () => {
    await renderApp(fakeApi({ snapshot: small }))
    expect(screen.getByRole('complementary', { name: 'Team' })).not.toHaveClass('roster-compact')
    expect(screen.getByTestId('roster-model-alice')).toBeInTheDocument()
    expect(COMPACT_FROM).toBeLessThanOrEqual(21)
  })

  it('shows one line per agent, the name whole, and actions only for the open one', async () => {
    await renderApp(fakeApi({ snapshot: large }))
    expect(screen.getByRole('complementary', { name: 'Team' })).toHaveClass('roster-compact')
    const item = screen.getByTestId('roster-item-member-01')
    expect(within(item).getByText('member-01')).toHaveClass('roster-name')
    expect(within(item).getByText('frontend-and-accessibility-engineer')).toHaveClass('roster-role')
    expect(screen.getByTestId('status-member-04')).toHaveTextContent('Working')
    // Model, spend and actions go; the status stays in words.
    expect(screen.queryByTestId('roster-model-member-01')).not.toBeInTheDocument()
    expect(within(item).queryByRole('button', { name: 'Stop' })).not.toBeInTheDocument()
    // The open agent (the lead) keeps its actions.
    const lead = screen.getByTestId('roster-item-lead')
    expect(within(lead).getByRole('button', { name: 'Stop' })).toBeInTheDocument()
    await act(async () => {
      fireEvent.click(within(item).getByRole('button', { name: /^Open member-01/ }))
    })
    expect(
      within(screen.getByTestId('roster-item-member-01')).getByRole('button', { name: 'Stop' }),
    ).toBeDisabled()
    // Stop all still reaches the whole team.
    expect(screen.getByRole('button', { name: 'Stop all' })).toBeEnabled()
  })

  it('switches between normal and compact, and remembers the choice across reloads', async () => {
    await renderApp(fakeApi({ snapshot: small }))
    const roster = screen.getByRole('complementary', { name: 'Team' })
    act(() => {
      fireEvent.change(layoutSwitch(), { target: { value: 'compact' } })
    })
    expect(roster).toHaveClass('roster-compact')
    expect(screen.queryByTestId('roster-model-alice')).not.toBeInTheDocument()
    // What a reloaded page reads.
    expect(createDensityController(window.localStorage).get()).toBe('compact')
    act(() => {
      fireEvent.change(layoutSwitch(), { target: { value: 'normal' } })
    })
    expect(roster).not.toHaveClass('roster-compact')
    expect(createDensityController(window.localStorage).get()).toBe('normal')
  })

  it('reads an unknown stored choice as Auto', () => {
    window.localStorage.setItem('agent-teams.roster-density', 'tiny')
    expect(createDensityController(window.localStorage).get()).toBe('auto')
  })
})

describe('the roster filter', () => {
  it('narrows the list by name, role or status, and Escape shows everyone again', async () => {
    await renderApp(fakeApi({ snapshot: small }))
    const names = () =>
      screen
        .queryAllByTestId(/^roster-item-/)
        .map((item) => item.dataset['testid']?.replace('roster-item-', ''))
    expect(names()).toEqual(['lead', 'alice', 'bob', 'carol'])

    fireEvent.change(filterBox(), { target: { value: 'ali' } })
    expect(names()).toEqual(['alice'])
    fireEvent.change(filterBox(), { target: { value: 'TESTER' } })
    expect(names()).toEqual(['bob'])
    // The status as the badge says it.
    fireEvent.change(filterBox(), { target: { value: 'working' } })
    expect(names()).toEqual(['alice'])

    fireEvent.change(filterBox(), { target: { value: 'nobody' } })
    expect(names()).toEqual([])
    expect(screen.getByText(/No one on the team matches “nobody”/)).toBeInTheDocument()

    fireEvent.keyDown(filterBox(), { key: 'Escape' })
    expect(filterBox()).toHaveValue('')
    expect(names()).toEqual(['lead', 'alice', 'bob', 'carol'])
  })

  it('keeps Ctrl+number bound to the agent’s place in the whole team', async () => {
    await renderApp(fakeApi({ snapshot: small }))
    fireEvent.change(filterBox(), { target: { value: 'carol' } })
    expect(screen.getByRole('button', { name: /^Open carol/ })).toHaveAttribute(
      'title',
      'Open carol (Ctrl+4)',
    )
  })
})
