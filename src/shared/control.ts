import { z } from 'zod'
import { jsonTextTooDeep, MAX_JSON_DEPTH } from './json-limits'
import { NAME_RULE, isValidName } from './names'

/**
 * `.team/control.jsonl`: commands other processes append for a running team (`agent-teams stop`,
 * `resume`, `budget`). Any program can append anything there, so every line is judged here, as
 * data: a valid command, or a refusal with its reason, never a throw.
 */

/** The longest control line read; a real command is under 200 bytes. */
export const MAX_CONTROL_LINE_BYTES = 64 * 1024

const agentName = z.string().refine(isValidName, { message: `not an agent name (${NAME_RULE})` })
/** A budget limit: a positive whole number, or null for none. */
const limit = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullable()
/** Written by the CLI beside every command; read for nothing but allowed. */
const stamps = { v: z.literal(1).optional(), at: z.number().optional() }

export const controlCommandSchema = z.discriminatedUnion('command', [
  z.object({ command: z.enum(['stop', 'resume']), name: agentName, ...stamps }),
  z.object({
    command: z.literal('budget'),
    /** null: the team's budget. */
    name: agentName.nullable(),
    tokens: limit,
    rounds: limit,
    ...stamps,
  }),
])
type ControlLine = z.infer<typeof controlCommandSchema>
export type ControlCommand =
  | { readonly command: 'stop' | 'resume'; readonly name: string }
  | {
      readonly command: 'budget'
      readonly name: string | null
      readonly tokens: number | null
      readonly rounds: number | null
    }

export type ControlVerdict =
  | { readonly ok: true; readonly command: ControlCommand }
  | { readonly ok: false; readonly reason: string }

/** Judges one line of control.jsonl (without its newline). Never throws. */
export function parseControlLine(text: string): ControlVerdict {
  if (text.length > MAX_CONTROL_LINE_BYTES)
    return {
      ok: false,
      reason: `line of ${text.length} characters is over the limit of ${MAX_CONTROL_LINE_BYTES}`,
    }
  if (jsonTextTooDeep(text, MAX_JSON_DEPTH))
    return { ok: false, reason: `nested more than ${MAX_JSON_DEPTH} levels deep` }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return { ok: false, reason: `not valid JSON: ${(error as Error).message}` }
  }
  const parsed = controlCommandSchema.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue?.path.length ? `field "${issue.path.join('.')}": ` : ''
    return { ok: false, reason: `not a control command: ${where}${issue?.message ?? 'invalid'}` }
  }
  return { ok: true, command: withoutStamps(parsed.data) }
}

function withoutStamps(line: ControlLine): ControlCommand {
  if (line.command === 'budget')
    return { command: 'budget', name: line.name, tokens: line.tokens, rounds: line.rounds }
  return { command: line.command, name: line.name }
}
