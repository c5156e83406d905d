// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi, rejection } from './fake-api'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()

async function openSandbox(api: ReturnType<typeof fakeApi>): Promise<HTMLElement> {
  await renderApp(api)
  fireEvent.click(screen.getByRole('button', { name: 'Settings' }))
  const dialog = await screen.findByRole('dialog', { name: 'Settings' })
  const field = within(dialog).getByRole('group', { name: 'Sandbox for bash' })
  await within(field).findByRole('status')
  return field
}

describe("the settings' sandbox", () => {
  it('says the sandbox is on and saves the hosts with the registry preset', async () => {
    const api = fakeApi()
    const field = await openSandbox(api)
    expect(within(field).getByRole('status')).toHaveTextContent(
      /^On: bash runs in an OS sandbox \(bubblewrap\)/,
    )
    const hosts = within(field).getByLabelText('Allowed hosts (one a line)')
    expect(hosts).toHaveValue('')
    expect(within(field).getByRole('button', { name: 'Save allowed hosts' })).toBeDisabled()

    fireEvent.change(hosts, { target: { value: '  example.com \n\n' } })
    fireEvent.click(within(field).getByRole('button', { name: 'Add package registries' }))
    expect(hosts).toHaveValue('example.com\nregistry.npmjs.org\npypi.org')
    await act(async () => {
      fireEvent.click(within(field).getByRole('button', { name: 'Save allowed hosts' }))
    })
    expect(api.setAllowedHosts).toHaveBeenCalledWith({
      hosts: ['example.com', 'registry.npmjs.org', 'pypi.org'],
    })
    expect(within(field).getByText('Saved.')).toBeInTheDocument()
    expect(api.saveSettings).not.toHaveBeenCalled()
  })

  it('says once why there is no sandbox, and shows a refused host inline', async () => {
    const api = fakeApi({
      sandbox: {
        status: { available: false, reason: 'bash cannot be sandboxed: bwrap is not installed.' },
        team: { allowedHosts: ['pypi.org'], problem: null },
        preset: [],
      },
    })
    api.setAllowedHosts.mockRejectedValueOnce(
      rejection('invalid-argument', 'The allowed hosts were not saved: "a b": a host is a name.'),
    )
    const field = await openSandbox(api)
    expect(within(field).getByRole('status')).toHaveTextContent(
      'Off: bash cannot be sandboxed: bwrap is not installed.',
    )
    fireEvent.change(within(field).getByLabelText('Allowed hosts (one a line)'), {
      target: { value: 'pypi.org\na b' },
    })
    await act(async () => {
      fireEvent.click(within(field).getByRole('button', { name: 'Save allowed hosts' }))
    })
    expect(within(field).getByText(/"a b": a host is a name/)).toBeInTheDocument()
  })

  it('asks for a team before hosts can be chosen', async () => {
    const api = fakeApi({
      sandbox: { status: { available: true, mechanism: 'seatbelt' }, team: null, preset: [] },
    })
    const field = await openSandbox(api)
    expect(within(field).getByRole('status')).toHaveTextContent(/macOS Seatbelt/)
    expect(
      within(field).getByText('Open a team to choose the hosts its commands may reach.'),
    ).toBeInTheDocument()
    expect(within(field).queryByLabelText('Allowed hosts (one a line)')).toBeNull()
  })
})

describe("the roster's sandbox notice", () => {
  it('says once that bash is not sandboxed, and opens the settings that say why', async () => {
    const api = fakeApi({
      sandbox: {
        status: { available: false, reason: 'bash cannot be sandboxed: bwrap is not installed.' },
        team: { allowedHosts: [], problem: null },
        preset: [],
      },
    })
    await renderApp(api)
    const roster = screen.getByRole('complementary', { name: 'Team' })
    const notice = await within(roster).findByRole('note')
    expect(notice).toHaveTextContent('bash is not sandboxed on this computer.')
    fireEvent.click(within(notice).getByRole('button', { name: 'Why, and what to do' }))
    const dialog = await screen.findByRole('dialog', { name: 'Settings' })
    expect(
      await within(dialog).findByText('Off: bash cannot be sandboxed: bwrap is not installed.'),
    ).toBeInTheDocument()
  })

  it('shows nothing while the sandbox is on', async () => {
    const api = fakeApi()
    await renderApp(api)
    await act(async () => {
      await Promise.resolve()
    })
    expect(api.getSandbox).toHaveBeenCalled()
    const roster = screen.getByRole('complementary', { name: 'Team' })
    expect(within(roster).queryByText(/not sandboxed/)).toBeNull()
  })
})
