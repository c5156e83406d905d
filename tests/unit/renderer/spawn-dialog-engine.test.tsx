// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { agentView, engineView, fakeApi, snapshot } from './fake-api'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()

const PROBLEM =
  'The Claude Code engine needs @anthropic-ai/claude-agent-sdk, which is not installed.'

async function openSpawnDialog(): Promise<HTMLElement> {
  fireEvent.click(screen.getByRole('button', { name: '+ Spawn teammate' }))
  const dialog = await screen.findByRole('dialog', { name: 'Spawn a teammate' })
  // The engines arrive from the host: the chosen one's needs show once they have.
  await within(dialog).findByText(/^Needs: /)
  return dialog
}

function fill(name: string): void {
  for (const [label, value] of [
    ['Name', name],
    ['Role', 'coder'],
    ['First prompt', 'Write stats.mjs'],
  ] as const)
    fireEvent.change(screen.getByLabelText(label), { target: { value } })
}

async function spawn(dialog: HTMLElement, label = 'Spawn'): Promise<void> {
  await act(async () => {
    fireEvent.click(within(dialog).getByRole('button', { name: label }))
  })
}

function option(label: RegExp): HTMLOptionElement {
  return screen.getByRole('option', { name: label })
}

describe('the spawn dialog’s engine', () => {
  it('offers each engine with what it needs and costs, and sends the one chosen', async () => {
    const api = fakeApi()
    await renderApp(api)
    const dialog = await openSpawnDialog()
    const select = within(dialog).getByLabelText('Engine')
    expect(select).toHaveValue('builtin')
    expect(
      within(dialog).getByText('Needs: What builtin needs. Costs: What builtin costs.'),
    ).toBeInTheDocument()
    expect(option(/^Claude Code$/)).toBeEnabled()

    fireEvent.change(select, { target: { value: 'claude-code' } })
    expect(
      within(dialog).getByText('Needs: What claude-code needs. Costs: What claude-code costs.'),
    ).toBeInTheDocument()
    fill('alice')
    await spawn(dialog)
    expect(api.spawn).toHaveBeenCalledWith({
      name: 'alice',
      role: 'coder',
      prompt: 'Write stats.mjs',
      engine: 'claude-code',
    })
  })

  it('without Claude Code: its option is disabled, the problem is said, builtin is spawned', async () => {
    const api = fakeApi({
      engines: [
        engineView('builtin'),
        engineView('claude-code', { available: false, problem: PROBLEM }),
      ],
    })
    await renderApp(api)
    const dialog = await openSpawnDialog()
    expect(option(/^Claude Code \(not available here\)$/)).toBeDisabled()
    expect(option(/^Built-in$/)).toBeEnabled()
    expect(within(dialog).getByTestId('engine-problem-claude-code')).toHaveTextContent(
      `Claude Code is not available here: ${PROBLEM}`,
    )
    fill('alice')
    await spawn(dialog)
    // Untouched: nothing sent, so a new teammate is builtin.
    expect(api.spawn).toHaveBeenCalledWith({
      name: 'alice',
      role: 'coder',
      prompt: 'Write stats.mjs',
    })
  })

  it('shows a re-spawn’s own engine, and says so when it cannot run here any more', async () => {
    const api = fakeApi({
      snapshot: snapshot({ members: [agentView('carol', { engine: 'claude-code' })] }),
      engines: [
        engineView('builtin'),
        engineView('claude-code', { available: false, problem: PROBLEM }),
      ],
    })
    await renderApp(api)
    fireEvent.click(screen.getByRole('button', { name: '+ Spawn teammate' }))
    const dialog = await screen.findByRole('dialog', { name: 'Spawn a teammate' })
    fill('carol')
    const select = within(dialog).getByLabelText('Engine')
    expect(select).toHaveValue('claude-code')
    expect(await within(dialog).findByText(PROBLEM)).toHaveClass('field-error')
    // The person moves it to the built-in engine: that is sent.
    fireEvent.change(select, { target: { value: 'builtin' } })
    expect(within(dialog).queryByText(PROBLEM)).not.toBeInTheDocument()
    await spawn(dialog, 'Re-spawn carol')
    expect(api.spawn).toHaveBeenCalledWith({
      name: 'carol',
      role: 'coder',
      prompt: 'Write stats.mjs',
      engine: 'builtin',
    })
  })
})
