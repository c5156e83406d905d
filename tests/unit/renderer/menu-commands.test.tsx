// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { MenuCommand } from '../../../src/shared/desktop'
import { agentView, fakeApi, snapshot, type FakeApi } from './fake-api'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()

const team = snapshot({
  lead: agentView('lead', { status: 'working', running: true }),
  members: [
    agentView('alice', { status: 'error', statusReason: 'HTTP 529: overloaded' }),
    agentView('bob', { status: 'idle' }),
  ],
})

function menu(api: FakeApi, command: MenuCommand): void {
  act(() => api.emit([{ type: 'menu-command', command }]))
}

describe('commands from the application menu', () => {
  it('toggle roster hides and shows the team column', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    menu(api, { kind: 'toggle-roster' })
    expect(screen.queryByRole('complementary', { name: 'Team' })).not.toBeInTheDocument()
    menu(api, { kind: 'toggle-roster' })
    expect(screen.getByRole('complementary', { name: 'Team' })).toBeInTheDocument()
  })

  it('Ctrl+B does the same from the keyboard, in the browser too', async () => {
    await renderApp(fakeApi({ snapshot: team }))
    fireEvent.keyDown(window, { key: 'b', ctrlKey: true })
    expect(screen.queryByRole('complementary', { name: 'Team' })).not.toBeInTheDocument()
    fireEvent.keyDown(window, { key: 'b', ctrlKey: true })
    expect(screen.getByRole('complementary', { name: 'Team' })).toBeInTheDocument()
  })

  it('toggle activity switches to the activity panes and back', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    menu(api, { kind: 'toggle-activity' })
    expect(screen.getByRole('region', { name: 'alice activity' })).toBeInTheDocument()
    menu(api, { kind: 'toggle-activity' })
    expect(screen.queryByRole('region', { name: 'alice activity' })).not.toBeInTheDocument()
  })

  it('spawn teammate opens the spawn dialog; keyboard shortcuts open the help', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    menu(api, { kind: 'spawn-teammate' })
    expect(screen.getByRole('dialog', { name: 'Spawn a teammate' })).toBeInTheDocument()
    fireEvent.keyDown(window, { key: 'Escape' })
    menu(api, { kind: 'show-shortcuts' })
    expect(screen.getByRole('dialog', { name: 'Help' })).toHaveTextContent('Keyboard shortcuts')
    fireEvent.keyDown(window, { key: 'Escape' })
    menu(api, { kind: 'search-team' })
    expect(screen.getByRole('dialog', { name: 'Search the team' })).toBeInTheDocument()
  })

  it('stop all and resume all call the team-wide commands', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    menu(api, { kind: 'stop-all' })
    menu(api, { kind: 'resume-all' })
    await waitFor(() => expect(api.stopAll).toHaveBeenCalledWith({}))
    await waitFor(() => expect(api.resumeAll).toHaveBeenCalledWith({}))
  })

  it('open recent opens that folder; close folder goes back to the first-run screen', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    menu(api, { kind: 'open-recent', path: '/home/dana/old-project' })
    await waitFor(() =>
      expect(api.openWorkspace).toHaveBeenCalledWith({ path: '/home/dana/old-project' }),
    )
    menu(api, { kind: 'close-folder' })
    await screen.findByRole('heading', { name: 'Welcome to Agent Teams' })
    expect(api.closeWorkspace).toHaveBeenCalledWith({})
  })

  it('open folder asks the OS picker, and falls back to the folder dialog without one', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    menu(api, { kind: 'open-folder' })
    expect(await screen.findByRole('dialog', { name: 'Open a folder' })).toBeInTheDocument()
    expect(api.pickFolder).toHaveBeenCalled()
  })

  it('a clicked notification shows that agent', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    menu(api, { kind: 'show-agent', name: 'alice' })
    const item = screen.getByTestId('roster-item-alice')
    expect(within(item).getByRole('button', { current: true })).toBeInTheDocument()
  })

  it('team commands do nothing on the first-run screen', async () => {
    const api = fakeApi({ workspace: null })
    await renderApp(api, 'first-run')
    menu(api, { kind: 'stop-all' })
    menu(api, { kind: 'spawn-teammate' })
    expect(api.stopAll).not.toHaveBeenCalled()
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('a notice from the shell shows as a banner', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    act(() =>
      api.emit([
        {
          type: 'desktop-notice',
          tone: 'warning',
          title: 'Link not opened',
          message: 'file:///etc/passwd is not a web link',
        },
      ]),
    )
    expect(screen.getByText('Link not opened')).toBeInTheDocument()
  })
})

describe('Stop all / Resume all in the roster header', () => {
  it('each button calls its command, enabled only when some agent can take it', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    fireEvent.click(screen.getByRole('button', { name: 'Stop all' }))
    await waitFor(() => expect(api.stopAll).toHaveBeenCalledTimes(1))
    await waitFor(() => expect(screen.getByRole('button', { name: 'Resume all' })).toBeEnabled())
    fireEvent.click(screen.getByRole('button', { name: 'Resume all' }))
    await waitFor(() => expect(api.resumeAll).toHaveBeenCalledTimes(1))
  })

  it('is disabled when nobody works and nobody waits', async () => {
    const calm = snapshot({ members: [agentView('bob', { status: 'idle' })] })
    await renderApp(fakeApi({ snapshot: calm }))
    expect(screen.getByRole('button', { name: 'Stop all' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Resume all' })).toBeDisabled()
  })

  it('a refused command shows its reason', async () => {
    const api = fakeApi({ snapshot: team })
    api.stopAll.mockRejectedValueOnce({ name: 'TeamError', code: 'io', message: 'disk full' })
    await renderApp(api)
    fireEvent.click(screen.getByRole('button', { name: 'Stop all' }))
    expect(await screen.findByText(/disk full/)).toBeInTheDocument()
  })
})
