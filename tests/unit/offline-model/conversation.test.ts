import Anthropic from '@anthropic-ai/sdk'
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import { describe, expect, it } from 'vitest'
import { queueScript, text, toolCall } from '../../../src/offline-model/script'
import { clientFor, offlineServers, rejectionOf, request } from '../../helpers/offline-harness'

const startServer = offlineServers()

const toolUse = (id: string): MessageParam => ({
  role: 'assistant',
  content: [{ type: 'tool_use', id, name: 'bash', input: { command: 'ls' } }],
})
const toolResult = (id: string): MessageParam => ({
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: id, content: 'README.md' }],
})

/**
 * Sends the conversation and returns the 400's API message (the SDK's `error.message` is the
 * status and the JSON body, with quotes escaped); fails if the server accepted it.
 */
async function refusalOf(messages: MessageParam[]): Promise<string> {
  let scriptCalls = 0
  const server = await startServer({
    script: () => {
      scriptCalls += 1
      return text('accepted')
    },
  })
  const error = await rejectionOf(clientFor(server).messages.create(request(messages)))
  expect(error).toBeInstanceOf(Anthropic.BadRequestError)
  expect((error as InstanceType<typeof Anthropic.APIError>).type).toBe('invalid_request_error')
  expect(scriptCalls).toBe(0)
  const recorded = server.requests[0]?.reply
  const apiMessage = (error as InstanceType<typeof Anthropic.APIError>).apiMessage ?? ''
  expect(recorded && 'error' in recorded ? recorded.error : null).toBe(apiMessage)
  return apiMessage
}

describe('offline model server: conversation validation', () => {
  it('refuses a conversation that starts with the assistant', async () => {
    const message = await refusalOf([{ role: 'assistant', content: 'Hi' }])
    expect(message).toContain('first message must use the "user" role')
  })

  it('refuses two consecutive messages of the same role', async () => {
    const message = await refusalOf([
      { role: 'user', content: 'Hi' },
      { role: 'user', content: 'Anyone there?' },
    ])
    expect(message).toContain('messages: roles must alternate')
  })

  it('refuses a tool_use whose tool_result is missing from the next message, naming the id', async () => {
    const message = await refusalOf([
      { role: 'user', content: 'List the files' },
      toolUse('toolu_missing'),
      { role: 'user', content: 'never mind' },
    ])
    expect(message).toContain('toolu_missing')
    expect(message).toContain('messages.1')
  })

  it('refuses a final assistant tool_use that nothing answers', async () => {
    const message = await refusalOf([
      { role: 'user', content: 'List the files' },
      toolUse('toolu_last'),
    ])
    expect(message).toContain('toolu_last')
  })

  it('refuses a tool_result whose id is not in the previous assistant message', async () => {
    const message = await refusalOf([
      { role: 'user', content: 'List the files' },
      toolUse('toolu_real'),
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_real', content: 'ok' },
          { type: 'tool_result', tool_use_id: 'toolu_invented', content: 'ok' },
        ],
      },
    ])
    expect(message).toContain('unexpected `tool_use_id`')
    expect(message).toContain('toolu_invented')
  })

  it('refuses a tool_result answering a tool_use from an older turn', async () => {
    const message = await refusalOf([
      { role: 'user', content: 'List the files' },
      toolUse('toolu_old'),
      toolResult('toolu_old'),
      { role: 'assistant', content: 'Done.' },
      toolResult('toolu_old'),
    ])
    expect(message).toContain('toolu_old')
  })

  it('refuses empty content in any message but a final assistant one', async () => {
    const message = await refusalOf([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: [] },
      { role: 'user', content: 'Hello?' },
    ])
    expect(message).toContain('non-empty content')
  })

  it('accepts a full tool round trip built from the streamed reply', async () => {
    const script = queueScript({
      default: [toolCall('bash', { command: 'ls' }), text('Two files.')],
    })
    const server = await startServer({ script })
    const client = clientFor(server)
    const conversation: MessageParam[] = [{ role: 'user', content: 'List the files' }]
    const first = await client.messages.stream(request(conversation)).finalMessage()
    const block = first.content[0]
    if (block?.type !== 'tool_use') throw new Error('expected a tool_use block')
    conversation.push({ role: 'assistant', content: first.content }, toolResult(block.id))
    const second = await client.messages.stream(request(conversation)).finalMessage()
    expect(second.content).toEqual([{ type: 'text', text: 'Two files.' }])
    expect(server.requests).toHaveLength(2)
    script.assertConsumed()
  })

  it('accepts an empty final assistant message, as a prefill', async () => {
    const server = await startServer({ script: () => text('ok') })
    const message = await clientFor(server).messages.create(
      request([
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: [] },
      ]),
    )
    expect(message.content).toEqual([{ type: 'text', text: 'ok' }])
  })
})
