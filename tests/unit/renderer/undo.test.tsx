// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TranscriptRecord } from '../../../src/shared/transcript'
import type { UndoResult } from '../../../src/shared/undo'
import { agentView, fakeApi, rejection, snapshot, taskOf, type FakeApi } from './fake-api'
import { giveElementsASize } from './layout'
import { failOnConsoleErrors, renderApp } from './render-app'
import { checkpoint, plan, undoRecord } from './undo-fixtures'

failOnConsoleErrors()
giveElementsASize()

// jsdom has no canvas (the diff component measures its line numbers with one) and no
// ResizeObserver; stand-ins as changes.test.tsx has them.
beforeAll(() => {
  const context = { font: '', measureText: (text: string) => ({ width: text.length * 8 }) }
  HTMLCanvasElement.prototype.getContext = (() => context) as never
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
  'diff --git a/src/a.ts b/src/a.ts',
  '--- a/src/a.ts',
  '+++ b/src/a.ts',
  '@@ -1,1 +1,1 @@',
  '-export const a = 2',
  '+export const a = 1',
  '',
].join('\n')

const at = 1_700_000_000
const records: TranscriptRecord[] = [
  { v: 1, seq: 1, at, kind: 'user', from: 'lead', text: 'Write src/a.ts' },
  {
    v: 1,
    seq: 2,
    at,
    kind: 'assistant',
    message_id: 'm2',
    model: 'm',
    stop_reason: 'tool_use',
    usage: { input_tokens: 1, output_tokens: 1 },
    content: [
      { type: 'text', text: 'Writing the first version' },
      { type: 'tool_use', id: 'tu1', name: 'write_file', input: { path: 'src/a.ts' } },
    ],
  },
  {
    v: 1,
    seq: 3,
    at,
    kind: 'tool-result',
    tool_use_id: 'tu1',
    name: 'write_file',
    content: 'ok',
    is_error: false,
  },
  {
    v: 1,
    seq: 4,
    at,
    kind: 'assistant',
    message_id: 'm4',
    model: 'm',
    stop_reason: 'end_turn',
    usage: { input_tokens: 1, output_tokens: 1 },
    content: [{ type: 'text', text: 'Changed a to 2' }],
  },
]

const result: UndoResult = {
  undoId: 'undo-1',
  restored: ['src/a.ts'],
  kept: ['NOTES.md'],
  resetTo: null,
  summary: 'Restored 1 file to checkpoint 3; kept NOTES.md as you left it.',
}

function undoApi(transcript: TranscriptRecord[] = records): FakeApi {
  const fake = fakeApi({
    snapshot: snapshot({
      members: [agentView('alice')],
      tasks: {
        tasks: [taskOf('4', { subject: 'Write a', status: 'review', owner: 'alice' })],
        problems: [],
      },
    }),
    transcripts: { alice: transcript },
  })
  fake.listCheckpoints.mockResolvedValue({
    checkpoints: [checkpoint(1, 2, '4'), checkpoint(2, 4, '4')],
    policy: { maxPerAgent: 200, maxAgeDays: 14 },
    bytes: 4096,
  })
  fake.planUndo.mockResolvedValue(
    plan({
      target: { by: 'checkpoint', seq: 2 },
      files: [
        { path: 'src/a.ts', change: 'M', patch, changedBy: null },
        { path: 'NOTES.md', change: 'M', patch: '', changedBy: 'user' },
      ],
    }),
  )
  fake.applyUndo.mockResolvedValue(result)
  fake.redoUndo.mockResolvedValue({ ...result, undoId: 'undo-2', summary: 'Put src/a.ts back.' })
  return fake
}

async function openAlice(fake: FakeApi): Promise<HTMLElement> {
  window.history.replaceState(null, '', '/#/alice/chat')
  await renderApp(fake)
  const transcript = screen.getByTestId('transcript')
  await within(transcript).findByText('Changed a to 2')
  return transcript
}

describe('undo from the transcript', () => {
  it('offers "Undo this turn and after" on a checkpointed turn, shows the plan, undoes, redoes', async () => {
    const fake = undoApi()
    const transcript = await openAlice(fake)
    // Checkpoint 2 was taken before record 4: its row offers the undo (and so does record 2's).
    const buttons = await within(transcript).findAllByRole('button', {
      name: 'Undo this turn and after',
    })
    expect(buttons).toHaveLength(2)
    fireEvent.click(buttons[1]!)

    const dialog = await screen.findByRole('dialog', {
      name: "Undo alice's turn and what followed",
    })
    expect(fake.planUndo).toHaveBeenCalledWith({
      name: 'alice',
      target: { by: 'checkpoint', seq: 2 },
    })
    const mine = await within(dialog).findByTestId('undo-file-src/a.ts')
    expect(mine).toHaveTextContent('restored')
    // The diff, drawn by Changes' diff component: the line it brings back.
    expect(mine).toHaveTextContent('export const a = 1')
    const flagged = within(dialog).getByTestId('undo-file-NOTES.md')
    expect(flagged).toHaveTextContent('changed by you since')
    const overwrite = within(flagged).getByRole('checkbox', { name: 'Overwrite anyway' })
    expect(overwrite).not.toBeChecked()
    // Kept while unticked; ticked, it says what the undo does to it.
    expect(flagged).toHaveTextContent('kept')
    fireEvent.click(overwrite)
    expect(flagged).toHaveTextContent('restored')
    fireEvent.click(overwrite)
    expect(within(dialog).getByTestId('undo-turns')).toHaveTextContent(
      'Transcript entries #12–#20 will be marked Undone',
    )

    // Undo, as planned, without the flagged file.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Undo' }))
    expect(await within(dialog).findByTestId('undo-undone')).toHaveTextContent(result.summary)
    expect(fake.applyUndo).toHaveBeenCalledWith({
      name: 'alice',
      target: { by: 'checkpoint', seq: 2 },
      planId: 'plan-1',
    })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Redo' }))
    expect(await within(dialog).findByTestId('undo-redone')).toHaveTextContent('Put src/a.ts back.')
    expect(fake.redoUndo).toHaveBeenCalledWith({ name: 'alice', undoId: 'undo-1' })
  })

  it('overwrites a flagged file only when ticked, and tells the agent why', async () => {
    const fake = undoApi()
    const transcript = await openAlice(fake)
    fireEvent.click(
      (await within(transcript).findAllByRole('button', { name: 'Undo this turn and after' }))[0]!,
    )
    const dialog = await screen.findByRole('dialog')
    fireEvent.click(await within(dialog).findByRole('checkbox', { name: 'Overwrite anyway' }))
    fireEvent.change(within(dialog).getByLabelText('Tell alice why (optional)'), {
      target: { value: 'It broke the build' },
    })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Undo' }))
    await within(dialog).findByTestId('undo-undone')
    expect(fake.applyUndo).toHaveBeenCalledWith(
      expect.objectContaining({
        planId: 'plan-1',
        overwrite: ['NOTES.md'],
        reason: 'It broke the build',
      }),
    )
  })

  it('disables Undo when the commits cannot be reset, with the reason and the way out', async () => {
    const fake = undoApi()
    const reason = 'main holds them (a merge). Revert them with a revert commit instead.'
    fake.planUndo.mockResolvedValue(plan({ commits: { count: 2, action: 'refused', reason } }))
    const transcript = await openAlice(fake)
    fireEvent.click(
      (await within(transcript).findAllByRole('button', { name: 'Undo this turn and after' }))[0]!,
    )
    const dialog = await screen.findByRole('dialog')
    expect(await within(dialog).findByTestId('undo-refusal')).toHaveTextContent(reason)
    const undo = within(dialog).getByRole('button', { name: 'Undo' })
    expect(undo).toBeDisabled()
    expect(undo).toHaveAttribute('title', expect.stringMatching(/cannot be reset/))
    // Nothing to tell the agent: nothing will be undone.
    expect(within(dialog).queryByLabelText('Tell alice why (optional)')).toBeNull()
  })

  it('says when things moved since the plan, and plans again', async () => {
    const fake = undoApi()
    fake.applyUndo.mockRejectedValueOnce(
      rejection('plan-outdated', 'alice’s files changed since this plan was made: plan again.'),
    )
    const transcript = await openAlice(fake)
    fireEvent.click(
      (await within(transcript).findAllByRole('button', { name: 'Undo this turn and after' }))[0]!,
    )
    const dialog = await screen.findByRole('dialog')
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Undo' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('changed since this plan')
    expect(within(dialog).getByTestId('undo-outdated')).toHaveTextContent('nothing was undone')
    expect(within(dialog).getByRole('button', { name: 'Undo' })).toBeDisabled()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Plan again' }))
    await waitFor(() => expect(fake.planUndo).toHaveBeenCalledTimes(2))
    const again = await within(dialog).findByRole('button', { name: 'Undo' })
    await waitFor(() => expect(again).toBeEnabled())
  })

  it('marks undone entries with a badge and the undo’s time; a redo clears the mark', async () => {
    const notice: TranscriptRecord = {
      v: 1,
      seq: 6,
      at,
      kind: 'inbox',
      end: { segment: 1, offset: 200 },
      messages: [
        {
          id: 'n1',
          type: 'message',
          from: 'user',
          content: 'The person undid your work from transcript record #2 to #4.',
          timestamp: at,
          extra: { undo: { id: 'undo-1' } },
        },
      ],
    }
    const undone = [...records, undoRecord(5, 'undo-1', 2, 4), notice]
    const fake = undoApi(undone)
    const transcript = await openAlice(fake)
    const badge = await within(transcript).findByTestId('undone-badge')
    expect(badge).toHaveTextContent('Undone')
    expect(badge).toHaveTextContent('entries #2–#4')
    expect(badge.querySelector('time')).toHaveAttribute(
      'dateTime',
      new Date(1_700_000_005_000).toISOString(),
    )
    expect(transcript.querySelectorAll('[data-undone="true"]').length).toBeGreaterThanOrEqual(2)
    // The notice the undo sent is told apart among the mail.
    expect(within(transcript).getByText('undo notice')).toBeInTheDocument()
    // The undo's own line, with Redo; undone turns are not offered for undo again.
    expect(within(transcript).getByTestId('undo-line')).toHaveTextContent('You undid entries #2–#4')
    expect(
      within(transcript).queryByRole('button', { name: 'Undo this turn and after' }),
    ).toBeNull()
    fireEvent.click(within(badge).getByRole('button', { name: 'Redo' }))
    await waitFor(() =>
      expect(fake.redoUndo).toHaveBeenCalledWith({ name: 'alice', undoId: 'undo-1' }),
    )

    // The redo's record lands: entries #2–#4 are no longer undone. (The redo's own range, the
    // undo's line, is: the redo undid the undo.)
    act(() =>
      fake.emit([
        {
          type: 'transcript-appended',
          agent: 'alice',
          record: undoRecord(7, 'undo-2', 5, 6, 'undo-1'),
        },
      ]),
    )
    await waitFor(() =>
      expect(within(transcript).getByText('Changed a to 2').closest('[data-undone]')).toBeNull(),
    )
    expect(
      within(transcript).getByText('Writing the first version').closest('[data-undone]'),
    ).toBeNull()
    expect(within(transcript).getByTestId('undone-badge')).toHaveTextContent('by a redo, You')
    expect(within(transcript).getAllByTestId('undo-line')[0]).toHaveTextContent('(redone since)')
  })
})

describe('undo in Changes, on the board and in Settings', () => {
  it('Changes: "Undo last turn", and "Undo task…" when a task is shown', async () => {
    const fake = undoApi()
    fake.getReviewDiff.mockResolvedValue({
      name: 'alice',
      branch: 'team/alice',
      base: 'main',
      scope: 'branch',
      files: [],
      overlaps: {},
    })
    await openAlice(fake)
    fireEvent.click(screen.getByRole('tab', { name: 'Changes' }))
    const last = await screen.findByRole('button', { name: 'Undo last turn' }, { timeout: 10_000 })
    await waitFor(() => expect(last).toBeEnabled())
    expect(screen.queryByRole('button', { name: /Undo task/ })).toBeNull()
    fireEvent.click(last)
    await screen.findByRole('dialog', { name: "Undo alice's last turn" })
    expect(fake.planUndo).toHaveBeenCalledWith({ name: 'alice', target: { by: 'turns', turns: 1 } })
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))

    fireEvent.click(screen.getByRole('button', { name: 'Task' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Undo task #4…' }))
    await screen.findByRole('dialog', { name: "Undo alice's changes for task #4" })
    expect(fake.planUndo).toHaveBeenLastCalledWith({
      name: 'alice',
      target: { by: 'task', task: '4' },
    })
  })

  it('is off, saying why, for an agent without checkpoints', async () => {
    const fake = undoApi()
    fake.listCheckpoints.mockResolvedValue({
      checkpoints: [],
      policy: { maxPerAgent: 200, maxAgeDays: 14 },
      bytes: 0,
    })
    const transcript = await openAlice(fake)
    expect(
      within(transcript).queryByRole('button', { name: 'Undo this turn and after' }),
    ).toBeNull()
    fireEvent.click(screen.getByRole('tab', { name: 'Board' }))
    fireEvent.click(
      within(await screen.findByTestId('task-card-4', {}, { timeout: 10_000 })).getByRole(
        'button',
        {
          name: /Write a/,
        },
      ),
    )
    const undo = within(screen.getByTestId('task-detail')).getByRole('button', {
      name: 'Undo this task’s changes',
    })
    await waitFor(() =>
      expect(undo).toHaveAttribute('title', expect.stringMatching(/no checkpoints/)),
    )
    expect(undo).toBeDisabled()
  })

  it("the board: a task's detail undoes its owner's changes for it", async () => {
    const fake = undoApi()
    await renderApp(fake)
    fireEvent.click(screen.getByRole('tab', { name: 'Board' }))
    fireEvent.click(
      within(await screen.findByTestId('task-card-4', {}, { timeout: 10_000 })).getByRole(
        'button',
        {
          name: /Write a/,
        },
      ),
    )
    const undo = within(screen.getByTestId('task-detail')).getByRole('button', {
      name: 'Undo this task’s changes',
    })
    await waitFor(() => expect(undo).toBeEnabled())
    fireEvent.click(undo)
    expect(screen.queryByTestId('task-detail')).toBeNull()
    await screen.findByRole('dialog', { name: "Undo alice's changes for task #4" })
    expect(fake.planUndo).toHaveBeenCalledWith({ name: 'alice', target: { by: 'task', task: '4' } })
  })

  it('Settings: shows the checkpoint policy and the disk use, and saves a new policy', async () => {
    const fake = undoApi()
    fake.setCheckpointPolicy.mockImplementation(async (policy: unknown) => policy)
    await renderApp(fake)
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }))
    const section = await screen.findByRole('group', { name: 'Checkpoints for undo' })
    // lead and alice, 4 KB each.
    expect(await within(section).findByTestId('checkpoint-disk')).toHaveTextContent(
      '4 checkpoints take about 8.0 KB on disk',
    )
    const count = within(section).getByLabelText(/Keep at most/)
    expect(count).toHaveValue('200')
    const save = within(section).getByRole('button', { name: 'Save checkpoint policy' })
    expect(save).toBeDisabled()
    fireEvent.change(count, { target: { value: '0' } })
    expect(within(section).getByRole('alert')).toHaveTextContent('a whole number from 1')
    expect(save).toBeDisabled()
    fireEvent.change(count, { target: { value: '50' } })
    fireEvent.change(within(section).getByLabelText(/for at most/), { target: { value: '3' } })
    fireEvent.click(save)
    await within(section).findByText('Saved.')
    expect(fake.setCheckpointPolicy).toHaveBeenCalledWith({ maxPerAgent: 50, maxAgeDays: 3 })
  })
})
