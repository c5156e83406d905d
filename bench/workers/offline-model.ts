// The offline model server in a process of its own, so that the runtime's CPU time can be
// measured alone. Scripts (argv[2], JSON):
//   {"mode":"runtime","turns":T}  a teammate told GO (by inbox) makes T-1 tool calls (read_inbox
//                                 and read_file in turn), then answers; others answer at once.
//   {"mode":"ui", "streamChunks":N}  the lead answers "STAMPS n" with n stamped chunks;
//                                 teammates sNN stream N chunks of prose; others answer "ok".
// A stamped chunk is `[iii|#############] `: the 13 '#' are replaced by Date.now() in the very
// write that sends the chunk, so the page can tell how long each delta took to be painted.
// Reports {"type":"listening","url"} on stdout; answers {cmd:'stats'} on its IPC channel.
import { ServerResponse } from 'node:http'
import { OfflineModelServer } from '../../src/offline-model/offline-server'
import type { ModelRequest, Reply } from '../../src/offline-model/script'
import { report } from '../lib/common'

interface Config {
  mode: 'runtime' | 'ui'
  turns?: number
  streamChunks?: number
  eventDelayMs?: number
  chunkCharacters?: number
}
const config = JSON.parse(process.argv[2] ?? '{}') as Config
const STAMP = '#############'
let textDeltas = 0
let stampsWritten = 0
let calls = 0

const write = ServerResponse.prototype.write as (
  this: ServerResponse,
  ...args: unknown[]
) => boolean
ServerResponse.prototype.write = function (
  this: ServerResponse,
  chunk: unknown,
  ...rest: unknown[]
) {
  if (typeof chunk === 'string' && chunk.includes('text_delta')) {
    textDeltas++
    if (chunk.includes(STAMP)) {
      stampsWritten++
      chunk = chunk.replaceAll(STAMP, String(Date.now()))
    }
  }
  return write.call(this, chunk, ...rest)
} as typeof ServerResponse.prototype.write

type Block = { type: string; text?: string; content?: unknown }
type Message = { role: string; content: string | Block[] }

function texts(message: Message): string[] {
  if (typeof message.content === 'string') return [message.content]
  return message.content.flatMap((block) => (block.type === 'text' ? [block.text ?? ''] : []))
}

/** Model turns since the last user message whose text includes `marker` (-1: none). */
function turnsSince(request: ModelRequest, marker: string): number {
  const messages = request.messages as Message[]
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as Message
    if (message.role === 'user' && texts(message).some((text) => text.includes(marker)))
      return messages.slice(index + 1).filter((each) => each.role === 'assistant').length
  }
  return -1
}

function lastUserText(request: ModelRequest): string {
  const messages = request.messages as Message[]
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as Message
    if (message.role === 'user') return texts(message).join('\n')
  }
  return ''
}

const stamped = (count: number): string =>
  Array.from({ length: count }, (_, index) => `[${String(index).padStart(3, '0')}|${STAMP}] `).join(
    '',
  )

const WORDS =
  'the team reads every inbox line once records it durably and then moves the cursor so nothing is lost or repeated across processes and crashes'.split(
    ' ',
  )
/** Prose of `chunks` x chunkCharacters characters, a line break every dozen words. */
function prose(chunks: number, chunkCharacters: number): string {
  const wanted = chunks * chunkCharacters
  const parts: string[] = []
  let length = 0
  for (let index = 0; length < wanted; index++) {
    const word = `${WORDS[index % WORDS.length]}${index % 12 === 11 ? '\n' : ' '}`
    parts.push(word)
    length += word.length
  }
  return parts.join('').slice(0, wanted)
}

/** What the warm-up teammate sent, so the benchmark can replay one request through the SDK. */
const warmUpBodies: string[] = []

function runtimeReply(agent: string | null, request: ModelRequest): Reply {
  if (agent === 'warmup' && warmUpBodies.length < 100) warmUpBodies.push(JSON.stringify(request))
  if (agent === null || agent === 'lead') return { content: [{ type: 'text', text: 'ok' }] }
  // A replayed turn (the SDK measured alone): a tool call, as most turns of the run are.
  if (agent === 'bare-sdk')
    return { content: [{ type: 'tool_use', name: 'read_inbox', input: {} }] }
  const since = turnsSince(request, 'GO')
  // Alternating two cheap tools: the same call three times in a row would pause the agent as a
  // loop (agents/guards.ts).
  if (since >= 0 && since < (config.turns ?? 10) - 1)
    return {
      content: [
        since % 2 === 0
          ? { type: 'tool_use', name: 'read_inbox', input: {} }
          : { type: 'tool_use', name: 'read_file', input: { path: 'README.md', limit: 20 } },
      ],
    }
  return { content: [{ type: 'text', text: since >= 0 ? 'done' : 'standing by' }] }
}

function uiReply(agent: string | null, request: ModelRequest): Reply {
  const text = lastUserText(request)
  const stamps = /STAMPS (\d+)/.exec(text)
  if (stamps) return { content: [{ type: 'text', text: stamped(Number(stamps[1])) }] }
  if (agent !== null && /^s\d\d$/.test(agent) && turnsSince(request, 'STREAM') === 0)
    return {
      content: [
        {
          type: 'text',
          text: prose(config.streamChunks ?? 100, config.chunkCharacters ?? 4),
        },
      ],
    }
  return { content: [{ type: 'text', text: 'ok' }] }
}

const server = await OfflineModelServer.start({
  script: (request, context) => {
    // The server keeps every request for tests; a benchmark would only grow its heap with them.
    server.requests.length = 0
    calls++
    return config.mode === 'runtime'
      ? runtimeReply(context.agent, request)
      : uiReply(context.agent, request)
  },
  apiKey: 'bench-key',
  eventDelayMs: config.eventDelayMs ?? 0,
  chunkCharacters: config.chunkCharacters,
})

const baseline = process.cpuUsage()
server.requests.length = 0
process.on('message', (message: { cmd?: string }) => {
  if (message.cmd === 'body')
    process.send?.({
      type: 'body',
      body: warmUpBodies[Math.floor(warmUpBodies.length / 2)] ?? null,
    })
  if (message.cmd === 'stats') {
    const cpu = process.cpuUsage(baseline)
    process.send?.({
      type: 'stats',
      cpuMs: (cpu.user + cpu.system) / 1000,
      textDeltas,
      stampsWritten,
      calls,
    })
  }
})
report({ type: 'listening', url: server.url })
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0))
})
