// The reference for "until it is on screen": the least any app could do. A plain page (no
// framework, no store) on a bare HTTP + WebSocket server, fed either by fs.watch on a file
// (lines appended by another program) or by the offline model's SSE stream, relayed as is.
// argv: mode ('file' | 'sse'), file or model URL. stdin: "go <n>" starts a stream of n stamps.
import { closeSync, existsSync, openSync, readSync, watch, writeFileSync, fstatSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { WebSocketServer, type WebSocket } from 'ws'
import { report } from '../lib/common'

const [mode, target] = process.argv.slice(2) as ['file' | 'sse', string]
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>plain</title></head>
<body><div id="out"></div><script>
const out = document.getElementById('out')
const socket = new WebSocket('ws://' + location.host + '/ws')
socket.onmessage = (event) => {
  const message = JSON.parse(event.data)
  if (message.lines) for (const line of message.lines) {
    const div = document.createElement('div'); div.textContent = line; out.appendChild(div)
  }
  if (message.text) out.appendChild(document.createTextNode(message.text))
}
socket.onopen = () => { document.title = 'connected' }
</script></body></html>`

const server = createServer((request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
  response.end(PAGE)
})
const sockets = new Set<WebSocket>()
const wss = new WebSocketServer({ server, path: '/ws' })
wss.on('connection', (socket) => {
  sockets.add(socket)
  socket.on('close', () => sockets.delete(socket))
})
const broadcast = (message: unknown) => {
  const text = JSON.stringify(message)
  for (const socket of sockets) socket.send(text)
}

if (mode === 'file') {
  if (!existsSync(target)) writeFileSync(target, '')
  let offset = 0
  let rest = ''
  const buffer = Buffer.alloc(1 << 20)
  const readNew = () => {
    const fd = openSync(target, 'r')
    try {
      const size = fstatSync(fd).size
      while (offset < size) {
        const bytes = readSync(fd, buffer, 0, Math.min(buffer.length, size - offset), offset)
        if (bytes === 0) break
        offset += bytes
        rest += buffer.toString('utf8', 0, bytes)
      }
    } finally {
      closeSync(fd)
    }
    const end = rest.lastIndexOf('\n')
    if (end === -1) return
    const lines = rest
      .slice(0, end)
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => (JSON.parse(line) as { content: string }).content)
    rest = rest.slice(end + 1)
    if (lines.length > 0) broadcast({ lines })
  }
  watch(target, () => readNew())
}

async function stream(count: number): Promise<void> {
  const response = await fetch(`${target}/v1/messages`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': 'bench-key',
      'x-agent-name': 'relay',
    },
    body: JSON.stringify({
      model: 'offline',
      max_tokens: 4096,
      stream: true,
      messages: [{ role: 'user', content: `STAMPS ${count}` }],
    }),
  })
  const reader = response.body?.getReader()
  if (!reader) return
  const decoder = new TextDecoder()
  let text = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    text += decoder.decode(value, { stream: true })
    for (;;) {
      const end = text.indexOf('\n\n')
      if (end === -1) break
      const event = text.slice(0, end)
      text = text.slice(end + 2)
      const data = event.split('\n').find((line) => line.startsWith('data: '))
      if (!data) continue
      const parsed = JSON.parse(data.slice(6)) as { delta?: { type?: string; text?: string } }
      if (parsed.delta?.type === 'text_delta') broadcast({ text: parsed.delta.text })
    }
  }
  report({ type: 'streamed', count })
}

if (mode === 'sse') {
  let input = ''
  process.stdin.on('data', (chunk: Buffer) => {
    input += chunk.toString()
    for (;;) {
      const end = input.indexOf('\n')
      if (end === -1) break
      const command = input.slice(0, end)
      input = input.slice(end + 1)
      const go = /^go (\d+)$/.exec(command)
      if (go) void stream(Number(go[1]))
    }
  })
}

server.listen(0, '127.0.0.1', () => {
  report({ type: 'listening', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` })
})
process.on('SIGTERM', () => process.exit(0))
