// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { TemplateEntry } from '../../../src/shared/templates'
import { agentView, fakeApi, rejection, snapshot } from './fake-api'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()

function entry(name: string, builtin: boolean): TemplateEntry {
  return {
    builtin,
    template: {
      format: 'agent-teams-template',
      v: 1,
      name,
      description: builtin ? 'A coder and a tester.' : '',
      members: [
        { name: 'alice', role: 'coder', prompt: 'Code.' },
        { name: 'bob', role: 'tester', prompt: 'Test.' },
      ],
    },
  }
}

const listing = {
  templates: [entry('coder-tester', true), entry('mine', false)],
  problems: [{ file: '/c/templates/bad.json', message: 'The template file bad.json is broken.' }],
}

async function openTemplates() {
  fireEvent.click(screen.getByRole('button', { name: 'Templates…' }))
  return screen.findByRole('dialog', { name: 'Team templates' })
}

describe('the Templates dialog', () => {
  it('lists templates and problems, applies one to an empty team, and imports a file', async () => {
    const api = fakeApi()
    api.listTemplates.mockResolvedValue(listing)
    api.applyTemplate.mockResolvedValue({ summary: 'Applied the template "coder-tester".' })
    await renderApp(api)
    const dialog = await openTemplates()
    const builtin = await within(dialog).findByTestId('template-coder-tester')
    expect(builtin).toHaveTextContent('coder-tester · built-in')
    expect(builtin).toHaveTextContent('alice (coder), bob (tester)')
    expect(within(builtin).queryByRole('button', { name: 'Delete' })).toBeNull()
    expect(within(dialog).getByRole('alert')).toHaveTextContent('bad.json is broken')
    // A team without members cannot be saved yet.
    expect(within(dialog).getByRole('button', { name: 'Save team' })).toBeDisabled()

    fireEvent.click(within(builtin).getByRole('button', { name: 'Apply' }))
    expect(await within(dialog).findByRole('status')).toHaveTextContent(
      'Applied the template "coder-tester".',
    )
    expect(api.applyTemplate).toHaveBeenCalledWith({ name: 'coder-tester' })

    api.importTemplate.mockRejectedValueOnce(
      rejection('invalid-argument', 'The file is not a valid team template: members is empty.'),
    )
    const input = within(dialog).getByLabelText(/Import a template file/)
    const file = new File(['{"v":1}'], 'bad.json', { type: 'application/json' })
    await act(async () => {
      fireEvent.change(input, { target: { files: [file] } })
    })
    expect(api.importTemplate).toHaveBeenCalledWith({ json: '{"v":1}' })
    expect(
      await within(dialog).findByText(/not a valid team template: members is empty/),
    ).toBeVisible()
  })

  it('saves the team, exports, edits and deletes a saved template', async () => {
    const api = fakeApi({ snapshot: snapshot({ members: [agentView('alice')] }) })
    api.listTemplates.mockResolvedValue(listing)
    api.saveTemplate.mockResolvedValue({ template: entry('ours', false).template })
    api.exportTemplate.mockResolvedValue({ fileName: 'mine.agent-teams-template.json', json: '{}' })
    api.editTemplate.mockResolvedValue({ template: entry('mine', false).template })
    const createObjectURL = vi.fn(() => 'blob:template')
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() })
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined)
    await renderApp(api)
    const dialog = await openTemplates()
    const mine = await within(dialog).findByTestId('template-mine')
    // This team has members: applying is for a new or empty folder.
    expect(within(mine).getByRole('button', { name: 'Apply' })).toBeDisabled()

    fireEvent.change(within(dialog).getByLabelText('Template name'), { target: { value: 'ours' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save team' }))
    expect(await within(dialog).findByRole('status')).toHaveTextContent(
      'Saved the team as the template "ours".',
    )
    expect(api.saveTemplate).toHaveBeenCalledWith({ name: 'ours', description: '', replace: false })

    fireEvent.click(within(mine).getByRole('button', { name: 'Export' }))
    await vi.waitFor(() => expect(click).toHaveBeenCalled())
    expect(api.exportTemplate).toHaveBeenCalledWith({ name: 'mine' })
    expect(createObjectURL).toHaveBeenCalled()
    click.mockRestore()

    fireEvent.click(within(mine).getByRole('button', { name: 'Edit' }))
    const editor = within(dialog).getByLabelText('Template mine (JSON)')
    fireEvent.change(editor, { target: { value: '{ not json' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save template' }))
    expect(await within(dialog).findByText(/This is not valid JSON/)).toBeVisible()
    expect(api.editTemplate).not.toHaveBeenCalled()
    const edited = { ...entry('mine', false).template, description: 'edited' }
    fireEvent.change(editor, { target: { value: JSON.stringify(edited) } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save template' }))
    expect(await within(dialog).findByRole('status')).toHaveTextContent(
      'Saved the template "mine".',
    )
    expect(api.editTemplate).toHaveBeenCalledWith({ previousName: 'mine', template: edited })

    const again = await within(dialog).findByTestId('template-mine')
    fireEvent.click(within(again).getByRole('button', { name: 'Delete' }))
    fireEvent.click(within(again).getByRole('button', { name: 'Delete mine for good' }))
    expect(await within(dialog).findByRole('status')).toHaveTextContent(
      'Deleted the template "mine".',
    )
    expect(api.deleteTemplate).toHaveBeenCalledWith({ name: 'mine' })
  })
})

describe('the Instructions dialog', () => {
  it('shows the files an agent is given with their sizes, and saves the team note', async () => {
    const api = fakeApi({ snapshot: snapshot({ members: [agentView('alice')] }) })
    api.getInstructions.mockResolvedValue({
      files: [
        {
          path: 'AGENTS.md',
          kind: 'agents',
          importedBy: null,
          bytes: 2048,
          shownChars: 2048,
          totalChars: 2048,
          problem: null,
        },
        {
          path: 'docs/huge.md',
          kind: 'import',
          importedBy: 'CLAUDE.md',
          bytes: 90_000,
          shownChars: 40_000,
          totalChars: 90_000,
          problem: null,
        },
        {
          path: '../secret.md',
          kind: 'import',
          importedBy: 'CLAUDE.md',
          bytes: 0,
          shownChars: 0,
          totalChars: 0,
          problem: 'outside the workspace (instructions are read only from inside it); not read',
        },
      ],
    })
    api.getTeamNote.mockResolvedValue({ text: 'Old note.', updatedAt: 1, problem: null })
    await renderApp(api)
    fireEvent.click(
      within(screen.getByTestId('roster-item-alice')).getByRole('button', { name: /^Open alice/ }),
    )
    await screen.findByRole('heading', { level: 1, name: 'alice' })
    fireEvent.click(screen.getByRole('button', { name: 'Instructions…' }))
    const dialog = await screen.findByRole('dialog', { name: 'Instructions of alice' })
    const files = await within(dialog).findByRole('list')
    expect(api.getInstructions).toHaveBeenCalledWith({ name: 'alice' })
    const items = within(files).getAllByRole('listitem')
    expect(items[0]).toHaveTextContent('AGENTS.md AGENTS.md 2.0 KB')
    expect(items[1]).toHaveTextContent(
      'imported by CLAUDE.md · cut: 40,000 of 90,000 characters shown',
    )
    expect(items[2]).toHaveTextContent('left out: outside the workspace')

    const note = within(dialog).getByLabelText('Team note (every member has it)')
    expect(note).toHaveValue('Old note.')
    const save = within(dialog).getByRole('button', { name: 'Save note' })
    expect(save).toBeDisabled()
    fireEvent.change(note, { target: { value: 'New note.' } })
    fireEvent.click(save)
    await vi.waitFor(() => expect(api.setTeamNote).toHaveBeenCalledWith({ text: 'New note.' }))
    await vi.waitFor(() => expect(save).toBeDisabled())
    await vi.waitFor(() => expect(api.getInstructions).toHaveBeenCalledTimes(2))
  })
})
