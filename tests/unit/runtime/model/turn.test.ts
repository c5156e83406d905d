import Anthropic from '@anthropic-ai/sdk'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it, onTestFinished } from 'vitest'
import { TurnInterrupted } from '../../../../src/runtime/model/interrupted'
import { ModelClient } from '../../../../src/runtime/model/client'
import type { Turn } from '../../../../src/offline-model/script'
import { offlineServers, rejectionOf, request } from '../../../helpers/offline-harness'

const startServer = offlineServers()

const mixed: Turn = {
  content: [
    { type: 'text', text: 'Reading the notes, then writing back — twice. ✓' },
    { type: 'tool_use', id: 'toolu_a', name: 'read_file', input: { path: 'README.md', limit: 20 } },
    {
      type: 'tool_use',
      id: 'toolu_b',
      name: 'send_message',
      input: { to: 'lead', content: 'a "quoted" line\n' },
    },
  ],
  usage: { input_tokens: 321, output_tokens: 45 },
}

function clientAt(baseURL: string): ModelClient {
  return new ModelClient({ apiKey: 'k', baseURL, model: 'm', maxRetries: 0 })
}

function turnOf(client: ModelClient, signal?: AbortSignal, onText?: (delta: string) => void) {
  return client.turn({
    agent: 'alice',
    system: 's',
    messages: request().messages,
    tools: [],
    ...(signal ? { signal } : {}),
    observer: { ...(onText ? { onText } : {}) },
  })
}

/** A server that answers every request with these SSE frames, then ends the response cleanly. */
async function frameServer(events: Record<string, unknown>[]): Promise<string> {
  const body = events.map(
    (data) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`,
  )
  const server = createServer((incoming, response) => {
    incoming.resume()
    response.writeHead(200, { 'content-type': 'text/event-stream' })
    response.end(body.join(''))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const start = {
  type: 'message_start',
  message: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'm',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 5, output_tokens: 1 },
  },
}

describe('a model turn streamed with the SDK', () => {
  it('is the whole message, its deltas reported as they came', async () => {
    // Chunks of 5 characters: text and tool input arrive in many deltas each.
    const server = await startServer({ script: () => mixed, chunkCharacters: 5 })
    const texts: string[] = []
    const turn = await turnOf(clientAt(server.url), undefined, (delta) => texts.push(delta))
    expect(texts.length).toBeGreaterThan(3)
    expect(texts.join('')).toBe('Reading the notes, then writing back — twice. ✓')
    expect(turn).toEqual({
      message_id: expect.stringMatching(/^msg_offline_/),
      model: 'm',
      content: mixed.content,
      stop_reason: 'tool_use',
      usage: {
        input_tokens: 321,
        output_tokens: 45,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
    })
  })

  it('is refused when the stream ends before message_stop', async () => {
    const url = await frameServer([
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'half' } },
    ])
    const error = await rejectionOf(turnOf(clientAt(url)))
    expect(error.message).toMatch(/stream ended without producing a Message/)
  })

  it('keeps a tool call cut off by max_tokens with the input read so far, and the stop reason', async () => {
    const url = await frameServer([
      start,
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'write_file', input: {} },
      },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: '{"path": "a.txt", "content": "long te' },
      },
      {
        type: 'message_delta',
        delta: { stop_reason: 'max_tokens', stop_sequence: null },
        usage: { output_tokens: 8000 },
      },
      { type: 'message_stop' },
    ])
    const turn = await turnOf(clientAt(url))
    expect(turn.stop_reason).toBe('max_tokens')
    expect(turn.content).toEqual([
      {
        type: 'tool_use',
        id: 'toolu_1',
        name: 'write_file',
        // What the SDK's partial parser makes of the input that came.
        input: expect.objectContaining({ path: 'a.txt' }),
      },
    ])
  })

  it('stopped mid-stream rejects with the part that came, marked interrupted', async () => {
    const server = await startServer({
      script: () => ({ fault: 'stall', afterEvents: 4, milliseconds: 60_000, turn: mixed }),
    })
    const controller = new AbortController()
    const texts: string[] = []
    const turn = turnOf(clientAt(server.url), controller.signal, (delta) => {
      texts.push(delta)
      controller.abort()
    })
    const failure = await rejectionOf(turn)
    expect(failure).toBeInstanceOf(TurnInterrupted)
    expect((failure as TurnInterrupted).cause).toBeInstanceOf(Anthropic.APIUserAbortError)
    expect(texts.length).toBeGreaterThan(0)
    expect((failure as TurnInterrupted).turn).toMatchObject({
      stop_reason: 'interrupted',
      content: [{ type: 'text', text: texts.join('') }],
      usage: { input_tokens: 321, output_tokens: Math.ceil(texts.join('').length / 4) },
      usage_estimated: true,
    })
  })

  it('stopped inside a tool call keeps the text only: a cut-off call never runs', async () => {
    // message_start, ping, the text block (start, 4 deltas, stop), the call's start, 1 delta.
    const server = await startServer({
      script: () => ({ fault: 'stall', afterEvents: 10, milliseconds: 60_000, turn: mixed }),
    })
    const controller = new AbortController()
    const turn = clientAt(server.url).turn({
      agent: 'alice',
      system: 's',
      messages: request().messages,
      tools: [],
      signal: controller.signal,
      observer: { onToolInput: () => controller.abort() },
    })
    const failure = await rejectionOf(turn)
    expect(failure).toBeInstanceOf(TurnInterrupted)
    const partial = (failure as TurnInterrupted).turn
    const firstText = 'Reading the notes, then writing back — twice. ✓'
    expect(partial.content).toEqual([{ type: 'text', text: firstText }])
    // The estimate counts what streamed, the call's input too.
    expect(partial.usage.output_tokens).toBeGreaterThan(Math.ceil(firstText.length / 4))
  })
})
