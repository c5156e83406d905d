// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { TranscriptRecord } from '../../../src/shared/transcript'
import { bashOutcome } from '../../../src/renderer/chat/transcript/tool-views'
import { recordingClipboard } from './clipboard'
import { fakeApi } from './fake-api'
import { giveElementsASize } from './layout'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()
giveElementsASize()
const clipboard = recordingClipboard()

const base = { v: 1 as const, at: 1_700_000_000 }
let seq = 0

/** One assistant turn making `name(input)`, and its result. */
function call(name: string, input: unknown, content: string, isError = false): TranscriptRecord[] {
  seq += 2
  const id = `tu-${seq}`
  return [
    {
      ...base,
      seq: seq - 1,
      kind: 'assistant',
      message_id: `m${seq}`,
      model: 'm',
      stop_reason: 'tool_use',
      usage: { input_tokens: 1, output_tokens: 1 },
      content: [{ type: 'tool_use', id, name, input }],
    },
    { ...base, seq, kind: 'tool-result', tool_use_id: id, name, content, is_error: isError },
  ]
}

const records: TranscriptRecord[] = [
  ...call(
    'write_file',
    { path: 'src/stats.ts', content: 'export const total = 1\n' },
    'Wrote 23 bytes to src/stats.ts',
  ),
  ...call(
    'edit_file',
    { path: 'calc.py', old_text: 'x = 1\ny = 2\n', new_text: 'x = 1\ny = 3\n' },
    'Edited calc.py',
  ),
  ...call('bash', { command: 'npm test' }, 'FAIL 2 tests\n[exit code 2]', true),
  ...call('send_message', { to: 'bob', content: 'Please **review** it' }, 'Sent message to bob'),
  ...call('broadcast', { content: 'Stand-up in 5' }, 'Broadcast to 2 teammates'),
  ...call('mcp__github__create_issue', { title: 'Bug' }, '{"number": 7}'),
  {
    ...base,
    seq: 100,
    kind: 'assistant',
    message_id: 'final',
    model: 'm',
    stop_reason: 'end_turn',
    usage: { input_tokens: 1, output_tokens: 1 },
    content: [{ type: 'text', text: 'All **done**.' }],
  },
]

async function cards(): Promise<Record<string, HTMLElement>> {
  await renderApp(fakeApi({ transcripts: { lead: records } }))
  const found = await within(screen.getByTestId('transcript')).findAllByTestId('tool-card')
  return Object.fromEntries(found.map((card) => [card.dataset['tool'] ?? '', card]))
}

function open(card: HTMLElement | undefined): HTMLElement {
  if (card === undefined) throw new Error('no such card')
  const header = within(card).getAllByRole('button')[0]!
  if (header.getAttribute('aria-expanded') === 'false') fireEvent.click(header)
  return card
}

describe('tool cards', () => {
  it('show write_file as the file, highlighted in the language of its extension', async () => {
    const card = open((await cards())['write_file'])
    const code = card.querySelector('pre code')
    expect(code).toHaveClass('language-ts')
    await waitFor(() => expect(code?.querySelector('.hljs-keyword')).toHaveTextContent('export'))
    expect(card.querySelector('.code-language')).toHaveTextContent('src/stats.ts')
    expect(card).toHaveTextContent('Wrote 23 bytes to src/stats.ts')
    expect(card).not.toHaveTextContent('"content"')
  })

  it('show edit_file as a diff: removed and added lines marked, context kept', async () => {
    const card = open((await cards())['edit_file'])
    const lines = [...card.querySelectorAll('.diff-line')].map((line) => [
      line.className.replace('diff-line diff-', ''),
      line.querySelector('.diff-text')?.textContent,
    ])
    expect(lines).toEqual([
      ['context', 'x = 1'],
      ['remove', 'y = 2'],
      ['add', 'y = 3'],
    ])
    // Highlighted in the file's language (Python, from calc.py).
    await waitFor(() => expect(card.querySelector('.diff-add .hljs-number')).toHaveTextContent('3'))
    expect(card.querySelector('.diff-remove .diff-mark')).toHaveTextContent('-')
    expect(card.querySelector('.diff-add .diff-mark')).toHaveTextContent('+')
    expect(card.querySelector('.tool-summary')).toHaveTextContent('calc.py')
  })

  it('show bash as a terminal, with the exit code in the header', async () => {
    const card = (await cards())['bash']!
    expect(within(card).getByTestId('exit-code')).toHaveTextContent('exit 2')
    // A failed call is open by itself.
    const terminal = within(card).getByTestId('terminal')
    expect(terminal).toHaveTextContent('$npm test')
    expect(terminal).toHaveTextContent('FAIL 2 tests')
    expect(terminal).not.toHaveTextContent('[exit code 2]')
  })

  it('show send_message and broadcast as the message, in Markdown', async () => {
    const found = await cards()
    const sent = open(found['send_message'])
    expect(sent).toHaveTextContent('To bob')
    expect(within(sent).getByText('review').tagName).toBe('STRONG')
    expect(open(found['broadcast'])).toHaveTextContent('To every teammate')
  })

  it('show an unknown tool (an MCP one) as its name, pretty input and result', async () => {
    const card = open((await cards())['mcp__github__create_issue'])
    expect(card.querySelector('.tool-name')).toHaveTextContent('create_issue')
    expect(card.querySelector('.tool-server')).toHaveTextContent('github')
    expect(card.querySelector('code.language-json')).toHaveTextContent('"title": "Bug"')
    expect(card).toHaveTextContent('{"number": 7}')
  })

  it('keep the raw JSON behind the Raw toggle', async () => {
    const card = open((await cards())['write_file'])
    const raw = within(card).getByRole('button', { name: 'Raw' })
    expect(raw).toHaveAttribute('aria-pressed', 'false')
    fireEvent.click(raw)
    expect(raw).toHaveAttribute('aria-pressed', 'true')
    expect(card.querySelector('.code-block')).toBeNull()
    expect(card).toHaveTextContent('"path": "src/stats.ts"')
    expect(card).toHaveTextContent('"content": "export const total = 1\\n"')
    fireEvent.click(raw)
    expect(card.querySelector('.code-block')).not.toBeNull()
  })

  it('copy a message with its Copy button', async () => {
    await cards()
    const buttons = screen.getAllByRole('button', { name: 'Copy message' })
    fireEvent.click(buttons[buttons.length - 1]!)
    expect(await screen.findByText('Copied')).toBeInTheDocument()
    expect(clipboard.written).toEqual(['All **done**.'])
  })
})

describe('how a bash call ended', () => {
  it('reads the trailer the bash tool writes', () => {
    const failed = (output: string) => bashOutcome({ state: 'failed', output })
    expect(bashOutcome({ state: 'done', output: 'ok' }).end).toEqual({ label: 'exit 0', ok: true })
    expect(failed('x\n[exit code 127]')).toEqual({
      output: 'x',
      end: { label: 'exit 127', ok: false },
    })
    expect(failed('[timed out after 120 s; process group killed]').end?.label).toBe('timed out')
    expect(failed('y\n[killed by SIGKILL]').end?.label).toBe('killed (SIGKILL)')
    expect(failed('[stopped]').end?.label).toBe('stopped')
    expect(failed('Command refused by the safety guard: …').end?.label).toBe('not run')
    expect(bashOutcome({ state: 'running', output: null }).end).toBeNull()
  })
})
