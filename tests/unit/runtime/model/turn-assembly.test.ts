import Anthropic from '@anthropic-ai/sdk'
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages'
import { describe, expect, it } from 'vitest'
import { ModelClient } from '../../../../src/main/runtime/model/client'
import { IncompleteStream, TurnAssembly } from '../../../../src/main/runtime/model/turn-assembly'
import type { Turn } from '../../../../src/main/runtime/model/script'
import { clientFor, offlineServers, rejectionOf, request } from './offline-harness'

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

const start: RawMessageStreamEvent = {
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
  } as never,
}

describe('a turn assembled from the raw stream', () => {
  it("is the message the SDK's MessageStream makes of the same stream", async () => {
    // Chunks of 5 characters: text and tool input arrive in many deltas each.
    const server = await startServer({ script: () => mixed, chunkCharacters: 5 })
    const expected = await clientFor(server).messages.stream(request()).finalMessage()

    const assembly = new TurnAssembly()
    const events = await clientFor(server).messages.create({ ...request(), stream: true })
    for await (const event of events) assembly.add(event)
    const turn = assembly.finish()

    expect(turn.content).toEqual(
      expected.content.map((block) =>
        block.type === 'text'
          ? { type: 'text', text: block.text }
          : block.type === 'tool_use'
            ? { type: 'tool_use', id: block.id, name: block.name, input: block.input }
            : block,
      ),
    )
    expect(turn).toMatchObject({
      message_id: expect.stringMatching(/^msg_offline_/),
      model: expected.model,
      stop_reason: 'tool_use',
      usage: { input_tokens: 321, output_tokens: 45 },
    })
  })

  it('is refused when the stream ends before message_stop', () => {
    const assembly = new TurnAssembly()
    assembly.add(start)
    assembly.add({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' } as never,
    })
    assembly.add({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: 'half' },
    })
    expect(() => assembly.finish()).toThrow(IncompleteStream)
  })

  it('keeps a tool call cut off by max_tokens with the input read so far, and the stop reason', () => {
    const assembly = new TurnAssembly()
    assembly.add(start)
    assembly.add({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'tool_use', id: 'toolu_1', name: 'write_file', input: {} } as never,
    })
    assembly.add({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'input_json_delta', partial_json: '{"path": "a.txt", "content": "long te' },
    })
    assembly.add({ type: 'content_block_stop', index: 0 })
    assembly.add({
      type: 'message_delta',
      delta: { stop_reason: 'max_tokens', stop_sequence: null },
      usage: { output_tokens: 8000 },
    } as never)
    assembly.add({ type: 'message_stop' })
    const turn = assembly.finish()
    expect(turn.stop_reason).toBe('max_tokens')
    expect(turn.content).toEqual([
      {
        type: 'tool_use',
        id: 'toolu_1',
        name: 'write_file',
        // What the SDK's partial parser makes of it: the unfinished string is left out.
        input: { path: 'a.txt' },
      },
    ])
  })

  it('ModelClient.turn stopped mid-stream rejects instead of returning the part that came', async () => {
    const server = await startServer({
      script: () => ({ fault: 'stall', afterEvents: 4, milliseconds: 60_000, turn: mixed }),
    })
    const client = new ModelClient({ apiKey: 'k', baseURL: server.url, model: 'm', maxRetries: 0 })
    const controller = new AbortController()
    const texts: string[] = []
    const turn = client.turn({
      agent: 'alice',
      system: 's',
      messages: request().messages,
      tools: [],
      signal: controller.signal,
      observer: {
        onText: (delta) => {
          texts.push(delta)
          controller.abort()
        },
      },
    })
    expect(await rejectionOf(turn)).toBeInstanceOf(Anthropic.APIUserAbortError)
    expect(texts.length).toBeGreaterThan(0)
  })
})
