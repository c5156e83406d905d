// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi, rejection, settingsView, snapshot } from './fake-api'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()

const noKey = settingsView({ apiKeySet: false, apiKeySource: 'none' })

describe('the first run', () => {
  it('offers a key or the offline demo when there is no key', async () => {
    await renderApp(fakeApi({ workspace: null, settings: noKey }), 'first-run')
    expect(screen.getByRole('button', { name: 'Enter an API key' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Run the offline demo' })).toBeInTheDocument()
  })

  it('also shows up with a folder open but no key and no offline model', async () => {
    await renderApp(fakeApi({ settings: noKey }), 'first-run')
    expect(screen.getByRole('button', { name: 'Continue to this folder' })).toBeInTheDocument()
  })

  it('does not come back after a reload for a team on the offline model (a demo)', async () => {
    await renderApp(fakeApi({ settings: noKey, offline: true }))
    expect(
      screen.queryByRole('heading', { name: 'Welcome to Agent Teams' }),
    ).not.toBeInTheDocument()
    expect(screen.getByLabelText('Message the lead')).toBeInTheDocument()
  })

  it('"Enter an API key" opens the settings', async () => {
    await renderApp(fakeApi({ workspace: null, settings: noKey }), 'first-run')
    fireEvent.click(screen.getByRole('button', { name: 'Enter an API key' }))
    expect(await screen.findByRole('dialog', { name: 'Settings' })).toBeInTheDocument()
  })

  it('goes on to the open folder once a key is saved', async () => {
    const api = fakeApi({ settings: noKey })
    api.saveSettings.mockResolvedValueOnce(
      settingsView({ apiKeySet: true, apiKeySource: 'settings' }),
    )
    await renderApp(api, 'first-run')
    fireEvent.click(screen.getByRole('button', { name: 'Enter an API key' }))
    fireEvent.change(await screen.findByLabelText('API key'), { target: { value: 'sk-ant-1' } })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    })
    expect(api.saveSettings).toHaveBeenCalledWith({ apiKey: 'sk-ant-1' })
    expect(await screen.findByRole('complementary', { name: 'Team' })).toBeInTheDocument()
  })

  it('"Run the offline demo" opens the demo’s team', async () => {
    const api = fakeApi({ workspace: null, settings: noKey })
    api.startDemo.mockResolvedValueOnce(
      snapshot({ workspace: '/tmp/agent-teams-demo-1', teamName: 'demo' }),
    )
    await renderApp(api, 'first-run')

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Run the offline demo' }))
    })

    expect(api.startDemo).toHaveBeenCalled()
    expect(await screen.findByRole('complementary', { name: 'Team' })).toBeInTheDocument()
    expect(screen.getByTitle('/tmp/agent-teams-demo-1')).toBeInTheDocument()
  })

  it('shows a failed demo start inline', async () => {
    const api = fakeApi({ workspace: null, settings: noKey })
    api.startDemo.mockRejectedValueOnce(rejection('io', 'Could not create the demo folder'))
    await renderApp(api, 'first-run')
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Run the offline demo' }))
    })
    expect(screen.getByRole('alert')).toHaveTextContent('Could not create the demo folder')
  })

  it('opens a folder by path where there is no picker, and lists recent folders', async () => {
    const api = fakeApi({ workspace: null })
    await renderApp(api, 'first-run')
    expect(screen.getByRole('button', { name: '/home/dana/old-project' })).toBeInTheDocument()

    fireEvent.change(screen.getByLabelText('Folder path'), { target: { value: '/home/dana/new' } })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Open' }))
    })

    expect(api.openWorkspace).toHaveBeenCalledWith({ path: '/home/dana/new' })
    expect(await screen.findByRole('complementary', { name: 'Team' })).toBeInTheDocument()
  })

  it('shows a folder that cannot be opened inline', async () => {
    const api = fakeApi({ workspace: null })
    api.openWorkspace.mockRejectedValueOnce(rejection('not-found', 'There is no folder /nope.'))
    await renderApp(api, 'first-run')
    fireEvent.change(screen.getByLabelText('Folder path'), { target: { value: '/nope' } })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Open' }))
    })
    expect(screen.getByRole('alert')).toHaveTextContent('There is no folder /nope.')
  })

  it('browses folders: lists as you type, completes with Tab, enters on a click', async () => {
    const api = fakeApi({ workspace: null })
    await renderApp(api, 'first-run')
    const field = screen.getByLabelText('Folder path')
    const subfolders = screen.getByLabelText('Subfolders')

    fireEvent.change(field, { target: { value: '~/pro' } })
    expect(await within(subfolders).findByRole('button', { name: 'projects' })).toBeInTheDocument()
    expect(within(subfolders).queryByRole('button', { name: 'notes' })).toBeNull()
    expect(api.listFolders).toHaveBeenLastCalledWith({ path: '~/pro' })

    // One match: Tab enters it.
    fireEvent.keyDown(field, { key: 'Tab' })
    expect(field).toHaveValue('/home/dana/projects/')
    expect(await within(subfolders).findByRole('button', { name: 'alpha' })).toBeInTheDocument()

    // Two matches: Tab completes what they share, and no more.
    fireEvent.change(field, { target: { value: '/home/dana/projects/a' } })
    await within(subfolders).findByRole('button', { name: 'alps' })
    fireEvent.keyDown(field, { key: 'Tab' })
    expect(field).toHaveValue('/home/dana/projects/alp')

    fireEvent.click(within(subfolders).getByRole('button', { name: 'alps' }))
    expect(field).toHaveValue('/home/dana/projects/alps/')
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Open' }))
    })
    expect(api.openWorkspace).toHaveBeenCalledWith({ path: '/home/dana/projects/alps/' })
  })

  it('says why a typed folder cannot be listed', async () => {
    const api = fakeApi({ workspace: null })
    await renderApp(api, 'first-run')
    fireEvent.change(screen.getByLabelText('Folder path'), { target: { value: '/nowhere/' } })
    expect(await screen.findByText('/nowhere does not exist.')).toBeInTheDocument()
    api.listFolders.mockRejectedValueOnce(
      rejection('invalid-argument', '"src" is a relative path. Type the whole path from /.'),
    )
    fireEvent.change(screen.getByLabelText('Folder path'), { target: { value: 'src' } })
    expect(await screen.findByText(/"src" is a relative path/)).toBeInTheDocument()
  })
})
