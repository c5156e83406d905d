import { describe, expect, it } from 'vitest'
import { everydayTeammate } from '../../../../src/offline-model/scenarios/everyday'
import type { ModelRequest } from '../../../../src/offline-model/script'

/** A request whose last turn is the person's `content` blocks. */
function request(...messages: { role: 'user' | 'assistant'; content: unknown[] }[]): ModelRequest {
  return { model: 'offline', max_tokens: 1024, messages }
}
const text = (value: string) => ({ type: 'text', text: value })
const inbox = (from: string, content: string) =>
  text(`<inbox>${JSON.stringify([{ from, type: 'message', content }])}</inbox>`)

describe('the offline teammate runs a command it is told to run', () => {
  it('calls bash with the command between backticks, from its first prompt', () => {
    const reply = everydayTeammate(
      'tess',
      request({ role: 'user', content: [text('Please run `echo ran >> out.txt` now.')] }),
    )
    expect(reply).toEqual({
      content: [
        { type: 'text', text: 'Running echo ran >> out.txt.' },
        { type: 'tool_use', name: 'bash', input: { command: 'echo ran >> out.txt' } },
      ],
    })
  })

  it('and from a message in its inbox', () => {
    const reply = everydayTeammate(
      'tess',
      request({ role: 'user', content: [inbox('user', 'run `touch a.txt` please')] }),
    )
    expect(reply).toMatchObject({
      content: [{}, { type: 'tool_use', name: 'bash', input: { command: 'touch a.txt' } }],
    })
  })

  it('answers the result instead of running it again, and runs nothing without backticks', () => {
    const asked = request(
      { role: 'user', content: [text('Please run `touch a.txt`.')] },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 't1', name: 'bash', input: { command: 'touch a.txt' } }],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 't1', content: '(no output)' }],
      },
    )
    expect(everydayTeammate('tess', asked)).toEqual({
      content: [{ type: 'text', text: 'Done.' }],
    })
    const plain = everydayTeammate('tess', request({ role: 'user', content: [text('run tests')] }))
    expect(JSON.stringify(plain)).not.toContain('tool_use')
  })
})
