import { isAbsolute, relative, resolve } from 'node:path'
import { isFault, type ModelRequest, type Reply, type TurnBlock } from '../script'

/**
 * Claude Code's side of a scripted part. A Claude Code teammate offers Claude Code's own tools
 * (`Bash`, `Read`, `Write`, `Edit`…) and the team's through an MCP server named `team`
 * (`mcp__team__send_message`…), while the demo's parts are written with the built-in engine's
 * names. So a request from Claude Code, told apart by the tools it offers, is read in built-in
 * terms, and the part's reply is given back in Claude Code's: the same part plays on either
 * engine, and reacts to what really came back.
 */
const TEAM_TOOL_PREFIX = 'mcp__team__'

interface Block {
  type?: unknown
  text?: unknown
  name?: unknown
  input?: unknown
  content?: unknown
}

/** The names of the tools a request offers. */
function offeredTools(request: ModelRequest): string[] {
  return (request.tools ?? []).flatMap((tool) => {
    const name = (tool as { name?: unknown }).name
    return typeof name === 'string' ? [name] : []
  })
}

/** Whether the request comes from a Claude Code session: it offers Bash and the team's MCP tools. */
export function isClaudeCode(request: ModelRequest): boolean {
  const offered = offeredTools(request)
  return offered.includes('Bash') && offered.some((name) => name.startsWith(TEAM_TOOL_PREFIX))
}

function textsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (!Array.isArray(value)) return []
  return (value as Block[]).flatMap((block) => [
    ...(typeof block.text === 'string' ? [block.text] : []),
    ...textsOf(block.content),
  ])
}

/** The folder the session works in, as its environment section says. */
function workingFolder(request: ModelRequest): string | null {
  const texts = [
    ...textsOf(request.system),
    ...request.messages.flatMap((message) => textsOf([message])),
  ]
  for (const text of texts) {
    const folder = /Primary working directory: (.+)/.exec(text)?.[1]?.trim()
    if (folder) return folder
  }
  return null
}

const BUILT_IN_NAMES: Record<string, string> = {
  Bash: 'bash',
  Read: 'read_file',
  Write: 'write_file',
  Edit: 'edit_file',
  Glob: 'glob',
  Grep: 'grep',
}

/** A path as the built-in tools take it: relative to the folder the session works in. */
function inFolder(path: unknown, folder: string | null): unknown {
  if (typeof path !== 'string' || folder === null || !isAbsolute(path)) return path
  return relative(folder, path)
}

/** A Claude Code call as the built-in engine makes the same one. */
function builtInCall(
  name: string,
  input: Record<string, unknown>,
  folder: string | null,
): { name: string; input: Record<string, unknown> } {
  if (name.startsWith(TEAM_TOOL_PREFIX)) return { name: name.slice(TEAM_TOOL_PREFIX.length), input }
  const builtIn = BUILT_IN_NAMES[name]
  if (builtIn === undefined) return { name, input }
  switch (name) {
    case 'Bash':
      return { name: builtIn, input: { command: input['command'] } }
    case 'Read':
      return { name: builtIn, input: { path: inFolder(input['file_path'], folder) } }
    case 'Write':
      return {
        name: builtIn,
        input: { path: inFolder(input['file_path'], folder), content: input['content'] },
      }
    case 'Edit':
      return {
        name: builtIn,
        input: {
          path: inFolder(input['file_path'], folder),
          old_text: input['old_string'],
          new_text: input['new_string'],
        },
      }
    default:
      return { name: builtIn, input }
  }
}

/** A built-in call as Claude Code makes the same one; `said` is the turn's words. */
function claudeCodeCall(
  name: string,
  input: Record<string, unknown>,
  folder: string | null,
  said: string,
): { name: string; input: Record<string, unknown> } {
  // Claude Code's file tools want absolute paths.
  const file = (path: unknown): unknown =>
    typeof path === 'string' && folder !== null ? resolve(folder, path) : path
  switch (name) {
    case 'bash':
      return {
        name: 'Bash',
        input: {
          command: input['command'],
          description: said.replace(/\.$/, '') || 'Run a command',
        },
      }
    case 'read_file':
      return { name: 'Read', input: { file_path: file(input['path']) } }
    case 'write_file':
      return { name: 'Write', input: { file_path: file(input['path']), content: input['content'] } }
    case 'edit_file':
      return {
        name: 'Edit',
        input: {
          file_path: file(input['path']),
          old_string: input['old_text'],
          new_string: input['new_text'],
        },
      }
    default:
      return { name: `${TEAM_TOOL_PREFIX}${name}`, input }
  }
}

/** The team's mark at the end of a hand-over (`(team delivery #12)`): not words to act on. */
const DELIVERY_MARK = /\s*\(team delivery #\d+\)\s*$/

/**
 * A hand-over's text in pieces: each turn it carries, and each mail as an `<inbox>` block. The
 * engine hands every turn and every mail the session has not had over as one text; a session
 * that starts after the built-in engine ran the teammate gets its whole history so.
 */
function handOverPieces(text: string): Block[] {
  return text
    .replace(DELIVERY_MARK, '')
    .split(/(<inbox>[\s\S]*?<\/inbox>)/)
    .map((piece) => piece.trim())
    .filter((piece) => piece !== '')
    .map((piece) => ({ type: 'text', text: piece }))
}

/**
 * A user message's blocks as the built-in engine would have sent them: Claude Code's own
 * reminders left out, except the mail one brings (mail that came while it worked), hand-overs
 * in pieces, and a tool result's text blocks joined into one string.
 */
function builtInUserBlocks(blocks: Block[]): Block[] {
  return blocks.flatMap((block): Block[] => {
    if (block.type === 'text' && typeof block.text === 'string') {
      if (!block.text.startsWith('<system-reminder>')) return handOverPieces(block.text)
      const mail = block.text.match(/<inbox>[\s\S]*?<\/inbox>/g) ?? []
      return mail.map((text) => ({ type: 'text', text }))
    }
    if (block.type === 'tool_result' && Array.isArray(block.content))
      return [{ ...block, content: textsOf(block.content).join('\n') }]
    return [block]
  })
}

/**
 * A user message as the built-in engine would have sent it: one message a turn, as the
 * built-in engine gives each turn, so that a part reads from the latest one.
 */
function builtInUserMessages(content: unknown): { role: 'user'; content: Block[] }[] {
  const blocks = builtInUserBlocks(
    typeof content === 'string' ? [{ type: 'text', text: content }] : (content as Block[]),
  )
  const messages: { role: 'user'; content: Block[] }[] = []
  for (const block of blocks) {
    const turn = block.type === 'text' && !String(block.text).startsWith('<inbox>')
    const current = messages.at(-1)
    if (current === undefined || (turn && current.content.length > 0))
      messages.push({ role: 'user', content: [block] })
    else current.content.push(block)
  }
  return messages
}

/** The request as the built-in engine would have made it: its names, its paths, its messages. */
export function inBuiltInTerms(request: ModelRequest): ModelRequest {
  const folder = workingFolder(request)
  const messages = request.messages.flatMap((message): unknown[] => {
    const { role, content } = message as { role?: unknown; content?: unknown }
    if (role === 'user' && (typeof content === 'string' || Array.isArray(content)))
      return builtInUserMessages(content)
    if (role !== 'assistant' || !Array.isArray(content)) return [message]
    const blocks = content.map((block: Block) =>
      block.type === 'tool_use' && typeof block.name === 'string'
        ? {
            ...block,
            ...builtInCall(block.name, (block.input ?? {}) as Record<string, unknown>, folder),
          }
        : block,
    )
    return [{ ...(message as object), content: blocks }]
  })
  return { ...request, messages }
}

/** A reply a part wrote in built-in terms, in Claude Code's terms for `request`'s session. */
export function inClaudeCodeTerms(reply: Reply, request: ModelRequest): Reply {
  if (isFault(reply)) return reply
  const folder = workingFolder(request)
  const said = reply.content
    .flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join(' ')
  const content = reply.content.map((block): TurnBlock =>
    block.type === 'tool_use'
      ? { ...block, ...claudeCodeCall(block.name, block.input, folder, said) }
      : block,
  )
  return { ...reply, content }
}

/** Plays `part` for `request`, which may come from the built-in engine or from Claude Code. */
export function onEitherEngine(
  request: ModelRequest,
  part: (request: ModelRequest) => Reply,
): Reply {
  if (!isClaudeCode(request)) return part(request)
  return inClaudeCodeTerms(part(inBuiltInTerms(request)), request)
}
