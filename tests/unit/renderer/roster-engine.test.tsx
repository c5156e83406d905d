// @vitest-environment jsdom
import { act, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { reduceEvent as reduce } from '../../../src/renderer/store/reducer'
import { agentFromView, initialTeamData } from '../../../src/renderer/store/state'
import { agentView, fakeApi, snapshot } from './fake-api'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()

const team = snapshot({
  members: [
    agentView('alice', { role: 'coder', engine: 'claude-code' }),
    agentView('bob', { role: 'tester' }),
  ],
})

describe('the roster shows the engine', () => {
  it('a Claude Code teammate has a small badge, and says so to a screen reader', async () => {
    await renderApp(fakeApi({ snapshot: team }))
    const alice = screen.getByTestId('roster-item-alice')
    expect(within(alice).getByTestId('engine-alice')).toHaveTextContent(/^Claude Code$/)
    expect(
      within(alice).getByRole('button', { name: /^Open alice \(coder, Claude Code, Idle\)$/ }),
    ).toBeInTheDocument()
    // Built-in shows nothing, the lead included.
    expect(screen.queryByTestId('engine-bob')).not.toBeInTheDocument()
    expect(screen.queryByTestId('engine-lead')).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: /^Open bob \(tester, Idle\)$/ })).toBeInTheDocument()
  })

  it('follows config.json as the roster changes', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    act(() =>
      api.emit([
        {
          type: 'roster-changed',
          team_name: 'stats',
          members: [
            { name: 'alice', role: 'coder', status: 'idle' },
            { name: 'bob', role: 'tester', status: 'idle', engine: 'claude-code' },
          ],
        },
      ]),
    )
    expect(screen.queryByTestId('engine-alice')).not.toBeInTheDocument()
    expect(screen.getByTestId('engine-bob')).toHaveTextContent('Claude Code')
  })
})

describe('the reducer: the engine', () => {
  it('is builtin where the view or config.json says none, and the same object when unchanged', () => {
    expect(agentFromView(agentView('alice')).engine).toBe('builtin')
    // As the host says them: a roster change that leaves every field as it was changes nothing.
    const profile = { profile: 'implementer' }
    const opened = reduce(initialTeamData, {
      type: 'workspace-opened',
      snapshot: snapshot({
        members: [
          agentView('alice', { role: 'coder', engine: 'claude-code', ...profile }),
          agentView('bob', { role: 'tester', ...profile }),
        ],
      }),
    })
    expect(opened.agents['alice']?.engine).toBe('claude-code')
    const members = [
      { name: 'alice', role: 'coder', status: 'idle' as const, engine: 'claude-code' as const },
      { name: 'bob', role: 'tester', status: 'idle' as const },
    ]
    const same = reduce(opened, { type: 'roster-changed', team_name: 'stats', members })
    expect(same.agents['alice']).toBe(opened.agents['alice'])
    expect(same.agents['bob']).toBe(opened.agents['bob'])
  })
})
