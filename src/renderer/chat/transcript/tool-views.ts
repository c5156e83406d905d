import { z } from 'zod'
import { languageForPath } from '../../ui/markdown/languages'
import type { ToolCall } from './rows'

/*
 * How each tool's card shows its call. Inputs come from transcripts (hostile files) or from a
 * stream still being written: each is checked with its schema, and anything that does not fit
 * (a partial input, a changed tool, a tool this window does not know) gets the generic card.
 */
const writeFileInput = z.object({ path: z.string(), content: z.string() })
const editFileInput = z.object({ path: z.string(), old_text: z.string(), new_text: z.string() })
const bashInput = z.object({ command: z.string() })
const sendMessageInput = z.object({
  to: z.string(),
  content: z.string(),
  type: z.string().optional(),
})
const broadcastInput = z.object({ content: z.string() })
// A Claude Code teammate's own tools (engine claude-code), shown with the same cards.
const claudeWriteInput = z.object({ file_path: z.string(), content: z.string() })
const claudeEditInput = z.object({
  file_path: z.string(),
  old_string: z.string(),
  new_string: z.string(),
})
/** The team's tools as a Claude Code teammate calls them (its in-process MCP server). */
const TEAM_SERVER_PREFIX = 'mcp__team__'

/** How a bash call ended, read from the trailer line the bash tool appends to its output. */
export interface BashEnd {
  /** "exit 0", "exit 2", "timed out"… for the card's header. */
  readonly label: string
  readonly ok: boolean
}

export type ToolView =
  | {
      readonly kind: 'write'
      readonly path: string
      readonly content: string
      readonly language: string | null
    }
  | {
      readonly kind: 'edit'
      readonly path: string
      readonly oldText: string
      readonly newText: string
      readonly language: string | null
    }
  | {
      readonly kind: 'bash'
      readonly command: string
      /** The output without the trailer line; null until it ran. */
      readonly output: string | null
      readonly end: BashEnd | null
    }
  | {
      readonly kind: 'message'
      /** The recipient; null for a broadcast (to every teammate). */
      readonly to: string | null
      readonly content: string
    }
  | { readonly kind: 'generic' }

function parsedInput(input: string): unknown {
  try {
    return JSON.parse(input)
  } catch {
    return undefined
  }
}

/** The card a call gets, from its name and its (checked) input. */
export function toolView(call: ToolCall): ToolView {
  const input = parsedInput(call.input)
  const name = call.name.startsWith(TEAM_SERVER_PREFIX)
    ? call.name.slice(TEAM_SERVER_PREFIX.length)
    : call.name
  switch (name) {
    case 'Write': {
      const parsed = claudeWriteInput.safeParse(input)
      if (!parsed.success) break
      const { file_path: path, content } = parsed.data
      return { kind: 'write', path, content, language: languageForPath(path) }
    }
    case 'Edit': {
      const parsed = claudeEditInput.safeParse(input)
      if (!parsed.success) break
      const { file_path: path, old_string: oldText, new_string: newText } = parsed.data
      return { kind: 'edit', path, oldText, newText, language: languageForPath(path) }
    }
    case 'Bash': {
      const parsed = bashInput.safeParse(input)
      if (!parsed.success) break
      return { kind: 'bash', command: parsed.data.command, ...claudeBashOutcome(call) }
    }
    case 'write_file': {
      const parsed = writeFileInput.safeParse(input)
      if (!parsed.success) break
      const { path, content } = parsed.data
      return { kind: 'write', path, content, language: languageForPath(path) }
    }
    case 'edit_file': {
      const parsed = editFileInput.safeParse(input)
      if (!parsed.success) break
      const { path, old_text: oldText, new_text: newText } = parsed.data
      return { kind: 'edit', path, oldText, newText, language: languageForPath(path) }
    }
    case 'bash': {
      const parsed = bashInput.safeParse(input)
      if (!parsed.success) break
      return { kind: 'bash', command: parsed.data.command, ...bashOutcome(call) }
    }
    case 'send_message': {
      const parsed = sendMessageInput.safeParse(input)
      if (!parsed.success) break
      return { kind: 'message', to: parsed.data.to, content: parsed.data.content }
    }
    case 'broadcast': {
      const parsed = broadcastInput.safeParse(input)
      if (!parsed.success) break
      return { kind: 'message', to: null, content: parsed.data.content }
    }
  }
  return { kind: 'generic' }
}

const TRAILER = /\n?\[(exit code (-?\d+)|timed out after [^\]]*|killed by (\w+)|stopped)\]\s*$/

/** The output and how the command ended; a refused command (no trailer, an error) ran nothing. */
export function bashOutcome(call: Pick<ToolCall, 'state' | 'output'>): {
  output: string | null
  end: BashEnd | null
} {
  if (call.output === null) return { output: null, end: null }
  if (call.state === 'done') return { output: call.output, end: { label: 'exit 0', ok: true } }
  if (call.state !== 'failed') return { output: call.output, end: null }
  const match = TRAILER.exec(call.output)
  if (match === null) return { output: call.output, end: { label: 'not run', ok: false } }
  const output = call.output.slice(0, match.index)
  const [, what = '', code, signal] = match
  const label =
    code !== undefined
      ? `exit ${code}`
      : signal !== undefined
        ? `killed (${signal})`
        : what.startsWith('timed out')
          ? 'timed out'
          : 'stopped'
  return { output, end: { label, ok: false } }
}

/** Claude Code's Bash says a failure's exit code on its first line ("Exit code 2"). */
function claudeBashOutcome(call: Pick<ToolCall, 'state' | 'output'>): {
  output: string | null
  end: BashEnd | null
} {
  if (call.output === null) return { output: null, end: null }
  if (call.state === 'done') return { output: call.output, end: { label: 'exit 0', ok: true } }
  if (call.state !== 'failed') return { output: call.output, end: null }
  const match = /^Exit code (-?\d+)\n?/.exec(call.output)
  return match === null
    ? { output: call.output, end: { label: 'not run', ok: false } }
    : { output: call.output.slice(match[0].length), end: { label: `exit ${match[1]}`, ok: false } }
}

/** `mcp__github__create_issue` → the tool's own name and its server, for the header. */
export function toolTitle(name: string): { name: string; server: string | null } {
  const match = /^mcp__(.+?)__(.+)$/.exec(name)
  return match === null
    ? { name, server: null }
    : { name: match[2] ?? name, server: match[1] ?? null }
}
