import { createServer, type Server } from 'node:http'
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { AddressInfo } from 'node:net'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { onTestFinished } from 'vitest'
import { z } from 'zod'

/** The stdio test server (tests/fixtures/mcp/stdio-server.mjs), run by this Node. */
export const STDIO_SERVER = resolve(import.meta.dirname, '../fixtures/mcp/stdio-server.mjs')

/** A `.mcp.json` entry that runs the stdio test server. */
export function stdioEntry(
  extra: { args?: string[]; env?: Record<string, string> } = {},
): Record<string, unknown> {
  return {
    command: process.execPath,
    args: [STDIO_SERVER, ...(extra.args ?? [])],
    ...(extra.env ? { env: extra.env } : {}),
  }
}

export function writeMcpJson(workspace: string, servers: Record<string, unknown>): void {
  writeFileSync(
    join(workspace, '.mcp.json'),
    `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`,
  )
}

export interface HttpMcpServer {
  readonly url: string
  /** Authorization headers the server saw, one per request. */
  readonly authorizations: string[]
}

/**
 * A Streamable HTTP MCP server on 127.0.0.1 (stateless: a server and transport per request, as
 * the SDK's example does), closed when the test finishes. It refuses a request without
 * `authorization: Bearer <token>` when a token is given.
 */
export async function startHttpMcpServer(token?: string): Promise<HttpMcpServer> {
  const authorizations: string[] = []
  const http: Server = createServer((request, response) => {
    authorizations.push(String(request.headers.authorization ?? ''))
    if (token !== undefined && request.headers.authorization !== `Bearer ${token}`) {
      response.writeHead(401).end('unauthorized')
      return
    }
    const server = new McpServer({ name: 'weather', version: '1.0.0' })
    server.registerTool(
      'forecast',
      { description: 'The forecast for a city.', inputSchema: { city: z.string() } },
      async ({ city }) => ({ content: [{ type: 'text', text: `${city}: sunny, 21 °C` }] }),
    )
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined })
    response.on('close', () => {
      void transport.close()
      void server.close()
    })
    void server.connect(transport).then(() => transport.handleRequest(request, response))
  })
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done))
  onTestFinished(
    () =>
      new Promise<void>((done) => {
        http.closeAllConnections()
        http.close(() => done())
      }),
  )
  const { port } = http.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/mcp`, authorizations }
}

/**
 * Host options that start the workspace's MCP servers at once, as when the person trusts them
 * for the run, with short timeouts.
 */
export const MCP_TRUSTED_FOR_RUN = {
  mcp: {
    trustStore: null,
    trustForRun: true,
    policy: { callTimeoutMs: 5_000, restartDelaysMs: [50, 50], connectTimeoutMs: 15_000 },
  },
}
