// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ReviewDiff } from '../../../src/shared/worktree'
import { agentView, fakeApi, rejection, snapshot, taskOf } from './fake-api'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()

// jsdom has no canvas; the diff component measures its line-number column with one. A context
// that measures every character as 8 px wide stands in, the way a monospace font would.
beforeAll(() => {
  const context = { font: '', measureText: (text: string) => ({ width: text.length * 8 }) }
  HTMLCanvasElement.prototype.getContext = (() => context) as never
})

// Nor a ResizeObserver, which the comment widget's row uses to follow its height; this one
// never reports, as a browser would not for a row that does not resize.
beforeAll(() => {
  globalThis.ResizeObserver ??= class {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  } as never
})
afterAll(() => {
  Reflect.deleteProperty(globalThis, 'ResizeObserver')
})

const patch = [
  'diff --git a/src/app.ts b/src/app.ts',
  'index 1111111..2222222 100644',
  '--- a/src/app.ts',
  '+++ b/src/app.ts',
  '@@ -1,2 +1,2 @@',
  ' export const name = "app"',
  '-export const a = 1',
  '+export const a = 2',
  '',
].join('\n')

const aliceDiff: ReviewDiff = {
  name: 'alice',
  branch: 'team/alice',
  base: 'main',
  scope: 'branch',
  files: [{ path: 'src/app.ts', status: 'M', additions: 1, deletions: 1, oldPath: null, patch }],
  overlaps: { 'src/app.ts': ['bob'] },
}

const team = snapshot({
  members: [agentView('alice'), agentView('bob', { role: 'tester' })],
})

function api() {
  return fakeApi({
    snapshot: team,
    diffs: { alice: aliceDiff },
    worktrees: {
      available: true,
      defaultOn: true,
      teammates: [
        {
          name: 'alice',
          branch: 'team/alice',
          base: 'main',
          changedFiles: 1,
          overlaps: { 'src/app.ts': ['bob'] },
        },
        {
          name: 'bob',
          branch: 'team/bob',
          base: 'main',
          changedFiles: 3,
          overlaps: { 'src/app.ts': ['alice'] },
        },
      ],
    },
  })
}

async function openChanges(fake = api()) {
  await renderApp(fake)
  fireEvent.click(await screen.findByTestId('roster-branch-alice'))
  // The view is loaded on first use (a chunk of its own): the first wait covers the import.
  await screen.findByTestId('changes-file-src/app.ts', {}, { timeout: 10_000 })
  return fake
}

describe('the Changes view', () => {
  it('the roster shows each branch, its changed files and the overlap', async () => {
    await renderApp(api())
    const alice = await screen.findByTestId('roster-branch-alice')
    const [branch, overlap] = [...alice.querySelectorAll('.roster-branch-line')]
    expect(branch).toHaveTextContent('team/alice · 1 file changed')
    // The warning has a line of its own, so it is never cut short by the branch line.
    expect(overlap).toHaveTextContent('Overlaps bob on src/app.ts')
    expect(screen.getByTestId('roster-branch-bob')).toHaveTextContent('team/bob · 3 files changed')
  })

  it('shows the files against the base, the diff with its lines, and the overlap warning', async () => {
    const fake = await openChanges()
    expect(screen.getByTestId('changes-summary')).toHaveTextContent(
      'team/alice against main · 1 file changed',
    )
    expect(screen.getByRole('alert')).toHaveTextContent('src/app.ts is also changed by bob')
    const file = screen.getByTestId('changes-file-src/app.ts')
    expect(file).toHaveTextContent('export const a = 2')
    expect(file).toHaveTextContent('also changed by bob')
    // Last turn asks the runtime for that scope; Side by side redraws the same file.
    fireEvent.click(screen.getByRole('button', { name: 'Last turn' }))
    await waitFor(() =>
      expect(fake.getReviewDiff).toHaveBeenLastCalledWith({ name: 'alice', scope: 'turn' }),
    )
    fireEvent.click(screen.getByRole('button', { name: 'Side by side' }))
    expect(screen.getByTestId('changes-file-src/app.ts')).toHaveTextContent('export const a = 2')
  })

  it("scopes the diff to one of the teammate's tasks, listed from the board", async () => {
    const base = api()
    const fake = fakeApi({
      snapshot: snapshot({
        members: [agentView('alice'), agentView('bob', { role: 'tester' })],
        tasks: {
          tasks: [
            taskOf('1', { subject: 'Write the parser', status: 'review', owner: 'alice' }),
            taskOf('2', { subject: 'Test the parser', status: 'in_progress', owner: 'alice' }),
            taskOf('3', { subject: 'Bob only', status: 'in_progress', owner: 'bob' }),
          ],
          problems: [],
        },
      }),
      diffs: { alice: aliceDiff },
      worktrees: await base.getWorktrees({}),
    })
    await openChanges(fake)
    // "Task" starts on the task alice works on now; the list holds only alice's tasks.
    fireEvent.click(screen.getByRole('button', { name: 'Task' }))
    await waitFor(() =>
      expect(fake.getReviewDiff).toHaveBeenLastCalledWith({
        name: 'alice',
        scope: 'task',
        task: '2',
      }),
    )
    const list = screen.getByRole('combobox', { name: 'Which task' })
    expect(
      within(list)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['#1 Write the parser (review)', '#2 Test the parser (in progress)'])
    fireEvent.change(list, { target: { value: '1' } })
    await waitFor(() =>
      expect(fake.getReviewDiff).toHaveBeenLastCalledWith({
        name: 'alice',
        scope: 'task',
        task: '1',
      }),
    )
    expect(await screen.findByTestId('changes-summary')).toHaveTextContent('task #1')
    fireEvent.click(screen.getByRole('button', { name: 'Whole branch' }))
    await waitFor(() =>
      expect(fake.getReviewDiff).toHaveBeenLastCalledWith({ name: 'alice', scope: 'branch' }),
    )
  })

  it('says so when the diff is not exactly the scope asked for', async () => {
    const note = 'Where task #1 began was not recorded, so this is the whole branch up to now.'
    const fake = fakeApi({
      snapshot: team,
      diffs: { alice: { ...aliceDiff, scope: 'task', note } },
      worktrees: await api().getWorktrees({}),
    })
    await openChanges(fake)
    expect(screen.getByTestId('changes-note')).toHaveTextContent(note)
  })

  it("draws the diff in the page's theme, and follows a change of theme", async () => {
    await openChanges()
    const wrapper = () =>
      screen
        .getByTestId('changes-file-src/app.ts')
        .querySelector('[data-component="git-diff-view"]')
    expect(wrapper()).toHaveAttribute('data-theme', 'dark')
    document.documentElement.dataset['theme'] = 'light'
    try {
      await waitFor(() => expect(wrapper()).toHaveAttribute('data-theme', 'light'))
    } finally {
      delete document.documentElement.dataset['theme']
    }
  })

  it('a comment on a line goes to the teammate naming the file and the line', async () => {
    const fake = await openChanges()
    const file = screen.getByTestId('changes-file-src/app.ts')
    // The "+" beside each line of the new side; the third row is `+export const a = 2` (line 2).
    const widgets = file.querySelectorAll<HTMLButtonElement>('.diff-add-widget')
    expect(widgets.length).toBeGreaterThan(0)
    const row = [...file.querySelectorAll('tr')].find((candidate) =>
      candidate.textContent?.includes('export const a = 2'),
    )
    const plus = row?.querySelector<HTMLButtonElement>('.diff-add-widget')
    expect(plus).toBeTruthy()
    // The component opens its widget on mousedown, as a pointer press.
    if (plus) fireEvent.mouseDown(plus)
    const box = await screen.findByLabelText(/Comment to alice on src\/app.ts, line 2/)
    fireEvent.change(box, { target: { value: 'Why 2?' } })
    fireEvent.click(screen.getByRole('button', { name: 'Send comment' }))
    await screen.findByText(/Sent to alice/)
    expect(fake.commentOnLine).toHaveBeenCalledWith({
      name: 'alice',
      file: 'src/app.ts',
      line: 2,
      text: 'Why 2?',
    })
  })

  it('a merge with no task in review still refreshes the roster’s branch line', async () => {
    const fake = api()
    const merged = await fake.getWorktrees({})
    fake.mergeTeammate.mockResolvedValueOnce({
      outcome: 'merged',
      into: 'main',
      commit: 'abc1234',
      squash: false,
      files: ['src/app.ts'],
    })
    await openChanges(fake)
    fake.getWorktrees.mockResolvedValue({
      ...merged,
      teammates: merged.teammates.map((teammate) =>
        teammate.name === 'alice' ? { ...teammate, changedFiles: 0, overlaps: {} } : teammate,
      ),
    })
    fireEvent.click(screen.getByRole('button', { name: 'Accept: merge into main' }))
    await waitFor(() =>
      expect(screen.getByTestId('roster-branch-alice')).toHaveTextContent(
        'team/alice · 0 files changed',
      ),
    )
  })

  it('git branches moved by another process (branches-changed) refresh the branch lines', async () => {
    const fake = api()
    const before = await fake.getWorktrees({})
    await renderApp(fake)
    expect(await screen.findByTestId('roster-branch-alice')).toHaveTextContent(
      'team/alice · 1 file changed',
    )
    fake.getWorktrees.mockResolvedValue({
      ...before,
      teammates: before.teammates.map((teammate) =>
        teammate.name === 'alice' ? { ...teammate, changedFiles: 4, overlaps: {} } : teammate,
      ),
    })
    act(() => fake.emit([{ type: 'branches-changed' }]))
    await waitFor(() =>
      expect(screen.getByTestId('roster-branch-alice')).toHaveTextContent(
        'team/alice · 4 files changed',
      ),
    )
    expect(screen.getByTestId('roster-branch-alice')).not.toHaveTextContent('Overlaps')
  })

  it('a conflict lists its files and can be handed back; Reject sends the reason', async () => {
    const fake = api()
    fake.mergeTeammate.mockResolvedValueOnce({
      outcome: 'conflict',
      into: 'main',
      files: ['src/app.ts'],
    })
    await openChanges(fake)
    fireEvent.click(screen.getByRole('checkbox', { name: 'Squash into one commit' }))
    fireEvent.click(screen.getByRole('button', { name: 'Accept: merge into main' }))
    const conflict = await screen.findByText('Conflict')
    expect(fake.mergeTeammate).toHaveBeenCalledWith({ name: 'alice', squash: true })
    const panel = conflict.closest('.changes-conflict') as HTMLElement
    expect(panel).toHaveTextContent('src/app.ts')
    expect(panel).toHaveTextContent('Nothing was merged; main is as it was.')
    fireEvent.click(within(panel).getByRole('button', { name: 'Hand back to alice to resolve' }))
    await screen.findByText('Handed the conflict back to alice.')
    expect(fake.handBackConflict).toHaveBeenCalledWith({
      name: 'alice',
      into: 'main',
      files: ['src/app.ts'],
    })

    fireEvent.change(screen.getByLabelText('Reject, saying why'), {
      target: { value: 'Tests are missing.' },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }))
    await screen.findByText('Told alice its changes were not accepted.')
    expect(fake.rejectChanges).toHaveBeenCalledWith({ name: 'alice', reason: 'Tests are missing.' })
  })

  it('a merge says what landed; a teammate without a worktree says why there is nothing', async () => {
    const fake = api()
    fake.mergeTeammate.mockResolvedValueOnce({
      outcome: 'merged',
      into: 'main',
      commit: 'abcdef0123456789',
      squash: false,
      files: ['src/app.ts'],
    })
    await openChanges(fake)
    fireEvent.click(screen.getByRole('button', { name: 'Accept: merge into main' }))
    expect(await screen.findByText(/Merged into main \(abcdef0123\): src\/app.ts/)).toBeVisible()

    fake.getReviewDiff.mockRejectedValue(
      rejection(
        'no-worktree',
        'bob works in the shared workspace: it has no branch of its own to review.',
      ),
    )
    fireEvent.click(
      within(screen.getByTestId('roster-item-bob')).getByRole('button', { name: /Open bob/ }),
    )
    fireEvent.click(await screen.findByRole('tab', { name: 'Changes' }))
    expect(await screen.findByText(/bob works in the shared workspace/)).toBeVisible()
  })

  it('removing a teammate with unmerged work asks keep, merge or delete', async () => {
    const fake = api()
    fake.removeTeammate.mockRejectedValueOnce(
      rejection('unmerged-work', "alice's branch team/alice has work that main does not have."),
    )
    await renderApp(fake)
    fireEvent.click(
      within(screen.getByTestId('roster-item-alice')).getByRole('button', { name: 'Remove…' }),
    )
    fireEvent.click(await screen.findByRole('button', { name: 'Remove alice' }))
    expect(await screen.findByTestId('unmerged-work')).toHaveTextContent(
      'has work that main does not have',
    )
    fireEvent.click(screen.getByRole('button', { name: 'Keep the branch' }))
    await waitFor(() =>
      expect(fake.removeTeammate).toHaveBeenLastCalledWith({ name: 'alice', branch: 'keep' }),
    )
  })
})
