// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { hashOf, viewFromHash } from '../../../src/renderer/store/url'
import { rowIndexForSeq } from '../../../src/renderer/chat/transcript/find-row'
import { recordRows } from '../../../src/renderer/chat/transcript/rows'
import type { SearchResult } from '../../../src/shared/history'
import type { TranscriptRecord } from '../../../src/shared/transcript'
import { agentView, fakeApi, inboxEntry, snapshot } from './fake-api'
import { giveElementsASize } from './layout'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()

// A 600 px window, so that an old row is off screen until it is scrolled to.
giveElementsASize(600)
const scrollIntoView = Element.prototype.scrollIntoView
beforeAll(() => {
  Element.prototype.scrollIntoView = vi.fn()
})
afterAll(() => {
  Element.prototype.scrollIntoView = scrollIntoView
})

/** 150 records of alice (more than the first page); the one with seq 7 says something no other does. */
const aliceRecords: TranscriptRecord[] = Array.from({ length: 150 }, (_, index) => ({
  v: 1,
  seq: index + 1,
  at: 1_700_000_000 + index,
  kind: 'user',
  from: 'lead',
  text: index === 6 ? 'Remember the pangolin protocol.' : `Routine task ${index + 1}.`,
}))

const team = snapshot({ members: [agentView('alice'), agentView('bob')] })

const result: SearchResult = {
  total: 3,
  groups: [
    {
      agent: 'alice',
      total: 2,
      hits: [
        {
          agent: 'alice',
          place: { source: 'transcript', seq: 7 },
          kind: 'user',
          sender: 'lead',
          tools: [],
          at: 1_700_000_006,
          snippet: 'Remember the pangolin protocol.',
          highlights: [[13, 21]],
        },
        {
          agent: 'alice',
          place: { source: 'inbox', position: { segment: 1, offset: 40 } },
          kind: 'mail',
          sender: 'bob',
          tools: [],
          at: 1_700_000_100,
          snippet: 'The pangolin file is ready.',
          highlights: [[4, 12]],
        },
      ],
    },
    {
      agent: 'bob',
      total: 1,
      hits: [
        {
          agent: 'bob',
          place: { source: 'transcript', seq: 1 },
          kind: 'assistant',
          sender: 'bob',
          tools: ['bash'],
          at: 1_700_000_200,
          snippet: 'Pangolins pass the tests.',
          highlights: [[0, 8]],
        },
      ],
    },
  ],
}

function searchApi() {
  const api = fakeApi({
    snapshot: team,
    transcripts: { alice: aliceRecords },
    inboxes: {
      alice: [
        inboxEntry(0, { from: 'lead', content: 'first' }),
        inboxEntry(40, { from: 'bob', content: 'The pangolin file is ready.' }),
      ],
    },
  })
  api.searchHistory.mockImplementation(async () => result)
  return api
}

async function openPanel(): Promise<HTMLElement> {
  fireEvent.keyDown(window, { key: 'F', ctrlKey: true, shiftKey: true })
  return screen.findByTestId('search-panel')
}

async function typeQuery(panel: HTMLElement, text: string): Promise<void> {
  fireEvent.change(within(panel).getByLabelText('Text to find'), { target: { value: text } })
  await within(panel).findByTestId('search-results')
}

describe('the search panel', () => {
  it('opens with Ctrl+Shift+F, searches as the person types, groups by agent, marks matches', async () => {
    const api = searchApi()
    await renderApp(api)
    const panel = await openPanel()
    expect(within(panel).getByLabelText('Text to find')).toHaveFocus()
    await typeQuery(panel, 'pangolin')
    expect(api.searchHistory).toHaveBeenLastCalledWith({ text: 'pangolin' })
    const alice = within(panel).getByTestId('search-group-alice')
    expect(alice).toHaveTextContent('alice · 2')
    expect(within(alice).getAllByTestId('search-hit')).toHaveLength(2)
    expect(within(panel).getByTestId('search-group-bob')).toHaveTextContent('bash')
    const marks = [...panel.querySelectorAll('mark')].map((mark) => mark.textContent)
    expect(marks).toEqual(['pangolin', 'pangolin', 'Pangolin'])

    fireEvent.change(within(panel).getByLabelText('Agent'), { target: { value: 'bob' } })
    fireEvent.change(within(panel).getByLabelText('From'), { target: { value: 'user' } })
    fireEvent.change(within(panel).getByLabelText('Since'), { target: { value: '2026-01-02' } })
    await vi.waitFor(() =>
      expect(api.searchHistory).toHaveBeenLastCalledWith({
        text: 'pangolin',
        agent: 'bob',
        sender: 'user',
        since: Date.UTC(2026, 0, 2) / 1000,
      }),
    )
  })

  it('opens a hit in an old part of a transcript: selects it and reads back to the record', async () => {
    const api = searchApi()
    await renderApp(api)
    await typeQuery(await openPanel(), 'pangolin')
    fireEvent.click(screen.getAllByTestId('search-hit')[0]!)
    expect(screen.queryByTestId('search-panel')).not.toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('alice')
    // jsdom lays nothing out, so the scroll itself is proven in the browser
    // (tests/e2e/search.spec.ts); here, the records back to the hit are read in one request.
    await vi.waitFor(() =>
      expect(api.getTranscript).toHaveBeenCalledWith({ name: 'alice', fromSeq: 1, limit: 50 }),
    )
    // The latest page first, then that one request (not page after page).
    expect(api.getTranscript).toHaveBeenCalledWith({ name: 'alice', last: 100 })
    expect(api.getTranscript.mock.calls.filter(([params]) => params.name === 'alice')).toHaveLength(
      2,
    )
    expect(window.location.hash).toBe('#/alice/chat')
  })

  it('opens an inbox hit on its line', async () => {
    const api = searchApi()
    await renderApp(api)
    await typeQuery(await openPanel(), 'pangolin')
    fireEvent.click(screen.getAllByTestId('search-hit')[1]!)
    const line = await vi.waitFor(() => {
      const found = document.querySelector('[data-testid="inbox-entry"][data-revealed="true"]')
      if (found === null) throw new Error('no revealed line yet')
      return found
    })
    expect(line).toHaveTextContent('The pangolin file is ready.')
    expect(window.location.hash).toBe('#/alice/inbox')
  })

  it('exports the team or the filtered agent as a download', async () => {
    const api = searchApi()
    const created = vi.fn(() => 'blob:export')
    const revoked = vi.fn()
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: revoked })
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {})
    await renderApp(api)
    const panel = await openPanel()
    fireEvent.click(within(panel).getByRole('button', { name: 'JSONL' }))
    await vi.waitFor(() => expect(click).toHaveBeenCalled())
    expect(api.exportHistory).toHaveBeenLastCalledWith({ format: 'jsonl' })
    fireEvent.change(within(panel).getByLabelText('Agent'), { target: { value: 'alice' } })
    fireEvent.click(within(panel).getByRole('button', { name: 'Markdown' }))
    await vi.waitFor(() =>
      expect(api.exportHistory).toHaveBeenLastCalledWith({ format: 'md', agent: 'alice' }),
    )
    await vi.waitFor(() => expect(click).toHaveBeenCalledTimes(2))
    expect(created).toHaveBeenCalledTimes(2)
    click.mockRestore()
  })
})

describe('finding the row of a record', () => {
  it('finds a record by its own row, a tool result by its card, and a record without a row by the next', () => {
    const at = 1
    const records: TranscriptRecord[] = [
      { v: 1, seq: 1, at, kind: 'user', from: 'user', text: 'go' },
      {
        v: 1,
        seq: 2,
        at,
        kind: 'assistant',
        message_id: 'a',
        model: 'm',
        stop_reason: 'tool_use',
        usage: { input_tokens: 1, output_tokens: 1 },
        content: [
          { type: 'text', text: 'reading' },
          { type: 'tool_use', id: 'tu1', name: 'read_file', input: { path: 'x' } },
        ],
      },
      {
        v: 1,
        seq: 3,
        at,
        kind: 'tool-result',
        tool_use_id: 'tu1',
        name: 'read_file',
        content: 'x',
        is_error: false,
      },
      { v: 1, seq: 5, at, kind: 'user', from: 'user', text: 'more' },
    ]
    const rows = recordRows(records)
    const keyOf = (seq: number) => rows[rowIndexForSeq(rows, records, seq)]?.key
    expect(keyOf(1)).toBe('u1')
    expect(keyOf(2)).toBe('a2-0')
    expect(keyOf(3)).toBe('ttu1')
    expect(keyOf(4)).toBe('u5')
    expect(rowIndexForSeq(rows, records, 6)).toBe(-1)
  })
})

describe('the view in the address', () => {
  it('reads and writes #/<agent>/<view>, and refuses anything else', () => {
    expect(viewFromHash('#/alice/inbox')).toEqual({ selected: 'alice', view: 'inbox' })
    expect(viewFromHash('#/lead/chat')).toEqual({ selected: 'lead', view: 'conversation' })
    expect(viewFromHash('#/lead/activity')).toEqual({ selected: 'lead', view: 'activity' })
    for (const hash of [
      '',
      '#',
      '#/Alice/inbox',
      '#/../x/inbox',
      '#/alice/settings',
      '#/alice/inbox/x',
      '#/__proto__/chat',
      '#/alice/constructor',
    ])
      expect(viewFromHash(hash)).toBeNull()
    expect(hashOf('bob', 'conversation')).toBe('#/bob/chat')
  })

  it('restores the agent and tab after a reload, and follows the person', async () => {
    window.history.replaceState(null, '', '/#/alice/inbox')
    const api = searchApi()
    await renderApp(api)
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('alice')
    expect(screen.getByRole('tab', { name: /^Inbox/ })).toHaveAttribute('aria-selected', 'true')
    fireEvent.click(screen.getByRole('tab', { name: 'Activity' }))
    expect(window.location.hash).toBe('#/alice/activity')
    // A hash typed into the address bar is followed too.
    act(() => {
      window.history.replaceState(null, '', '/#/bob/chat')
      window.dispatchEvent(new HashChangeEvent('hashchange'))
    })
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('bob')
  })

  it('falls back to the lead when the address names an agent the team does not have', async () => {
    window.history.replaceState(null, '', '/#/zed/inbox')
    await renderApp(searchApi())
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Lead')
    expect(window.location.hash).toMatch(/^#\/lead\//)
  })
})
