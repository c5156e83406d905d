// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react'
import { beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_REACTIONS, type CheckResult } from '../../../src/shared/reactions'
import { agentView, fakeApi, snapshot } from './fake-api'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()

beforeAll(() => {
  const context = { font: '', measureText: (text: string) => ({ width: text.length * 8 }) }
  HTMLCanvasElement.prototype.getContext = (() => context) as never
})

const failed: CheckResult = {
  agent: 'alice',
  state: 'failed',
  commit: '3f2a1c9d0e5b7a8c9d0e1f2a3b4c5d6e7f8a9b0c',
  command: 'npm test',
  started_at: 1_700_000_000,
  ended_at: 1_700_000_004,
  exit_code: 1,
  summary: 'failed (exit 1)',
  output_tail: 'FAIL src/app.test.ts\n  expected 2, got 1',
}

function api() {
  return fakeApi({
    snapshot: snapshot({ members: [agentView('alice')] }),
    diffs: {
      alice: {
        name: 'alice',
        branch: 'team/alice',
        base: 'main',
        scope: 'branch',
        files: [],
        overlaps: {},
      },
    },
    worktrees: {
      available: true,
      defaultOn: true,
      teammates: [
        {
          name: 'alice',
          branch: 'team/alice',
          base: 'main',
          changedFiles: 1,
          overlaps: {},
          check: failed,
        },
      ],
    },
    reactions: {
      config: { ...DEFAULT_REACTIONS, check: { command: 'npm test', timeout_seconds: 600 } },
      problem: null,
      trusted: true,
      counts: { check: 4, nudge: 2, escalate: 1, conflict: 0, fold: 3 },
      unreadable_lines: 0,
      checks: [failed],
    },
  })
}

describe('reactions in the window', () => {
  it('Settings shows them with their counts, and saves a change on its own', async () => {
    const fake = api()
    await renderApp(fake)
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }))
    const dialog = await screen.findByRole('dialog', { name: 'Settings' })
    const field = within(dialog).getByRole('group', { name: 'Reactions' })
    expect(await within(field).findByLabelText('Check command')).toHaveValue('npm test')
    expect(within(field).getByTestId('reaction-counts')).toHaveTextContent(
      'So far: check 4 · nudge 2 · escalate 1 · conflict 0 · fold 3',
    )
    expect(within(field).getByText(/failed \(exit 1\) on 3f2a1c9d0/)).toBeInTheDocument()

    fireEvent.change(within(field).getByLabelText('Check command'), {
      target: { value: 'npm run check' },
    })
    fireEvent.change(within(field).getAllByLabelText('after')[0] as HTMLElement, {
      target: { value: '15m' },
    })
    fireEvent.click(within(field).getByLabelText('Send a merge conflict to the branch owner'))
    await act(async () => {
      fireEvent.click(within(field).getByRole('button', { name: 'Save reactions' }))
    })
    expect(fake.setReactions).toHaveBeenCalledWith({
      check: { command: 'npm run check', timeout_seconds: 600 },
      stall: { on: true, after_seconds: 900 },
      idle_task: { on: true, after_seconds: 600 },
      escalate_after_seconds: 600,
      conflicts: false,
    })
    expect(within(field).getByText('Saved.')).toBeInTheDocument()
    expect(fake.saveSettings).not.toHaveBeenCalled()
  })

  it('a duration that is not one is refused before anything is sent', async () => {
    const fake = api()
    await renderApp(fake)
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }))
    const dialog = await screen.findByRole('dialog', { name: 'Settings' })
    const field = within(dialog).getByRole('group', { name: 'Reactions' })
    fireEvent.change(await within(field).findByLabelText('killed after'), {
      target: { value: 'soon' },
    })
    fireEvent.click(within(field).getByRole('button', { name: 'Save reactions' }))
    expect(within(field).getByText(/The check timeout is a duration/)).toBeInTheDocument()
    expect(fake.setReactions).not.toHaveBeenCalled()
  })

  it('the branch line shows the last check, and Changes its output on demand', async () => {
    await renderApp(api())
    const line = await screen.findByTestId('roster-branch-alice')
    expect(within(line).getByTestId('roster-check')).toHaveTextContent('check failed (3f2a1c9)')
    fireEvent.click(line)
    const check = await screen.findByTestId('changes-check', {}, { timeout: 10_000 })
    expect(check).toHaveTextContent('Check npm test: failed (exit 1) on 3f2a1c9d0')
    fireEvent.click(within(check).getByText('The end of its output'))
    expect(within(check).getByText(/expected 2, got 1/)).toBeInTheDocument()
  })
})
