// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { NAME_RULE } from '../../../src/shared/names'
import { agentView, fakeApi, rejection, snapshot } from './fake-api'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()

async function openSpawnDialog() {
  fireEvent.click(screen.getByRole('button', { name: '+ Spawn teammate' }))
  return screen.findByRole('dialog', { name: 'Spawn a teammate' })
}

function type(label: string, value: string): void {
  fireEvent.change(screen.getByLabelText(label), { target: { value } })
}

describe('the spawn dialog', () => {
  it('checks the name as it is typed and shows the rule', async () => {
    await renderApp(fakeApi())
    await openSpawnDialog()

    expect(
      screen.getByText(new RegExp(NAME_RULE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))),
    ).toBeInTheDocument()
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'false')

    type('Name', 'Alice')
    expect(screen.getByRole('alert')).toHaveTextContent(
      '"Alice" must start with a lowercase letter',
    )
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true')

    type('Name', 'al ice')
    expect(screen.getByRole('alert')).toHaveTextContent(
      'may contain only lowercase letters, digits',
    )

    type('Name', 'lead')
    expect(screen.getByRole('alert')).toHaveTextContent('"lead" is reserved')

    type('Name', 'user')
    expect(screen.getByRole('alert')).toHaveTextContent('"user" is reserved')

    type('Name', 'alice')
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'false')
  })

  it('submits on Enter with every field, and closes', async () => {
    const api = fakeApi()
    await renderApp(api)
    await openSpawnDialog()
    type('Name', 'alice')
    type('Role', 'coder')
    type('First prompt', 'Write stats.mjs')
    type('Model', 'claude-small')

    await act(async () => {
      fireEvent.keyDown(screen.getByLabelText('Role'), { key: 'Enter' })
    })

    expect(api.spawn).toHaveBeenCalledWith({
      name: 'alice',
      role: 'coder',
      prompt: 'Write stats.mjs',
      model: 'claude-small',
    })
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('spawns plan first when the box is ticked', async () => {
    const api = fakeApi()
    await renderApp(api)
    await openSpawnDialog()
    type('Name', 'carol')
    type('Role', 'reviewer')
    type('First prompt', 'Review stats.mjs')
    fireEvent.click(screen.getByLabelText(/Plan first/))
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Spawn' }))
    })
    expect(api.spawn).toHaveBeenCalledWith({
      name: 'carol',
      role: 'reviewer',
      prompt: 'Review stats.mjs',
      planFirst: true,
    })
  })

  it('keeps Shift+Enter for a new line in the prompt, and leaves the model out when empty', async () => {
    const api = fakeApi()
    await renderApp(api)
    await openSpawnDialog()
    type('Name', 'bob')
    type('Role', 'tester')
    type('First prompt', 'line one')

    fireEvent.keyDown(screen.getByLabelText('First prompt'), { key: 'Enter', shiftKey: true })
    expect(api.spawn).not.toHaveBeenCalled()

    await act(async () => {
      fireEvent.keyDown(screen.getByLabelText('First prompt'), { key: 'Enter' })
    })
    expect(api.spawn).toHaveBeenCalledWith({ name: 'bob', role: 'tester', prompt: 'line one' })
  })

  it('does not send an invalid name, and says what is missing', async () => {
    const api = fakeApi()
    await renderApp(api)
    await openSpawnDialog()

    await act(async () => {
      fireEvent.keyDown(screen.getByLabelText('Name'), { key: 'Enter' })
    })

    expect(api.spawn).not.toHaveBeenCalled()
    expect(screen.getByRole('alert')).toHaveTextContent('The name is empty')
    expect(screen.getByText('Give it a role.')).toBeInTheDocument()
    expect(screen.getByText('Tell it what to do first.')).toBeInTheDocument()
  })

  it('shows a rejected spawn inline and stays open', async () => {
    const api = fakeApi({
      snapshot: snapshot({ members: [agentView('bob', { status: 'working' })] }),
    })
    api.spawn.mockRejectedValueOnce(
      rejection(
        'member-working',
        '"bob" is working right now; wait until it is idle, or stop it first.',
      ),
    )
    await renderApp(api)
    const dialog = await openSpawnDialog()
    type('Name', 'bob')
    type('Role', 'tester')
    type('First prompt', 'again')

    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Re-spawn bob' }))
    })

    const alert = within(dialog).getByRole('alert')
    expect(alert).toHaveTextContent(
      '"bob" is working right now; wait until it is idle, or stop it first.',
    )
    expect(alert).toHaveAttribute('data-code', 'member-working')
    expect(alert).not.toHaveTextContent('member-working')
    expect(screen.getByRole('dialog')).toBeInTheDocument()
  })

  it('closes on Esc', async () => {
    await renderApp(fakeApi())
    await openSpawnDialog()
    fireEvent.keyDown(screen.getByLabelText('Name'), { key: 'Escape' })
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('opens prefilled for a re-spawn from the roster', async () => {
    await renderApp(
      fakeApi({
        snapshot: snapshot({
          members: [agentView('carol', { role: 'reviewer', status: 'shutdown' })],
        }),
      }),
    )
    const item = screen.getByTestId('roster-item-carol')
    fireEvent.click(within(item).getByRole('button', { name: 'Re-spawn' }))

    await screen.findByRole('dialog', { name: 'Re-spawn carol' })
    expect(screen.getByLabelText('Name')).toHaveValue('carol')
    expect(screen.getByLabelText('Role')).toHaveValue('reviewer')
  })
})
