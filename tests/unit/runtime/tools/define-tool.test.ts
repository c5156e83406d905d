import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { basicTools } from '../../../../src/runtime/tools/basic-tools'
import type { ToolContext } from '../../../../src/runtime/tools/types'
import { defineTool, ToolFailure } from '../../../../src/runtime/tools/types'
import { TeamError } from '../../../../src/shared/errors'

const context: ToolContext = {
  workspace: '/tmp/some-workspace',
  agent: 'alice',
  signal: new AbortController().signal,
}

function toolThrowing(error: unknown) {
  return defineTool({ name: 'demo', description: 'Throws.', input: z.object({}) }, async () => {
    throw error
  })
}

describe('defineTool', () => {
  it('returns what run returns as a successful outcome, with parsed input', async () => {
    const tool = defineTool(
      { name: 'echo', description: 'Echoes.', input: z.object({ text: z.string() }) },
      async (input, toolContext) => `${toolContext.agent} said ${input.text}`,
    )
    expect(await tool.run({ text: 'hi', extra: true }, context)).toEqual({
      content: 'alice said hi',
      isError: false,
    })
  })

  it('turns a TeamError into its message', async () => {
    const outcome = await toolThrowing(new TeamError('invalid-argument', 'Bad path.')).run(
      {},
      context,
    )
    expect(outcome).toEqual({ content: 'Bad path.', isError: true })
  })

  it('turns a system error into a message with workspace-relative paths', async () => {
    const error = Object.assign(
      new Error(`ENOENT: no such file or directory, open '${join(context.workspace, 'a.txt')}'`),
      { code: 'ENOENT' },
    )
    expect(await toolThrowing(error).run({}, context)).toEqual({
      content: "demo: ENOENT: no such file or directory, open 'a.txt'",
      isError: true,
    })
  })

  it('passes a ToolFailure through as its content', async () => {
    const outcome = await toolThrowing(new ToolFailure('output\n[exit code 1]')).run({}, context)
    expect(outcome).toEqual({ content: 'output\n[exit code 1]', isError: true })
  })

  it('reports a bug as an internal error instead of throwing', async () => {
    const outcome = await toolThrowing(new TypeError('x is undefined')).run({}, context)
    expect(outcome.isError).toBe(true)
    expect(outcome.content).toContain('internal error')
    expect(outcome.content).toContain('TypeError: x is undefined')
    expect((await toolThrowing('a string').run({}, context)).content).toContain('internal error')
  })
})

describe('the basic tools', () => {
  it("are s09's four, each requiring what its input schema says", async () => {
    expect(basicTools.map((tool) => tool.definition.name)).toEqual([
      'bash',
      'read_file',
      'write_file',
      'edit_file',
    ])
    for (const tool of basicTools) {
      const outcome = await tool.run({}, context)
      expect(outcome.isError).toBe(true)
      for (const field of tool.definition.input_schema.required ?? []) {
        expect(outcome.content).toContain(`${field}: expected string, received undefined`)
      }
    }
  })
})
