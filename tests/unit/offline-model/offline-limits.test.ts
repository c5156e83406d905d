import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import { describe, expect, it } from 'vitest'
import { ModelClient } from '../../../src/runtime/model/client'
import { text, toolCall } from '../../../src/offline-model/script'
import type { OfflineModelServer } from '../../../src/offline-model/offline-server'
import { clientFor, offlineServers, rejectionOf, request } from '../../helpers/offline-harness'

const startServer = offlineServers()

function modelClient(server: OfflineModelServer): ModelClient {
  return new ModelClient({ apiKey: 'k', baseURL: server.url, model: 'm', maxRetries: 0 })
}

const long = 'word '.repeat(2_000)

describe('the context window', () => {
  it("refuses a prompt over the window with the API's 400 and its words", async () => {
    const server = await startServer({ script: () => text('ok'), contextWindow: 1_000 })
    const client = clientFor(server)
    await expect(
      client.messages.create(request([{ role: 'user', content: 'short' }])),
    ).resolves.toBeDefined()
    const error = await rejectionOf(
      client.messages.create(request([{ role: 'user', content: long }])),
    )
    expect(error).toMatchObject({ status: 400 })
    expect((error as { error?: unknown }).error).toEqual({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: expect.stringMatching(/^prompt is too long: \d+ tokens > 1000 maximum$/),
      },
    })
  })
})

describe('counting tokens', () => {
  const countRequest = {
    system: 'Be brief.',
    messages: [{ role: 'user' as const, content: long }],
    tools: [],
  }

  it("asks the endpoint's count_tokens, which counts as the messages call does", async () => {
    const server = await startServer({ script: () => text('ok') })
    const count = await modelClient(server).countTokens(countRequest)
    expect(count.estimated).toBe(false)
    expect(server.countTokensCalls).toBe(1)
    expect(server.requests).toHaveLength(0)
    // The same prompt, sent: its input tokens (none cached: no marks) equal the count.
    const message = await clientFor(server).messages.create({
      ...request(countRequest.messages),
      system: countRequest.system,
    })
    expect(message.usage.input_tokens).toBe(count.tokens)
  })

  it('estimates from characters where the endpoint has no count_tokens, and stops asking', async () => {
    const server = await startServer({ script: () => text('ok'), countTokens: false })
    const client = modelClient(server)
    const first = await client.countTokens(countRequest)
    expect(first.estimated).toBe(true)
    expect(first.tokens).toBeGreaterThan(2_000)
    expect(server.countTokensCalls).toBe(1)
    // A new client for the same endpoint remembers: no second 404.
    const again = await modelClient(server).countTokens(countRequest)
    expect(again).toEqual(first)
    expect(server.countTokensCalls).toBe(1)
  })
})

describe('extended thinking', () => {
  const thinkingOn = { thinkingBudget: 2_000 }

  async function firstTurn(server: OfflineModelServer) {
    const client = modelClient(server)
    const question: MessageParam = { role: 'user', content: 'List the files.' }
    const turn = await client.turn({
      agent: 'a',
      system: 's',
      messages: [question],
      tools: [],
      ...thinkingOn,
    })
    const toolUse = turn.content.find((block) => block.type === 'tool_use') as { id: string }
    const conversation = (assistant: unknown[]): MessageParam[] => [
      question,
      { role: 'assistant', content: assistant as never },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'a.txt' }],
      },
    ]
    return { client, turn, conversation }
  }

  it('opens the reply with a signed thinking block, kept whole in the turn', async () => {
    const server = await startServer({
      script: () => ({ ...toolCall('bash', { command: 'ls' }), thinking: 'I should look first.' }),
      chunkCharacters: 4,
    })
    const { turn } = await firstTurn(server)
    expect(turn.content[0]).toEqual({
      type: 'thinking',
      thinking: 'I should look first.',
      signature: expect.stringMatching(/.{20,}/),
    })
    expect(server.requests[0]?.body.thinking).toEqual({ type: 'enabled', budget_tokens: 2_000 })
  })

  it('accepts the thinking sent back unchanged across tool use, refuses it dropped or altered', async () => {
    const server = await startServer({ script: () => toolCall('bash', { command: 'ls' }) })
    const { client, turn, conversation } = await firstTurn(server)
    server.setScript(() => text('a.txt is there'))
    const next = (assistant: unknown[]) =>
      client.turn({
        agent: 'a',
        system: 's',
        messages: conversation(assistant),
        tools: [],
        ...thinkingOn,
      })

    await expect(next(turn.content)).resolves.toMatchObject({ stop_reason: 'end_turn' })

    const dropped = await rejectionOf(
      next(turn.content.filter((block) => block.type !== 'thinking')),
    )
    expect(dropped).toMatchObject({ status: 400 })
    expect(dropped.message).toMatch(/a final `assistant` message must start with a thinking block/)

    const altered = turn.content.map((block) =>
      block.type === 'thinking'
        ? { ...block, thinking: `${String(block.thinking)} (edited)` }
        : block,
    )
    const refused = await rejectionOf(next(altered))
    expect(refused.message).toMatch(
      /messages\.1\.content\.0: Invalid `signature` in `thinking` block/,
    )
  })

  it('refuses a budget the API refuses', async () => {
    const server = await startServer({ script: () => text('ok') })
    const error = await rejectionOf(
      clientFor(server).messages.create({
        ...request(),
        max_tokens: 1_500,
        thinking: { type: 'enabled', budget_tokens: 2_000 },
      }),
    )
    expect(error.message).toMatch(/`max_tokens` must be greater than `thinking.budget_tokens`/)
  })
})
