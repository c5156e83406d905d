// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { agentView, fakeApi, snapshot, taskOf } from './fake-api'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()

const tasks = [
  taskOf('1', { subject: 'Write the parser' }),
  taskOf('2', { subject: 'Test the parser', blocked_by: ['1'] }),
]
const team = snapshot({
  members: [agentView('alice', { role: 'coder' }), agentView('bob', { role: 'tester' })],
  tasks: { tasks, problems: [] },
})

async function openBoard() {
  const api = fakeApi({ snapshot: team })
  await renderApp(api)
  fireEvent.click(screen.getByRole('tab', { name: 'Board' }))
  return api
}

const column = (name: string) => screen.getByRole('region', { name })

describe('the Board view', () => {
  it('shows a column per status with its cards, and follows tasks-changed live', async () => {
    const api = await openBoard()
    expect(screen.getByRole('heading', { name: 'Task board' })).toBeInTheDocument()
    const pending = column('Pending')
    expect(within(pending).getByText('Write the parser')).toBeInTheDocument()
    expect(within(pending).getByText('after #1 (waiting on #1)')).toBeInTheDocument()
    expect(within(column('In progress')).queryByText('Write the parser')).toBeNull()

    act(() =>
      api.emit([
        {
          type: 'tasks-changed',
          board: {
            tasks: [
              taskOf('1', { subject: 'Write the parser', status: 'in_progress', owner: 'alice' }),
              tasks[1]!,
            ],
            problems: [
              {
                file: '/w/.team/tasks/3.json',
                message: 'Task file 3.json is skipped: it is not valid JSON.',
              },
            ],
          },
        },
      ]),
    )
    const moved = within(column('In progress')).getByTestId('task-card-1')
    expect(moved).toHaveTextContent('alice')
    expect(moved).toHaveTextContent('In progress')
    expect(within(column('Pending')).queryByText('Write the parser')).toBeNull()
    expect(screen.getByRole('alert')).toHaveTextContent('3.json is skipped')
    // The roster says what alice is on.
    expect(screen.getByTestId('roster-task-alice')).toHaveTextContent('#1 Write the parser')
  })

  it('creates a task by hand, refusing an id that is not one', async () => {
    const api = await openBoard()
    fireEvent.click(screen.getByRole('button', { name: '+ New task' }))
    const dialog = screen.getByRole('dialog', { name: 'New task' })
    fireEvent.change(within(dialog).getByLabelText('Subject'), { target: { value: ' Ship it ' } })
    fireEvent.change(within(dialog).getByLabelText('Blocked by'), { target: { value: '#2, x' } })
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Create task' }))
    })
    expect(api.createTask).not.toHaveBeenCalled()
    expect(dialog).toHaveTextContent('"x": task ids are whole numbers')

    fireEvent.change(within(dialog).getByLabelText('Blocked by'), { target: { value: '#2' } })
    fireEvent.change(within(dialog).getByLabelText('Owner'), { target: { value: 'bob' } })
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Create task' }))
    })
    expect(api.createTask).toHaveBeenCalledWith({
      subject: 'Ship it',
      description: '',
      blockedBy: ['2'],
      owner: 'bob',
    })
    expect(screen.queryByRole('dialog', { name: 'New task' })).toBeNull()
  })

  it('assigns a task from its menu', async () => {
    const api = await openBoard()
    await act(async () => {
      fireEvent.change(screen.getByLabelText('Assign task 1'), { target: { value: 'bob' } })
    })
    expect(api.updateTask).toHaveBeenCalledWith({ id: '1', owner: 'bob' })
  })

  it('opens a task with its linked messages and turns, and edits it', async () => {
    const linked = taskOf('1', {
      subject: 'Write the parser',
      status: 'done',
      owner: 'alice',
      result: 'Parser written, 12 tests.',
      links: [
        { kind: 'message', id: 'm-1', summary: 'alice → lead: I claimed task #1' },
        { kind: 'turn', agent: 'alice', seq: 4 },
      ],
      notes: [{ at: 1_700_000_100, by: 'alice', text: 'claimed by alice' }],
    })
    const api = fakeApi({
      snapshot: snapshot({
        members: [agentView('alice')],
        tasks: { tasks: [linked], problems: [] },
      }),
    })
    await renderApp(api)
    fireEvent.click(screen.getByRole('tab', { name: 'Board' }))
    fireEvent.click(
      within(screen.getByTestId('task-card-1')).getByRole('button', { name: /Write the parser/ }),
    )
    const detail = screen.getByTestId('task-detail')
    expect(detail).toHaveTextContent('Parser written, 12 tests.')
    expect(detail).toHaveTextContent('alice → lead: I claimed task #1')
    expect(detail).toHaveTextContent('claimed by alice')
    expect(within(detail).getByRole('button', { name: 'alice, turn 4' })).toBeInTheDocument()

    fireEvent.click(within(detail).getByRole('button', { name: 'Edit' }))
    const form = screen.getByRole('dialog', { name: 'Edit task #1' })
    fireEvent.change(within(form).getByLabelText('Status'), { target: { value: 'review' } })
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: 'Save' }))
    })
    expect(api.updateTask).toHaveBeenCalledWith({
      id: '1',
      subject: 'Write the parser',
      description: '',
      blockedBy: [],
      owner: 'alice',
      status: 'review',
    })
  })

  it("a task's Changes opens its owner's changes scoped to that task", async () => {
    const owned = taskOf('1', { subject: 'Write the parser', status: 'review', owner: 'alice' })
    const api = fakeApi({
      snapshot: snapshot({
        members: [agentView('alice')],
        tasks: { tasks: [owned], problems: [] },
      }),
      diffs: {
        alice: {
          name: 'alice',
          branch: 'team/alice',
          base: 'main',
          scope: 'task',
          files: [],
          overlaps: {},
        },
      },
    })
    await renderApp(api)
    fireEvent.click(screen.getByRole('tab', { name: 'Board' }))
    fireEvent.click(
      within(screen.getByTestId('task-card-1')).getByRole('button', { name: /Write the parser/ }),
    )
    fireEvent.click(
      within(screen.getByTestId('task-detail')).getByRole('button', { name: 'Changes' }),
    )
    expect(
      await screen.findByRole('region', { name: "alice's changes" }, { timeout: 10_000 }),
    ).toBeInTheDocument()
    expect(screen.queryByTestId('task-detail')).toBeNull()
    expect(api.getReviewDiff).toHaveBeenCalledWith({ name: 'alice', scope: 'task', task: '1' })
    expect(api.getReviewDiff).not.toHaveBeenCalledWith({ name: 'alice', scope: 'branch' })
    expect(await screen.findByText('alice changed nothing for task #1.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Task' })).toHaveAttribute('aria-pressed', 'true')
    // Asked once: the view does not fetch the same task diff a second time as it takes it.
    expect(api.getReviewDiff).toHaveBeenCalledTimes(1)

    // The task was taken once: back on the tab later, the view opens on the whole branch.
    fireEvent.click(screen.getByRole('tab', { name: 'Transcript' }))
    fireEvent.click(screen.getByRole('tab', { name: 'Changes' }))
    await waitFor(() =>
      expect(api.getReviewDiff).toHaveBeenLastCalledWith({ name: 'alice', scope: 'branch' }),
    )
  })

  it('the spawn dialog turns auto-claim on', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    fireEvent.click(screen.getByRole('button', { name: '+ Spawn teammate' }))
    const dialog = screen.getByRole('dialog')
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'carol' } })
    fireEvent.change(within(dialog).getByLabelText('Role'), { target: { value: 'tester' } })
    fireEvent.change(within(dialog).getByLabelText('First prompt'), { target: { value: 'Wait.' } })
    fireEvent.click(within(dialog).getByLabelText(/Auto-claim tasks/))
    await act(async () => {
      fireEvent.submit(dialog.querySelector('form')!)
    })
    expect(api.spawn).toHaveBeenCalledWith(
      expect.objectContaining({ name: 'carol', role: 'tester', autoClaim: true }),
    )
  })
})
