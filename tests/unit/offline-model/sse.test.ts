import { describe, expect, it } from 'vitest'
import { text } from '../../../src/offline-model/script'
import {
  formatEvent,
  resolveTurn,
  splitIntoChunks,
  turnEvents,
} from '../../../src/offline-model/sse'
import { offlineServers } from '../../helpers/offline-harness'

const startServer = offlineServers()

describe('SSE encoding of a scripted turn', () => {
  it('produces the exact event sequence of the Messages API', () => {
    const turn = resolveTurn(
      {
        content: [
          { type: 'text', text: 'Hello!' },
          { type: 'tool_use', name: 'bash', input: { a: 1 } },
        ],
      },
      () => 'toolu_offline_7',
      { inputTokens: 10, cacheCreationTokens: 0, cacheReadTokens: 0 },
    )
    const events = turnEvents(turn, { id: 'msg_offline_1', model: 'm' }, 4)
    expect(events.map((event) => event.data)).toEqual([
      {
        type: 'message_start',
        message: {
          id: 'msg_offline_1',
          type: 'message',
          role: 'assistant',
          model: 'm',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: {
            input_tokens: 10,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: 0,
            output_tokens: 1,
          },
        },
      },
      { type: 'ping' },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hell' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'o!' } },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id: 'toolu_offline_7', name: 'bash', input: {} },
      },
      {
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: '{"a"' },
      },
      {
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: ':1}' },
      },
      { type: 'content_block_stop', index: 1 },
      {
        type: 'message_delta',
        delta: { stop_reason: 'tool_use', stop_sequence: null },
        usage: {
          input_tokens: 10,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          output_tokens: 4,
        },
      },
      { type: 'message_stop' },
    ])
    expect(events.every((event) => event.type === event.data.type)).toBe(true)
  })

  it('formats each event with its event: line and one data: line', () => {
    expect(formatEvent({ type: 'ping', data: { type: 'ping' } })).toBe(
      'event: ping\ndata: {"type":"ping"}\n\n',
    )
  })

  it('never splits a surrogate pair across chunks', () => {
    expect(splitIntoChunks('a😀b😀', 2)).toEqual(['a😀', 'b😀'])
    expect(splitIntoChunks('', 12)).toEqual([])
  })

  it('sends every event over HTTP with an event: line matching its data type', async () => {
    const server = await startServer({ script: () => text('A streamed reply of some length.') })
    const response = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'm',
        max_tokens: 10,
        stream: true,
        messages: [{ role: 'user', content: 'Hi' }],
      }),
    })
    expect(response.headers.get('content-type')).toContain('text/event-stream')
    const frames = (await response.text()).split('\n\n').filter((frame) => frame !== '')
    expect(frames.length).toBeGreaterThan(6)
    for (const frame of frames) {
      const match = /^event: (\S+)\ndata: (.+)$/.exec(frame)
      expect(match, frame).not.toBeNull()
      expect(JSON.parse(match?.[2] ?? '{}').type).toBe(match?.[1])
    }
  })
})
