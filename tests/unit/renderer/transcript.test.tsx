// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { TranscriptRecord } from '../../../src/shared/transcript'
import { agentView, fakeApi, snapshot } from './fake-api'
import { giveElementsASize } from './layout'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()

giveElementsASize()

const base = { v: 1 as const, at: 1_700_000_000 }
const records: TranscriptRecord[] = [
  { ...base, seq: 1, kind: 'user', from: 'user', text: 'Build it' },
  {
    ...base,
    seq: 2,
    kind: 'inbox',
    end: { segment: 1, offset: 90 },
    messages: [
      {
        id: 'q',
        type: 'message',
        from: 'bob',
        content: 'tests pass',
        timestamp: 1_700_000_000,
        extra: {},
      },
    ],
  },
  {
    ...base,
    seq: 3,
    kind: 'assistant',
    message_id: 'a',
    model: 'm',
    stop_reason: 'tool_use',
    usage: { input_tokens: 1, output_tokens: 1 },
    content: [
      { type: 'text', text: 'Running **the tests**' },
      { type: 'tool_use', id: 'tu1', name: 'bash', input: { command: 'node --test' } },
      { type: 'tool_use', id: 'tu2', name: 'read_file', input: { path: 'missing.txt' } },
    ],
  },
  {
    ...base,
    seq: 4,
    kind: 'tool-result',
    tool_use_id: 'tu1',
    name: 'bash',
    content: 'pass 4',
    is_error: false,
  },
  {
    ...base,
    seq: 5,
    kind: 'tool-result',
    tool_use_id: 'tu2',
    name: 'read_file',
    content: 'ENOENT',
    is_error: true,
  },
  { ...base, seq: 6, kind: 'status', status: 'error', reason: 'HTTP 500 from the API' },
]

describe('the transcript', () => {
  it('renders turns, inbox injections, Markdown, and tool calls paired with their results', async () => {
    await renderApp(fakeApi({ transcripts: { lead: records } }))
    const transcript = screen.getByTestId('transcript')

    expect(await within(transcript).findByText('Build it')).toBeInTheDocument()
    expect(within(transcript).getByText('From bob:')).toBeInTheDocument()
    expect(within(transcript).getByText('tests pass')).toBeInTheDocument()
    expect(within(transcript).getByText('the tests').tagName).toBe('STRONG')
    expect(within(transcript).getByText('HTTP 500 from the API')).toBeInTheDocument()

    const [bash, read] = within(transcript).getAllByTestId('tool-card')
    expect(bash).toHaveTextContent('node --test')
    expect(within(bash!).getByTestId('exit-code')).toHaveTextContent('exit 0')
    expect(bash).not.toHaveTextContent('pass 4') // collapsed
    fireEvent.click(within(bash!).getByRole('button', { expanded: false }))
    expect(bash).toHaveTextContent('pass 4')

    expect(read).toHaveClass('tool-failed')
    expect(read).toHaveTextContent('ENOENT') // errors open by themselves
  })

  it('calls the person "You" in a teammate’s transcript, not "user"', async () => {
    const broadcast: TranscriptRecord = {
      ...base,
      seq: 1,
      kind: 'inbox',
      end: { segment: 1, offset: 90 },
      messages: [
        { id: 'b', type: 'broadcast', from: 'user', content: 'all hands', timestamp: 1, extra: {} },
      ],
    }
    await renderApp(fakeApi({ transcripts: { lead: [broadcast] } }))
    const transcript = screen.getByTestId('transcript')
    expect(await within(transcript).findByText('From You:')).toBeInTheDocument()
    expect(within(transcript).queryByText('From user:')).not.toBeInTheDocument()
  })

  it('collapses a long paste with Show more, and opens and closes it', async () => {
    const paste = Array.from({ length: 1000 }, (_, line) => `line ${line} ${'x'.repeat(40)}`)
    const text = paste.join('\n') // about 50 KB
    await renderApp(
      fakeApi({ transcripts: { lead: [{ ...base, seq: 1, kind: 'user', from: 'user', text }] } }),
    )
    const transcript = screen.getByTestId('transcript')
    const more = await within(transcript).findByRole('button', { name: /Show more/ })
    const shown = () => transcript.querySelector('.turn-text')?.textContent ?? ''
    expect(shown()).toContain('line 0 ')
    expect(shown()).not.toContain('line 999 ')
    expect(shown().length).toBeLessThan(2000)
    fireEvent.click(more)
    expect(shown()).toContain('line 999 ')
    fireEvent.click(within(transcript).getByRole('button', { name: 'Show less' }))
    expect(shown()).not.toContain('line 999 ')
  })

  it('keeps a reply the person stopped, marked as stopped', async () => {
    const stopped: TranscriptRecord[] = [
      { ...base, seq: 1, kind: 'user', from: 'user', text: 'Write a long answer' },
      {
        ...base,
        seq: 2,
        kind: 'assistant',
        message_id: 'a',
        model: 'm',
        stop_reason: 'interrupted',
        usage: { input_tokens: 300, output_tokens: 9 },
        usage_estimated: true,
        content: [{ type: 'text', text: 'The first part of' }],
      },
      { ...base, seq: 3, kind: 'status', status: 'idle', reason: 'stopped by the person' },
    ]
    await renderApp(fakeApi({ transcripts: { lead: stopped } }))
    const transcript = screen.getByTestId('transcript')
    expect(await within(transcript).findByText('The first part of')).toBeInTheDocument()
    expect(within(transcript).getByText('stopped')).toHaveAttribute(
      'title',
      expect.stringMatching(/You stopped this reply/),
    )
  })

  it('streams text and tool input live, then shows the recorded turn instead', async () => {
    const api = fakeApi({
      snapshot: snapshot({ lead: agentView('lead', { status: 'working', running: true }) }),
      transcripts: { lead: records.slice(0, 1) },
    })
    await renderApp(api)
    const transcript = screen.getByTestId('transcript')
    await within(transcript).findByText('Build it')

    act(() =>
      api.emit([
        { type: 'text-delta', agent: 'lead', text: 'Thinking about ' },
        { type: 'text-delta', agent: 'lead', text: 'it' },
        { type: 'tool-call-started', agent: 'lead', id: 'tx', name: 'spawn_teammate' },
        { type: 'tool-input-delta', agent: 'lead', id: 'tx', partial_json: '{"name": "alice"' },
      ]),
    )
    expect(within(transcript).getByText('Thinking about it')).toBeInTheDocument()
    expect(within(transcript).getByText('streaming')).toBeInTheDocument()
    expect(within(transcript).getByTestId('tool-card')).toHaveTextContent('writing input…')

    act(() =>
      api.emit([
        {
          type: 'transcript-appended',
          agent: 'lead',
          record: {
            ...base,
            seq: 2,
            kind: 'assistant',
            message_id: 'b',
            model: 'm',
            stop_reason: 'tool_use',
            usage: { input_tokens: 1, output_tokens: 1 },
            content: [
              { type: 'text', text: 'Thinking about it' },
              { type: 'tool_use', id: 'tx', name: 'spawn_teammate', input: { name: 'alice' } },
            ],
          },
        },
      ]),
    )
    expect(within(transcript).queryByText('streaming')).not.toBeInTheDocument()
    expect(within(transcript).getAllByText('Thinking about it')).toHaveLength(1)
    expect(within(transcript).getByTestId('tool-card')).toHaveTextContent('running…')
  })

  it('dates the person’s own message from its record, in seconds, like the inbox', async () => {
    // A real run's user turn showed "Jan 21, 06:56 PM": seconds read as milliseconds.
    const sent = new Date()
    sent.setHours(9, 30, 15, 0)
    const seconds = sent.getTime() / 1000
    const api = fakeApi({
      transcripts: {
        lead: [
          { v: 1, seq: 1, at: seconds, kind: 'user', from: 'user', text: 'hello team' },
          {
            v: 1,
            seq: 2,
            at: seconds + 60,
            kind: 'inbox',
            end: { segment: 1, offset: 10 },
            messages: [
              {
                id: 'm',
                type: 'message',
                from: 'bob',
                content: 'hi',
                timestamp: seconds + 30,
                extra: {},
              },
            ],
          },
        ],
      },
    })
    await renderApp(api)
    const turn = (await screen.findByText('hello team')).closest('.turn') as HTMLElement
    const time = turn.querySelector('time') as HTMLTimeElement
    expect(time).toHaveAttribute('dateTime', sent.toISOString())
    expect(time.textContent).toMatch(/09:30:15|9:30:15/)
    expect(time.textContent).not.toMatch(/Jan|1970/)
    const injected = screen.getByText('hi').closest('.injected') as HTMLElement
    expect(injected.querySelector('time')).toHaveAttribute(
      'dateTime',
      new Date(sent.getTime() + 30_000).toISOString(),
    )
  })

  it('loads the latest page of a long transcript first', async () => {
    const long: TranscriptRecord[] = Array.from({ length: 1200 }, (_, index) => ({
      ...base,
      seq: index + 1,
      kind: 'user' as const,
      from: 'user',
      text: `message ${index + 1}`,
    }))
    const api = fakeApi({ transcripts: { lead: long } })
    await renderApp(api)
    const transcript = screen.getByTestId('transcript')
    expect(await within(transcript).findByText('message 1200')).toBeInTheDocument()
    // The newest page in one request; earlier pages wait until the person scrolls up.
    expect(api.getTranscript).toHaveBeenCalledWith({ name: 'lead', last: 100 })
    expect(api.getTranscript).toHaveBeenCalledTimes(1)
  })
  it('marks where the conversation was compacted, with the token figures and the summary behind a disclosure', async () => {
    const compacted: TranscriptRecord[] = [
      ...records.slice(0, 5),
      {
        ...base,
        seq: 6,
        kind: 'compaction',
        through_seq: 5,
        identity: "<identity>You are 'lead'</identity>",
        summary: 'You ran the tests; read_file found no missing.txt.',
        trigger: 'threshold',
        tokens_before: 152_300,
        tokens_after: 41_000,
        window: 200_000,
        model: 'm',
        usage: { input_tokens: 1, output_tokens: 1 },
      },
      { ...base, seq: 7, kind: 'user', from: 'user', text: 'And now?' },
    ]
    await renderApp(fakeApi({ transcripts: { lead: compacted } }))
    const transcript = screen.getByTestId('transcript')
    await within(transcript).findByText('And now?')
    // The full history stays: the rows before the marker are all there.
    expect(within(transcript).getByText('Build it')).toBeInTheDocument()
    const marker = within(transcript).getByTestId('compaction-marker')
    expect(marker).toHaveTextContent('Compacted here')
    expect(marker).toHaveTextContent('152k → 41k tokens · window 200k')
    const summary = within(marker).getByText('You ran the tests; read_file found no missing.txt.')
    expect(summary).not.toBeVisible()
    fireEvent.click(within(marker).getByText('Compacted here'))
    expect(marker).toHaveAttribute('open')
    expect(summary).toBeVisible()
    expect(marker).toHaveTextContent('in place of the records up to #5')
    expect(within(marker).getByLabelText('Identity block')).toHaveTextContent(
      "<identity>You are 'lead'</identity>",
    )
  })

  it('takes a compaction record streamed in as the agent works', async () => {
    const api = fakeApi({ transcripts: { lead: records.slice(0, 1) } })
    await renderApp(api)
    const transcript = screen.getByTestId('transcript')
    await within(transcript).findByText('Build it')
    act(() =>
      api.emit([
        {
          type: 'transcript-appended',
          agent: 'lead',
          record: {
            ...base,
            seq: 2,
            kind: 'compaction',
            through_seq: 1,
            identity: '<identity/>',
            summary: 'Asked to build it.',
            trigger: 'prompt-too-long',
            tokens_before: 9000,
            tokens_after: 800,
            window: 8000,
            model: 'm',
            usage: { input_tokens: 1, output_tokens: 1 },
          },
        },
      ]),
    )
    expect(within(transcript).getByTestId('compaction-marker')).toHaveTextContent(
      '9.0k → 800 tokens · window 8.0k',
    )
  })
})
