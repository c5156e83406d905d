import { describe, expect, it } from 'vitest'
import {
  inBuiltInTerms,
  inClaudeCodeTerms,
  isClaudeCode,
  onEitherEngine,
} from '../../../../src/offline-model/scenarios/claude-code-terms'
import type { ModelRequest, Reply } from '../../../../src/offline-model/script'

const FOLDER = '/data/worktrees/bob'
const tools = (...names: string[]): { name: string }[] => names.map((name) => ({ name }))

/** A request as Claude Code sends one: its reminders, its environment, its tools. */
function claudeCodeRequest(messages: unknown[]): ModelRequest {
  return {
    model: 'offline-demo',
    max_tokens: 32000,
    system: [{ type: 'text', text: `# Environment\n - Primary working directory: ${FOLDER}\n` }],
    tools: tools('Bash', 'Read', 'Write', 'Edit', 'mcp__team__send_message'),
    messages,
  }
}

describe('telling a Claude Code session from the built-in engine, by the tools offered', () => {
  it('is Claude Code with Bash and the team tools through MCP', () => {
    expect(isClaudeCode(claudeCodeRequest([]))).toBe(true)
    const builtIn = { model: 'm', max_tokens: 1, messages: [] }
    expect(isClaudeCode({ ...builtIn, tools: tools('bash', 'write_file', 'send_message') })).toBe(
      false,
    )
    expect(isClaudeCode({ ...builtIn, tools: tools('Bash', 'Write') })).toBe(false)
    expect(isClaudeCode(builtIn)).toBe(false)
  })
})

describe("a Claude Code request read in the built-in engine's terms", () => {
  const request = claudeCodeRequest([
    {
      role: 'user',
      content: [
        { type: 'text', text: '<system-reminder>\nToday is a day.\n</system-reminder>' },
        { type: 'text', text: 'Write the tests.\n\n(team delivery #1)' },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Writing.' },
        {
          type: 'tool_use',
          id: 't1',
          name: 'Write',
          input: { file_path: `${FOLDER}/demo/a.test.mjs`, content: 'x' },
        },
        { type: 'tool_use', id: 't2', name: 'Bash', input: { command: 'ls', description: 'List' } },
        { type: 'tool_use', id: 't3', name: 'mcp__team__claim_task', input: { id: '2' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't1', content: 'File created' },
        {
          type: 'tool_result',
          tool_use_id: 't3',
          content: [{ type: 'text', text: 'You hold task #2 now' }],
        },
        {
          type: 'text',
          text: '<system-reminder>\nPostToolUse hook additional context: <inbox>[{"from":"alice","type":"message","content":"hi"}]</inbox>\n</system-reminder>',
        },
      ],
    },
  ])
  const seen = inBuiltInTerms(request).messages as { role: string; content: unknown[] }[]

  it("leaves Claude Code's reminders and the team's delivery mark out, keeping mail", () => {
    expect(seen[0]?.content).toEqual([{ type: 'text', text: 'Write the tests.' }])
    expect(seen[2]?.content.at(-1)).toEqual({
      type: 'text',
      text: '<inbox>[{"from":"alice","type":"message","content":"hi"}]</inbox>',
    })
  })

  it('names the calls as the built-in engine does, with paths relative to its folder', () => {
    expect(seen[1]?.content).toEqual([
      { type: 'text', text: 'Writing.' },
      {
        type: 'tool_use',
        id: 't1',
        name: 'write_file',
        input: { path: 'demo/a.test.mjs', content: 'x' },
      },
      { type: 'tool_use', id: 't2', name: 'bash', input: { command: 'ls' } },
      { type: 'tool_use', id: 't3', name: 'claim_task', input: { id: '2' } },
    ])
  })

  it('splits a hand-over carrying history into one message a turn, mail with the turn it followed', () => {
    const handOver = `Claim task #2.\n\n<inbox>[{"from":"alice","content":"old"}]</inbox>\n\nClaim task #4.\n\n(team delivery #9)`
    const read = inBuiltInTerms(claudeCodeRequest([{ role: 'user', content: handOver }]))
    expect(read.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Claim task #2.' },
          { type: 'text', text: '<inbox>[{"from":"alice","content":"old"}]</inbox>' },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'Claim task #4.' }] },
    ])
  })

  it("joins a tool result's text blocks into one string", () => {
    expect(seen[2]?.content[1]).toEqual({
      type: 'tool_result',
      tool_use_id: 't3',
      content: 'You hold task #2 now',
    })
  })
})

describe("a built-in reply given in Claude Code's terms", () => {
  const request = claudeCodeRequest([])

  it("uses Claude Code's names and input shapes: absolute paths, a described command", () => {
    const reply: Reply = {
      content: [
        { type: 'text', text: 'Running the tests.' },
        { type: 'tool_use', name: 'write_file', input: { path: 'demo/a.mjs', content: 'x' } },
        { type: 'tool_use', name: 'read_file', input: { path: 'demo/a.mjs' } },
        {
          type: 'tool_use',
          name: 'edit_file',
          input: { path: 'demo/a.mjs', old_text: 'x', new_text: 'y' },
        },
        { type: 'tool_use', name: 'bash', input: { command: 'node --test' } },
        { type: 'tool_use', name: 'send_message', input: { to: 'lead', content: 'Done.' } },
      ],
    }
    expect(inClaudeCodeTerms(reply, request)).toEqual({
      content: [
        { type: 'text', text: 'Running the tests.' },
        {
          type: 'tool_use',
          name: 'Write',
          input: { file_path: `${FOLDER}/demo/a.mjs`, content: 'x' },
        },
        { type: 'tool_use', name: 'Read', input: { file_path: `${FOLDER}/demo/a.mjs` } },
        {
          type: 'tool_use',
          name: 'Edit',
          input: { file_path: `${FOLDER}/demo/a.mjs`, old_string: 'x', new_string: 'y' },
        },
        {
          type: 'tool_use',
          name: 'Bash',
          input: { command: 'node --test', description: 'Running the tests' },
        },
        {
          type: 'tool_use',
          name: 'mcp__team__send_message',
          input: { to: 'lead', content: 'Done.' },
        },
      ],
    })
  })

  it('passes a fault through as it is', () => {
    const fault: Reply = { fault: 'http', status: 529 }
    expect(inClaudeCodeTerms(fault, request)).toBe(fault)
  })
})

describe('a part played on either engine', () => {
  const part = (request: ModelRequest): Reply => ({
    content: [
      { type: 'text', text: `I saw ${request.messages.length} messages.` },
      { type: 'tool_use', name: 'bash', input: { command: 'true' } },
    ],
  })

  it('is played as written for the built-in engine', () => {
    const request = { model: 'm', max_tokens: 1, messages: [], tools: tools('bash') }
    expect(onEitherEngine(request, part)).toEqual(part(request))
  })

  it("is read and answered in Claude Code's terms for Claude Code", () => {
    const reply = onEitherEngine(claudeCodeRequest([{ role: 'user', content: 'Go.' }]), part)
    expect(reply).toEqual({
      content: [
        { type: 'text', text: 'I saw 1 messages.' },
        {
          type: 'tool_use',
          name: 'Bash',
          input: { command: 'true', description: 'I saw 1 messages' },
        },
      ],
    })
  })
})
