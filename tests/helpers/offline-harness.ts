/** Shared set-up of the offline model server tests: servers closed after each test, real clients. */
import Anthropic from '@anthropic-ai/sdk'
import type { ClientOptions } from '@anthropic-ai/sdk'
import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages'
import { afterEach } from 'vitest'
import { OfflineModelServer } from '../../src/offline-model/offline-server'
import type { OfflineServerOptions } from '../../src/offline-model/offline-server'

/** Call at the top of a test file; every server it starts is closed after each test. */
export function offlineServers(): (options: OfflineServerOptions) => Promise<OfflineModelServer> {
  const started: OfflineModelServer[] = []
  afterEach(async () => {
    await Promise.all(started.splice(0).map((server) => server.close()))
  })
  return async (options) => {
    const server = await OfflineModelServer.start(options)
    started.push(server)
    return server
  }
}

/** The real SDK pointed at the server, without retries unless a test asks for them. */
export function clientFor(server: OfflineModelServer, options: ClientOptions = {}): Anthropic {
  return new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0, ...options })
}

export const testModel = 'claude-offline-test'

export function request(
  messages: MessageCreateParamsNonStreaming['messages'] = [{ role: 'user', content: 'Hello' }],
): MessageCreateParamsNonStreaming {
  return { model: testModel, max_tokens: 256, messages }
}

/** Request options that name the calling agent, as the runtime's client does. */
export function asAgent(agent: string): { headers: Record<string, string> } {
  return { headers: { 'x-agent-name': agent } }
}

/** The error a promise rejects with; fails the test if it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise
  } catch (error) {
    if (error instanceof Error) return error
    throw new Error(`rejected with a non-Error: ${String(error)}`, { cause: error })
  }
  throw new Error('expected the promise to reject, but it resolved')
}

export async function postJson(
  server: OfflineModelServer,
  path: string,
  body: string,
  init: RequestInit = {},
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    body,
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  })
  const text = await response.text()
  return {
    status: response.status,
    body: text === '' ? null : JSON.parse(text),
    headers: response.headers,
  }
}
