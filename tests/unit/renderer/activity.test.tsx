// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { TranscriptRecord } from '../../../src/shared/transcript'
import { ACTIVITY_TAIL } from '../../../src/renderer/store/queries'
import { agentView, fakeApi, snapshot } from './fake-api'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()

const base = { v: 1 as const, at: 1_700_000_000 }
const team = snapshot({ members: [agentView('alice'), agentView('bob')] })

/** alice's transcript as a reload finds it: a table and code in her reply, then a tool call. */
const alice: TranscriptRecord[] = [
  { ...base, seq: 1, kind: 'user', from: 'lead', text: 'Count the files' },
  {
    ...base,
    seq: 2,
    kind: 'assistant',
    message_id: 'a',
    model: 'm',
    stop_reason: 'tool_use',
    usage: { input_tokens: 1, output_tokens: 1 },
    content: [
      {
        type: 'text',
        text: 'Counted:\n\n| file | lines |\n| --- | --- |\n| a.ts | 12 |\n\n```js\nconst total = 12\n```',
      },
      {
        type: 'tool_use',
        id: 'w1',
        name: 'write_file',
        input: { path: 'counts.md', content: 'x' },
      },
    ],
  },
  {
    ...base,
    seq: 3,
    kind: 'tool-result',
    tool_use_id: 'w1',
    name: 'write_file',
    content: 'Wrote 1 bytes to counts.md',
    is_error: false,
  },
]

async function openActivity(transcripts: Record<string, TranscriptRecord[]>) {
  const api = fakeApi({ snapshot: team, transcripts })
  await renderApp(api)
  fireEvent.click(screen.getByRole('tab', { name: 'Activity' }))
  return api
}

describe('activity panes', () => {
  it('keep each agent’s last reply and tool call across a reload, from its transcript’s end', async () => {
    const api = await openActivity({ alice })
    const pane = screen.getByTestId('activity-pane-alice')
    await waitFor(() =>
      expect(pane.querySelector('.pane-tool-name')).toHaveTextContent('write_file'),
    )
    expect(pane.querySelector('.pane-tool')).toHaveTextContent('counts.md')
    expect(pane.querySelector('.pane-tool-state')).toHaveTextContent('done')
    expect(api.getTranscript).toHaveBeenCalledWith({ name: 'alice', last: ACTIVITY_TAIL })
    // bob has no transcript yet: his pane says so.
    expect(screen.getByTestId('activity-pane-bob')).toHaveTextContent('no tool call yet')
  })

  it('render the reply as Markdown: a table and highlighted code, no raw pipes or fences', async () => {
    await openActivity({ alice })
    const text = within(screen.getByTestId('activity-pane-alice')).getByTestId('pane-text')
    await waitFor(() => expect(text.querySelector('table')).not.toBeNull())
    expect(
      within(text)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['a.ts', '12'])
    await waitFor(() =>
      expect(text.querySelector('code.language-js .hljs-keyword')).toHaveTextContent('const'),
    )
    expect(text).not.toHaveTextContent('|')
    expect(text).not.toHaveTextContent('```')
  })

  it('render streamed Markdown too, and a streamed call replaces the one from the transcript', async () => {
    const api = await openActivity({ alice })
    const pane = screen.getByTestId('activity-pane-alice')
    await waitFor(() => expect(pane).toHaveTextContent('write_file'))
    act(() =>
      api.emit([
        { type: 'text-delta', agent: 'alice', text: 'Now **the tests**' },
        { type: 'tool-call-started', agent: 'alice', id: 'b1', name: 'bash' },
      ]),
    )
    await waitFor(() => expect(within(pane).getByText('the tests').tagName).toBe('STRONG'))
    expect(pane.querySelector('.pane-tool-name')).toHaveTextContent('bash')
  })

  it('render a reply streamed in small deltas as Markdown once it is in: no raw pipes or fences', async () => {
    const api = await openActivity({})
    const pane = screen.getByTestId('activity-pane-bob')
    const reply =
      'Counted:\n\n| file | lines |\n| --- | --- |\n| a.ts | 12 |\n\n```js\nconst total = 12\n```\n\nAll **done**.'
    // Three characters a delta, as a model streams: the pane is written a few times a second.
    for (let index = 0; index < reply.length; index += 3)
      act(() =>
        api.emit([{ type: 'text-delta', agent: 'bob', text: reply.slice(index, index + 3) }]),
      )
    const text = within(pane).getByTestId('pane-text')
    await waitFor(() => expect(within(text).getByText('done').tagName).toBe('STRONG'))
    expect(
      within(text)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['a.ts', '12'])
    expect(text.querySelector('code')).toHaveTextContent('const total = 12')
    expect(text).not.toHaveTextContent('|')
    expect(text).not.toHaveTextContent('```')
  })

  it('show an agent’s failure under its status, inside a pane laid out like the others', async () => {
    const api = fakeApi({
      snapshot: snapshot({ members: [agentView('alice', { status: 'error' }), agentView('bob')] }),
    })
    await renderApp(api)
    fireEvent.click(screen.getByRole('tab', { name: 'Activity' }))
    act(() =>
      api.emit([
        {
          type: 'agent-error',
          agent: 'alice',
          code: 'api-error',
          message: 'The endpoint said 500.',
        },
      ]),
    )
    const pane = screen.getByTestId('activity-pane-alice')
    expect(pane).toHaveClass('pane-error')
    // The message has a class of its own: sharing the pane's status class gave the pane its margins.
    expect(pane.querySelector('.pane-failure')).toHaveTextContent('The endpoint said 500.')
    expect(pane.querySelectorAll('.pane-error')).toHaveLength(0)
  })
  it('say how a failed command ended: a stopped one reads "stopped", not "error"', async () => {
    const stopped: TranscriptRecord[] = [
      { ...base, seq: 1, kind: 'user', from: 'user', text: 'Please run `sleep 60`' },
      {
        ...base,
        seq: 2,
        kind: 'assistant',
        message_id: 'b',
        model: 'm',
        stop_reason: 'tool_use',
        usage: { input_tokens: 1, output_tokens: 1 },
        content: [{ type: 'tool_use', id: 's1', name: 'bash', input: { command: 'sleep 60' } }],
      },
      {
        ...base,
        seq: 3,
        kind: 'tool-result',
        tool_use_id: 's1',
        name: 'bash',
        content: '(no output)\n[stopped]',
        is_error: true,
      },
    ]
    await openActivity({ alice: stopped })
    const pane = screen.getByTestId('activity-pane-alice')
    await waitFor(() => expect(pane.querySelector('.pane-tool-name')).toHaveTextContent('bash'))
    expect(pane.querySelector('.pane-tool-state')).toHaveTextContent('stopped')
  })
})
