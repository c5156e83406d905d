import Anthropic from '@anthropic-ai/sdk'
import { describe, expect, it } from 'vitest'
import { queueScript, text } from '../../../src/offline-model/script'
import type { Reply } from '../../../src/offline-model/script'
import { waitFor } from '../../helpers/wait'
import {
  asAgent,
  clientFor,
  offlineServers,
  rejectionOf,
  request,
} from '../../helpers/offline-harness'

const startServer = offlineServers()
const sentence = 'One, two, three, four, five, six, seven, eight, nine, ten.'
type ApiError = InstanceType<typeof Anthropic.APIError>

describe('offline model server: HTTP faults', () => {
  it('answers 429 with retry-after, which the SDK raises as a RateLimitError', async () => {
    const script = queueScript({ alice: [{ fault: 'http', status: 429, retryAfterSeconds: 1 }] })
    const server = await startServer({ script })
    const error = await rejectionOf(clientFor(server).messages.create(request(), asAgent('alice')))
    expect(error).toBeInstanceOf(Anthropic.RateLimitError)
    expect((error as ApiError).status).toBe(429)
    expect((error as ApiError).type).toBe('rate_limit_error')
    expect((error as ApiError).headers?.get('retry-after')).toBe('1')
    expect(server.requests).toHaveLength(1)
  })

  it('lets the SDK retry a 429 after retry-after, and the next queued reply succeeds', async () => {
    // The SDK parses retry-after as a float, so a fraction of a second keeps the test quick.
    const script = queueScript({
      alice: [{ fault: 'http', status: 429, retryAfterSeconds: 0.05 }, text('after the wait')],
    })
    const server = await startServer({ script })
    const client = clientFor(server, { maxRetries: 1 })
    const message = await client.messages.stream(request(), asAgent('alice')).finalMessage()
    expect(message.content).toEqual([{ type: 'text', text: 'after the wait' }])
    expect(server.requests).toHaveLength(2)
    expect(server.requests[1]?.headers['x-stainless-retry-count']).toBe('1')
    script.assertConsumed()
  })

  it.each([
    [529, 'overloaded_error', Anthropic.InternalServerError],
    [500, 'api_error', Anthropic.InternalServerError],
    [403, 'permission_error', Anthropic.PermissionDeniedError],
    [400, 'invalid_request_error', Anthropic.BadRequestError],
  ])('answers a scripted %i with error type %s', async (status, errorType, errorClass) => {
    const server = await startServer({ script: () => ({ fault: 'http', status }) })
    const error = await rejectionOf(clientFor(server).messages.create(request()))
    expect(error).toBeInstanceOf(errorClass)
    expect((error as ApiError).status).toBe(status)
    expect((error as ApiError).type).toBe(errorType)
  })

  it('answers 500 when the script throws, and records why', async () => {
    const server = await startServer({
      script: () => {
        throw new Error('boom')
      },
    })
    const error = await rejectionOf(clientFor(server, { maxRetries: 2 }).messages.create(request()))
    expect((error as ApiError).status).toBe(500)
    expect(error.message).toContain('offline script threw: boom')
    expect(server.requests).toEqual([
      expect.objectContaining({ reply: { error: 'offline script threw: boom' } }),
    ])
  })
})

describe('offline model server: stream faults', () => {
  function streamWith(reply: Reply, chunkCharacters = 12) {
    return async () => {
      const server = await startServer({ script: () => reply, chunkCharacters })
      const deltas: string[] = []
      const eventTypes: string[] = []
      const stream = clientFor(server).messages.stream(request())
      stream.on('text', (delta) => deltas.push(delta))
      stream.on('streamEvent', (event) => eventTypes.push(event.type))
      return { server, stream, deltas, eventTypes }
    }
  }

  it('sends an error event mid-stream, after some text deltas arrived', async () => {
    const { stream, deltas } = await streamWith({
      fault: 'stream-error',
      afterEvents: 5,
      turn: text(sentence),
    })()
    const error = await rejectionOf(stream.finalMessage())
    expect(error).toBeInstanceOf(Anthropic.APIError)
    expect(error.message).toContain('overloaded_error')
    expect((error as ApiError).status).toBeUndefined()
    // Events 1-5: message_start, ping, content_block_start and two text deltas.
    expect(deltas).toEqual([sentence.slice(0, 12), sentence.slice(12, 24)])
  })

  it('streams a default turn before a stream error without one, with the scripted type', async () => {
    const { stream, deltas } = await streamWith({
      fault: 'stream-error',
      afterEvents: 4,
      errorType: 'api_error',
      message: 'scripted failure',
    })()
    const error = await rejectionOf(stream.finalMessage())
    expect(error.message).toContain('api_error')
    expect(error.message).toContain('scripted failure')
    expect(deltas).toHaveLength(1)
  })

  it('drops the connection mid-stream, and the stream rejects', async () => {
    const { stream, deltas } = await streamWith({
      fault: 'drop',
      afterEvents: 5,
      turn: text(sentence),
    })()
    const error = await rejectionOf(stream.finalMessage())
    expect(error).toBeInstanceOf(Anthropic.AnthropicError)
    expect(deltas).toHaveLength(2)
  })

  it('stalls mid-stream and then completes with every event in order', async () => {
    const { stream, eventTypes } = await streamWith(
      { fault: 'stall', afterEvents: 4, milliseconds: 30, turn: text(sentence) },
      30,
    )()
    const message = await stream.finalMessage()
    expect(message.content).toEqual([{ type: 'text', text: sentence }])
    // ping is consumed by the SDK and never surfaces as a stream event.
    expect(eventTypes).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ])
  })

  it('sends nothing more during a stall; close() ends it and the stream rejects', async () => {
    const { server, stream, deltas } = await streamWith({
      fault: 'stall',
      afterEvents: 4,
      milliseconds: 60_000,
      turn: text(sentence),
    })()
    const settled = rejectionOf(stream.finalMessage())
    await waitFor(
      () => deltas.length === 1,
      () => `one delta, got ${deltas.length}`,
    )
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(deltas).toHaveLength(1)
    await server.close()
    expect(await settled).toBeInstanceOf(Anthropic.AnthropicError)
  })

  it('paces events with eventDelayMs and still delivers the whole message', async () => {
    const server = await startServer({ script: () => text(sentence), eventDelayMs: 2 })
    const message = await clientFor(server).messages.stream(request()).finalMessage()
    expect(message.content).toEqual([{ type: 'text', text: sentence }])
  })

  it('applies faults to non-streaming calls too: a drop is a connection error', async () => {
    const server = await startServer({ script: () => ({ fault: 'drop', afterEvents: 0 }) })
    const error = await rejectionOf(clientFor(server).messages.create(request()))
    expect(error).toBeInstanceOf(Anthropic.APIConnectionError)
  })

  it('applies faults to non-streaming calls too: a stall answers late but whole', async () => {
    const script = () =>
      ({ fault: 'stall', afterEvents: 0, milliseconds: 20, turn: text('late') }) as const
    const server = await startServer({ script })
    const message = await clientFor(server).messages.create(request())
    expect(message.content).toEqual([{ type: 'text', text: 'late' }])
  })
})
