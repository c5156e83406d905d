import { describe, expect, it } from 'vitest'
import { parseControlLine } from '../../../src/shared/control'

const spawn = { v: 1, command: 'spawn', name: 'alice', role: 'coder', prompt: 'Write it.' }

describe('a control line’s spawn and its engine', () => {
  it('carries the engine asked for, and none when the line gives none', () => {
    expect(parseControlLine(JSON.stringify({ ...spawn, engine: 'claude-code' }))).toEqual({
      ok: true,
      command: {
        command: 'spawn',
        name: 'alice',
        role: 'coder',
        prompt: 'Write it.',
        planFirst: false,
        engine: 'claude-code',
      },
    })
    const verdict = parseControlLine(JSON.stringify(spawn))
    expect(verdict.ok && verdict.command).not.toHaveProperty('engine')
  })

  it('refuses an engine that does not exist, naming the field', () => {
    for (const engine of ['codex', '', 3, null])
      expect(parseControlLine(JSON.stringify({ ...spawn, engine }))).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/^not a control command: field "engine": /),
      })
  })
})
