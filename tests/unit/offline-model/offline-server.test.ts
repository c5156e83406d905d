import Anthropic from '@anthropic-ai/sdk'
import { describe, expect, it } from 'vitest'
import type { RequestContext } from '../../../src/offline-model/script'
import { queueScript, text, toolCall } from '../../../src/offline-model/script'
import {
  asAgent,
  clientFor,
  offlineServers,
  postJson,
  rejectionOf,
  request,
  testModel,
} from '../../helpers/offline-harness'

const startServer = offlineServers()
const sentence = 'The quick brown fox jumps over the lazy dog, and then naps.'

describe('offline model server: streaming', () => {
  it('streams text as several deltas that add up to the final message', async () => {
    const script = queueScript({ alice: [text(sentence)] })
    const server = await startServer({ script })
    const deltas: string[] = []
    const stream = clientFor(server).messages.stream(request(), asAgent('alice'))
    stream.on('text', (delta) => deltas.push(delta))
    const message = await stream.finalMessage()

    expect(deltas.length).toBe(Math.ceil(sentence.length / 12))
    expect(deltas.join('')).toBe(sentence)
    expect(message.content).toEqual([{ type: 'text', text: sentence }])
    expect(message.id).toMatch(/^msg_offline_\d+$/)
    expect(message.model).toBe(testModel)
    expect(message.stop_reason).toBe('end_turn')
    expect(message.usage.output_tokens).toBe(Math.ceil(sentence.length / 4))
    expect(message.usage.input_tokens).toBeGreaterThan(0)
    script.assertConsumed()
  })

  it('streams tool input as JSON deltas and parses it in the final message', async () => {
    const input = { path: 'notes/plan.md', content: 'Step one: write the tests.\nStep two: pass.' }
    const server = await startServer({ script: () => toolCall('write_file', input) })
    const partials: string[] = []
    const stream = clientFor(server).messages.stream(request(), asAgent('alice'))
    stream.on('inputJson', (partial) => partials.push(partial))
    const message = await stream.finalMessage()

    expect(partials.length).toBeGreaterThan(1)
    expect(partials.join('')).toBe(JSON.stringify(input))
    expect(message.stop_reason).toBe('tool_use')
    expect(message.content).toEqual([
      {
        type: 'tool_use',
        id: expect.stringMatching(/^toolu_offline_\d+$/),
        name: 'write_file',
        input,
      },
    ])
  })

  it('counts its ids from firstId, past those of an earlier server', async () => {
    const server = await startServer({
      script: () => toolCall('read_file', { path: 'a' }),
      firstId: 1_000,
    })
    const message = await clientFor(server)
      .messages.stream(request(), asAgent('alice'))
      .finalMessage()
    expect(message.id).toBe('msg_offline_1001')
    expect(message.content).toMatchObject([{ type: 'tool_use', id: 'toolu_offline_1001' }])
  })

  it('keeps block order, given tool ids, and scripted stop reason and usage', async () => {
    const server = await startServer({
      script: () => ({
        content: [
          { type: 'text', text: 'Reading it now.' },
          { type: 'tool_use', name: 'read_file', input: {}, id: 'toolu_given' },
        ],
        stop_reason: 'max_tokens',
        usage: { input_tokens: 42, output_tokens: 7 },
      }),
      chunkCharacters: 5,
    })
    const message = await clientFor(server).messages.stream(request()).finalMessage()
    expect(message.content).toEqual([
      { type: 'text', text: 'Reading it now.' },
      { type: 'tool_use', id: 'toolu_given', name: 'read_file', input: {} },
    ])
    expect(message.stop_reason).toBe('max_tokens')
    expect(message.usage).toMatchObject({ input_tokens: 42, output_tokens: 7 })
  })

  it('answers a non-streaming call with the same content as JSON', async () => {
    const server = await startServer({
      script: () => toolCall('bash', { command: 'ls' }, 'toolu_1'),
    })
    const message = await clientFor(server).messages.create(request(), asAgent('bob'))
    expect(message.content).toEqual([
      { type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'ls' } },
    ])
    expect(message.stop_reason).toBe('tool_use')
    expect(message.role).toBe('assistant')
    expect(server.requests[0]?.body.stream).toBeUndefined()
  })

  it('echoes the configured model when the request names none', async () => {
    const server = await startServer({ script: () => text('hi'), model: 'offline-echo' })
    const result = await postJson(
      server,
      '/v1/messages',
      JSON.stringify({ max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] }),
    )
    expect(result.status).toBe(200)
    expect(result.body).toMatchObject({
      model: 'offline-echo',
      content: [{ type: 'text', text: 'hi' }],
    })
  })
})

describe('offline model server: agents and scripts', () => {
  it('identifies the agent by header and counts calls overall and per agent', async () => {
    const contexts: RequestContext[] = []
    const server = await startServer({
      script: (_request, context) => {
        contexts.push(context)
        return text('ok')
      },
    })
    const client = clientFor(server)
    await client.messages.create(request(), asAgent('alice'))
    await client.messages.create(request(), asAgent('bob'))
    await client.messages.stream(request(), asAgent('alice')).finalMessage()
    await client.messages.create(request())

    expect(contexts).toEqual([
      { agent: 'alice', call: 1, agentCall: 1 },
      { agent: 'bob', call: 2, agentCall: 1 },
      { agent: 'alice', call: 3, agentCall: 2 },
      { agent: null, call: 4, agentCall: 1 },
    ])
    expect(server.requests.map((recorded) => recorded.agent)).toEqual([
      'alice',
      'bob',
      'alice',
      null,
    ])
    expect(server.requests[0]?.headers['x-agent-name']).toBe('alice')
    expect(server.requests[2]?.body.stream).toBe(true)
  })

  it('answers queued replies in order per agent, with "default" for no agent', async () => {
    const script = queueScript({
      alice: [text('alice one'), text('alice two')],
      default: [text('nobody in particular')],
    })
    const server = await startServer({ script })
    const client = clientFor(server)
    const textOf = async (promise: Promise<Anthropic.Message>): Promise<unknown> =>
      (await promise).content[0]
    expect(await textOf(client.messages.create(request()))).toMatchObject({
      text: 'nobody in particular',
    })
    expect(await textOf(client.messages.create(request(), asAgent('alice')))).toMatchObject({
      text: 'alice one',
    })
    expect(script.remaining()).toEqual({ alice: 1, default: 0 })
    expect(() => script.assertConsumed()).toThrow(/agent alice has 1 unused reply/)
    expect(await textOf(client.messages.create(request(), asAgent('alice')))).toMatchObject({
      text: 'alice two',
    })
    expect(() => script.assertConsumed()).not.toThrow()
  })

  it('fails an unexpected call with a 500 that the SDK does not retry, and records it', async () => {
    const script = queueScript({ alice: [] })
    const server = await startServer({ script })
    const error = await rejectionOf(
      clientFor(server, { maxRetries: 2 }).messages.create(request(), asAgent('bob')),
    )
    expect(error).toBeInstanceOf(Anthropic.InternalServerError)
    expect((error as InstanceType<typeof Anthropic.APIError>).status).toBe(500)
    expect(error.message).toContain('offline script: no reply queued for agent bob (call 1)')
    expect(server.requests).toHaveLength(1)
    expect(script.unexpected()).toEqual(['offline script: no reply queued for agent bob (call 1)'])
    expect(() => script.assertConsumed()).toThrow(/no reply queued for agent bob/)
  })

  it('uses a script set later for the requests that follow', async () => {
    const server = await startServer({ script: () => text('first') })
    const client = clientFor(server)
    server.setScript(() => text('second'))
    const message = await client.messages.create(request())
    expect(message.content).toEqual([{ type: 'text', text: 'second' }])
  })
})

describe('offline model server: HTTP surface', () => {
  it('requires the API key when one is set, by bearer token or x-api-key', async () => {
    const server = await startServer({ script: () => text('welcome'), apiKey: 'secret' })
    const error = await rejectionOf(
      clientFor(server, { apiKey: 'wrong' }).messages.create(request()),
    )
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError)
    expect((error as InstanceType<typeof Anthropic.APIError>).type).toBe('authentication_error')
    expect(server.requests[0]?.reply).toEqual({ error: 'offline server: invalid API key' })

    const message = await clientFor(server, { apiKey: 'secret' }).messages.create(request())
    expect(message.content).toEqual([{ type: 'text', text: 'welcome' }])
    const viaHeader = await postJson(server, '/v1/messages', JSON.stringify(request()), {
      headers: { 'x-api-key': 'secret' },
    })
    expect(viaHeader.status).toBe(200)
  })

  it('refuses bodies that are not a Messages request with 400 invalid_request_error', async () => {
    const server = await startServer({ script: () => text('never') })
    const cases: Array<[string, RegExp]> = [
      ['{not json', /invalid JSON body/],
      [JSON.stringify({ messages: [{ role: 'user', content: 'x' }] }), /max_tokens/],
      [
        JSON.stringify({ max_tokens: 5, messages: 'hello' }),
        /messages: Input should be a valid list/,
      ],
      [JSON.stringify({ max_tokens: 5, messages: [] }), /at least one message/],
      [
        JSON.stringify({
          max_tokens: 5,
          messages: [{ role: 'user', content: 'x' }],
          tools: [{ name: 'echo', input_schema: { type: 'string' } }],
        }),
        /tools\.0\.custom\.input_schema\.type: Input should be 'object'/,
      ],
    ]
    for (const [body, expected] of cases) {
      const result = await postJson(server, '/v1/messages', body)
      expect(result.status).toBe(400)
      expect(result.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } })
      expect(JSON.stringify(result.body)).toMatch(expected)
    }
    expect(server.requests.map((recorded) => 'error' in recorded.reply)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ])
  })

  it('answers unknown paths with 404 and other methods with 405', async () => {
    const server = await startServer({ script: () => text('never') })
    const missing = await postJson(server, '/v1/complete', '{}')
    expect(missing.status).toBe(404)
    expect(missing.body).toMatchObject({ type: 'error', error: { type: 'not_found_error' } })
    const wrongMethod = await fetch(`${server.url}/v1/messages`)
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.headers.get('allow')).toBe('POST')
    expect(await wrongMethod.json()).toMatchObject({ type: 'error' })
  })
})
