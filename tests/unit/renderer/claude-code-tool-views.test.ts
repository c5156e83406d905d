import { describe, expect, it } from 'vitest'
import { toolView } from '../../../src/renderer/chat/transcript/tool-views'
import type { ToolCall } from '../../../src/renderer/chat/transcript/rows'

function call(
  name: string,
  input: unknown,
  state: ToolCall['state'] = 'done',
  output: string | null = 'ok',
): ToolCall {
  return { id: 't', name, input: JSON.stringify(input), state, output } as ToolCall
}

describe("a Claude Code teammate's tool calls get this app's cards", () => {
  it('shows Write, Edit and Bash as the write, edit and bash cards', () => {
    expect(toolView(call('Write', { file_path: '/w/a.ts', content: 'x' }))).toMatchObject({
      kind: 'write',
      path: '/w/a.ts',
      language: 'ts',
    })
    expect(
      toolView(call('Edit', { file_path: '/w/a.md', old_string: 'a', new_string: 'b' })),
    ).toMatchObject({ kind: 'edit', oldText: 'a', newText: 'b' })
    expect(
      toolView(call('Bash', { command: 'ls' }, 'failed', 'Exit code 2\nno such file')),
    ).toEqual({
      kind: 'bash',
      command: 'ls',
      output: 'no such file',
      end: { label: 'exit 2', ok: false },
    })
  })

  it('shows its team tools as messages, and anything else (or a bad input) as the generic card', () => {
    expect(toolView(call('mcp__team__send_message', { to: 'lead', content: 'done' }))).toEqual({
      kind: 'message',
      to: 'lead',
      content: 'done',
    })
    expect(toolView(call('mcp__team__broadcast', { content: 'hi' }))).toEqual({
      kind: 'message',
      to: null,
      content: 'hi',
    })
    expect(toolView(call('Write', { path: 'x' }))).toEqual({ kind: 'generic' })
    expect(toolView(call('mcp__other__send_message', { to: 'lead', content: 'x' }))).toEqual({
      kind: 'generic',
    })
  })
})
