// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { BUILT_IN_PROFILES, type ProfileView } from '../../../src/shared/profiles'
import { agentView, fakeApi, rejection, snapshot, type FakeApi } from './fake-api'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()

const builtIn: ProfileView[] = BUILT_IN_PROFILES.map((profile) => ({ ...profile, builtIn: true }))
const docs: ProfileView = {
  name: 'docs',
  description: 'Writes the docs.',
  tools: ['read_file', 'write_file', 'send_message'],
  approval: 'ask',
  mcp: false,
  builtIn: false,
}

const team = snapshot({
  members: [agentView('bob', { profile: 'tester', approval: 'auto' })],
})

async function openProfile(api: FakeApi, name: string): Promise<HTMLElement> {
  await renderApp(api)
  fireEvent.click(
    within(screen.getByTestId(`roster-item-${name}`)).getByRole('button', { name: 'Profile…' }),
  )
  const dialog = await screen.findByRole('dialog', {
    name: name === 'lead' ? 'Profile of the lead' : `Profile of ${name}`,
  })
  // The team's profiles have come: the custom one is offered.
  await within(dialog).findByRole('option', { name: 'docs' })
  return dialog
}

function choose(dialog: HTMLElement, label: string, value: string): void {
  fireEvent.change(within(dialog).getByLabelText(label), { target: { value } })
}

async function click(dialog: HTMLElement, name: string): Promise<void> {
  await act(async () => {
    fireEvent.click(within(dialog).getByRole('button', { name }))
  })
}

describe('an agent’s profile, changed later from the roster', () => {
  it('shows its profile and mode, offers built-in and custom profiles, sends only the change', async () => {
    const api = fakeApi({ snapshot: team })
    api.getProfiles.mockResolvedValue({ profiles: [...builtIn, docs], problem: null })
    const dialog = await openProfile(api, 'bob')
    expect(within(dialog).getByLabelText('Profile')).toHaveValue('tester')
    expect(within(dialog).getByLabelText('Approvals')).toHaveValue('auto')
    // A teammate is never offered the lead's profile.
    const offered = within(within(dialog).getByLabelText('Profile'))
      .getAllByRole('option')
      .map((option) => option.textContent)
    expect(offered).toEqual(['reviewer', 'tester', 'implementer', 'docs'])

    choose(dialog, 'Approvals', 'ask')
    await click(dialog, 'Save')
    expect(api.setAgentProfile).toHaveBeenCalledExactlyOnceWith({ name: 'bob', approval: 'ask' })
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('changes the profile and puts the mode back to the profile’s own; unchanged, sends nothing', async () => {
    const api = fakeApi({ snapshot: team })
    api.getProfiles.mockResolvedValue({ profiles: [...builtIn, docs], problem: null })
    let dialog = await openProfile(api, 'bob')
    expect(
      within(dialog).getByText(
        'Tools: bash, read_file, write_file, grep, glob, send_message, ask_user',
      ),
    ).toBeInTheDocument()
    choose(dialog, 'Profile', 'docs')
    expect(
      within(dialog).getByText('Tools: read_file, write_file, send_message'),
    ).toBeInTheDocument()
    choose(dialog, 'Approvals', '')
    await click(dialog, 'Save')
    expect(api.setAgentProfile).toHaveBeenCalledExactlyOnceWith({
      name: 'bob',
      profile: 'docs',
      approval: null,
    })

    fireEvent.click(
      within(screen.getByTestId('roster-item-bob')).getByRole('button', { name: 'Profile…' }),
    )
    dialog = await screen.findByRole('dialog', { name: 'Profile of bob' })
    await click(dialog, 'Save')
    expect(api.setAgentProfile).toHaveBeenCalledTimes(1)
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('offers the lead its own profile, and shows the host’s refusal inline', async () => {
    const api = fakeApi({ snapshot: team })
    api.getProfiles.mockResolvedValue({ profiles: [...builtIn, docs], problem: null })
    api.setAgentProfile.mockRejectedValue(
      rejection('not-found', 'There is no profile "docs": save it first.'),
    )
    const dialog = await openProfile(api, 'lead')
    expect(within(dialog).getByLabelText('Profile')).toHaveValue('lead')
    choose(dialog, 'Profile', 'docs')
    await click(dialog, 'Save')
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'There is no profile "docs": save it first.',
    )
    expect(screen.getByRole('dialog', { name: 'Profile of the lead' })).toBeInTheDocument()
  })

  it('says why custom profiles are not available when the team’s file is broken', async () => {
    const api = fakeApi({ snapshot: team })
    api.getProfiles.mockResolvedValue({
      profiles: [...builtIn, docs],
      problem: '.team/profiles.json is not valid JSON; fix or delete it',
    })
    const dialog = await openProfile(api, 'bob')
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Custom profiles are not available: .team/profiles.json is not valid JSON',
    )
  })
})

describe('a custom profile, saved from the Profile dialog', () => {
  it('checks the name, saves name, description, tools, mode and MCP, then offers it chosen', async () => {
    const api = fakeApi({ snapshot: team })
    api.getProfiles.mockResolvedValue({ profiles: [...builtIn, docs], problem: null })
    const saved: ProfileView = {
      name: 'runner',
      description: 'Runs the tests only.',
      tools: ['bash', 'read_file', 'send_message', 'ask_user'],
      approval: 'plan-first',
      mcp: true,
      builtIn: false,
    }
    api.saveProfile.mockResolvedValue({ profiles: [...builtIn, docs, saved], problem: null })
    let dialog = await openProfile(api, 'bob')
    await click(dialog, 'New profile…')
    dialog = screen.getByRole('dialog', { name: 'New profile' })
    const form = within(dialog).getByRole('form', { name: 'New profile' })

    await click(dialog, 'Save profile')
    expect(api.saveProfile).not.toHaveBeenCalled()
    expect(within(form).getByRole('alert')).toHaveTextContent('Give the profile a name.')
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Runner!' } })
    expect(within(form).getByRole('alert')).toHaveTextContent(
      '"Runner!" is not a profile name: a profile name is 1-32 characters',
    )
    await click(dialog, 'Save profile')
    expect(api.saveProfile).not.toHaveBeenCalled()

    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'runner' } })
    fireEvent.change(within(form).getByLabelText('Description'), {
      target: { value: 'Runs the tests only.' },
    })
    // Starts read-only; bash on, the search tools off.
    for (const tool of ['bash', 'grep', 'glob'])
      fireEvent.click(within(form).getByRole('checkbox', { name: tool }))
    fireEvent.change(within(form).getByLabelText('Approvals'), {
      target: { value: 'plan-first' },
    })
    fireEvent.click(within(form).getByRole('checkbox', { name: /MCP tools/ }))
    await click(dialog, 'Save profile')
    expect(api.saveProfile).toHaveBeenCalledExactlyOnceWith({
      profile: {
        name: 'runner',
        description: 'Runs the tests only.',
        tools: ['bash', 'read_file', 'send_message', 'ask_user'],
        approval: 'plan-first',
        mcp: true,
      },
    })

    dialog = screen.getByRole('dialog', { name: 'Profile of bob' })
    expect(within(dialog).getByLabelText('Profile')).toHaveValue('runner')
    await click(dialog, 'Save')
    expect(api.setAgentProfile).toHaveBeenCalledExactlyOnceWith({ name: 'bob', profile: 'runner' })
  })

  it('shows the host’s refusal (a built-in name) and stays; Back returns unchanged', async () => {
    const api = fakeApi({ snapshot: team })
    api.getProfiles.mockResolvedValue({ profiles: [...builtIn, docs], problem: null })
    api.saveProfile.mockRejectedValue(
      rejection('reserved-name', '"tester" is a built-in profile: choose another name.'),
    )
    let dialog = await openProfile(api, 'bob')
    await click(dialog, 'New profile…')
    dialog = screen.getByRole('dialog', { name: 'New profile' })
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'tester' } })
    await click(dialog, 'Save profile')
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      '"tester" is a built-in profile: choose another name.',
    )
    await click(dialog, 'Back')
    dialog = screen.getByRole('dialog', { name: 'Profile of bob' })
    expect(within(dialog).getByLabelText('Profile')).toHaveValue('tester')
    expect(api.setAgentProfile).not.toHaveBeenCalled()
  })
})
