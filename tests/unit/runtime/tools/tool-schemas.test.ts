import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { askUserTool } from '../../../../src/runtime/tools/ask-user-tool'
import { basicTools } from '../../../../src/runtime/tools/basic-tools'
import { protocolTools } from '../../../../src/runtime/tools/protocol-tools'
import { searchTools } from '../../../../src/runtime/tools/search-tools'
import { taskTools } from '../../../../src/runtime/tools/task-tools'
import { READ_INBOX_DEFINITION, teamTools } from '../../../../src/runtime/tools/team-tools'
import { defineTool, type Tool } from '../../../../src/runtime/tools/types'
import { queueScript, text } from '../../../../src/offline-model/script'
import { startHost } from '../../../helpers/host'

/** Operations the tools are built with; never called here, only the definitions are read. */
function unused(): never {
  throw new Error('a tool ran during a schema test')
}
const operations = new Proxy({}, { get: () => unused })

/** Every built-in tool, lead's and teammates' (update_task exists in both forms). */
function builtInTools(): Tool[] {
  const team = teamTools(operations as never)
  const protocols = protocolTools(operations as never)
  const tasks = taskTools(operations as never)
  return [
    ...basicTools,
    ...searchTools,
    askUserTool(operations as never),
    ...team.lead,
    ...protocols.lead,
    ...protocols.teammate,
    ...tasks.lead,
    ...tasks.teammate,
  ]
}

describe("the tools' JSON Schemas", () => {
  it('are derived from the zod schema each tool parses its input with', () => {
    const tools = builtInTools()
    expect(tools.length).toBeGreaterThan(15)
    for (const tool of tools) {
      expect(tool.input, tool.definition.name).toBeDefined()
      const { $schema: _dialect, ...derived } = z.toJSONSchema(tool.input as z.ZodType, {
        io: 'input',
      })
      expect(tool.definition.input_schema, tool.definition.name).toEqual(derived)
      expect(tool.definition.input_schema.type).toBe('object')
      expect(tool.definition.input_schema).not.toHaveProperty('$schema')
    }
  })

  it("keep each field's description and the parser's limits", () => {
    const spawn = builtInTools().find((tool) => tool.definition.name === 'spawn_teammate')
    const properties = spawn?.definition.input_schema.properties as Record<
      string,
      Record<string, unknown>
    >
    expect(properties.model?.description).toMatch(/model id/)
    expect(properties.thinking).toMatchObject({ type: 'integer', minimum: 1024 })
    expect(properties.approval?.enum).toEqual(['auto', 'ask', 'plan-first'])
    expect(spawn?.definition.input_schema.required).toEqual(['name', 'role', 'prompt'])
    expect(READ_INBOX_DEFINITION.input_schema).toEqual({ type: 'object', properties: {} })
  })

  it('refuses to derive a schema whose top is not an object', () => {
    expect(() =>
      defineTool({ name: 'odd', description: 'Takes a string.', input: z.string() }, unused),
    ).toThrow(/must be a zod object/)
  })

  it('reach the model with their descriptions, and the offline server accepts them', async () => {
    const script = queueScript({ lead: [text('Nothing to do.')] })
    const team = await startHost(script)
    team.host.chat('Hello.')
    await team.host.whenIdle()
    script.assertConsumed()
    const request = team.server.requests.find((entry) => entry.agent === 'lead')
    const sent = (request?.body.tools ?? []) as {
      name: string
      input_schema: Record<string, unknown>
    }[]
    const spawn = sent.find((tool) => tool.name === 'spawn_teammate')
    expect(spawn?.input_schema).toMatchObject({
      type: 'object',
      properties: { worktree: { type: 'boolean', description: expect.stringMatching(/git/) } },
    })
    for (const tool of sent) expect(tool.input_schema).not.toHaveProperty('$schema')
  })
})
