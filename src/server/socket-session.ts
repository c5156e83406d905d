import { WebSocket, type RawData } from 'ws'
import type { CommandRunner } from '../shared/command-service'
import { commandNames } from '../shared/ipc-channels'
import { serializeError, TeamError, type SerializedError } from '../shared/errors'
import { jsonTextTooDeep, MAX_JSON_DEPTH } from '../shared/json-limits'
import { MAX_FRAME_BYTES, requestFrameSchema, type ResponseFrame } from '../shared/wire'

/** What a socket needs from the app: AppService's `execute`. */
export interface SessionOptions {
  readonly runner: CommandRunner
  /** Called right before each response is sent (the server flushes buffered events there). */
  readonly beforeResponse: () => void
  /** Where failures that are bugs (code 'internal') are reported for the operator. */
  readonly reportInternal?: (command: string, error: unknown) => void
}

/** WebSocket close code for a policy violation (RFC 6455 §7.4.1). */
export const POLICY_VIOLATION = 1008

/**
 * Serves one client's requests. How a frame that is not a valid request is handled:
 * - it is JSON with a readable `id` (a whole number ≥ 0): an error response for that id, code
 *   'invalid-argument' (an unknown command says so by name), and the socket stays open;
 * - otherwise (binary, not JSON, no id): the socket is closed with 1008 and a reason, since
 *   there is nobody to answer.
 * - it nests deeper than MAX_JSON_DEPTH: refused before it is parsed (no request is that deep,
 *   and parsing a deep one is what blocked the event loop): an error response when the id can
 *   be read from the frame's head as our client writes it, otherwise closed with 1008.
 * Frames over MAX_REQUEST_FRAME_BYTES never get here: `ws` closes the socket with 1009.
 */
export function serveSocket(socket: WebSocket, options: SessionOptions): void {
  // A protocol error (an oversized frame, bad UTF-8): ws closes the socket itself (1009, 1007);
  // without a listener the error would bring the whole server down.
  socket.on('error', () => {})
  socket.on('message', (data: RawData, isBinary: boolean) => {
    if (isBinary) {
      socket.close(POLICY_VIOLATION, 'Requests must be JSON text frames.')
      return
    }
    void handleText(socket, rawText(data), options)
  })
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8')
  return data.toString('utf8')
}

async function handleText(socket: WebSocket, text: string, options: SessionOptions): Promise<void> {
  if (jsonTextTooDeep(text, MAX_JSON_DEPTH)) {
    const id = headId(text)
    const message = `A request frame may nest at most ${MAX_JSON_DEPTH} levels deep.`
    if (id === null) socket.close(POLICY_VIOLATION, message)
    else
      respond(
        socket,
        {
          kind: 'response',
          id,
          ok: false,
          error: serializeError(new TeamError('invalid-argument', message)),
        },
        options,
      )
    return
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    socket.close(POLICY_VIOLATION, 'A frame was not valid JSON.')
    return
  }
  const parsed = requestFrameSchema.safeParse(value)
  if (!parsed.success) {
    const id = readableId(value)
    if (id === null) {
      socket.close(POLICY_VIOLATION, 'A frame was not a request with an id (see wire.ts).')
      return
    }
    respond(socket, { kind: 'response', id, ok: false, error: invalidFrameError(value) }, options)
    return
  }
  const { id, command, params } = parsed.data
  let frame: ResponseFrame
  try {
    const result = await options.runner.execute(command, params)
    frame = { kind: 'response', id, ok: true, result }
  } catch (error) {
    const serialized = serializeError(error)
    if (serialized.code === 'internal') options.reportInternal?.(command, error)
    frame = { kind: 'response', id, ok: false, error: serialized }
  }
  respond(socket, frame, options, command)
}

/** The id of a frame that starts as our client writes one: `{"kind":"request","id":N,`. */
function headId(text: string): number | null {
  const match = /^\{"kind":"request","id":(\d{1,15}),/.exec(text.slice(0, 64))
  return match ? Number(match[1]) : null
}

function readableId(value: unknown): number | null {
  if (typeof value !== 'object' || value === null || !('id' in value)) return null
  const id = value.id
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 ? id : null
}

function invalidFrameError(value: unknown): SerializedError {
  const command =
    typeof value === 'object' && value !== null && 'command' in value ? value.command : undefined
  if (typeof command === 'string' && !(commandNames as readonly string[]).includes(command))
    return serializeError(new TeamError('invalid-argument', `Unknown command "${command}".`))
  const issues = requestFrameSchema.safeParse(value).error?.issues ?? []
  const detail = issues
    .map((issue) => `${issue.path.join('.') || '(frame)'}: ${issue.message}`)
    .join('; ')
  return serializeError(
    new TeamError(
      'invalid-argument',
      `Invalid request frame (expected {kind: 'request', id, command, params}): ${detail}`,
    ),
  )
}

function respond(
  socket: WebSocket,
  frame: ResponseFrame,
  options: SessionOptions,
  command = 'request',
): void {
  // The client may have gone while the command ran; its answer has nowhere to go.
  if (socket.readyState !== WebSocket.OPEN) return
  options.beforeResponse()
  let text = JSON.stringify(frame)
  const bytes = Buffer.byteLength(text, 'utf8')
  if (bytes > MAX_FRAME_BYTES) {
    const megabytes = (bytes / (1024 * 1024)).toFixed(1)
    const error = new TeamError(
      'message-too-large',
      `The answer to ${command} is ${megabytes} MB, more than the ${MAX_FRAME_BYTES / (1024 * 1024)} MB a frame may carry; ask for less (a smaller limit).`,
    )
    text = JSON.stringify({
      kind: 'response',
      id: frame.id,
      ok: false,
      error: serializeError(error),
    })
  }
  socket.send(text)
}
