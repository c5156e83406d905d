import { z } from 'zod'
import { TeamError } from '../../shared/errors'

export interface ToolContext {
  /** Absolute: the agent's workspace folder. */
  readonly workspace: string
  /** The calling agent's name. */
  readonly agent: string
  /** Aborted when the agent is stopped: a running bash must be killed. */
  readonly signal: AbortSignal
  /** The transcript seq of the model turn that made the call (what a task links to). */
  readonly turn?: number
  /** The tool_use block's id (a question waits on the same queue entry after a restart). */
  readonly callId?: string
}

/** What goes back to the model as a `tool_result` block. */
export interface ToolOutcome {
  readonly content: string
  readonly isError: boolean
  /** Images sent with the text (an MCP tool's screenshot), base64 as the API takes them. */
  readonly images?: readonly ToolImage[]
}

export interface ToolImage {
  readonly media_type: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp'
  readonly data: string
}

/** The tool as the Messages API sees it. */
export interface ToolDefinition {
  readonly name: string
  readonly description: string
  readonly input_schema: ToolInputSchema
}

/** A tool's input as JSON Schema: the API wants an object schema at the top. */
export type ToolInputSchema = {
  type: 'object'
  properties: Record<string, unknown>
  required?: string[]
} & Record<string, unknown>

export interface Tool {
  readonly definition: ToolDefinition
  /** The zod schema its input is parsed with; absent for tools described by others (MCP). */
  readonly input?: z.ZodType
  /** Never throws: every failure, bugs included, comes back as an `isError` outcome. */
  run(input: unknown, context: ToolContext): Promise<ToolOutcome>
}

/** What a built-in tool declares: its JSON Schema is derived from `input`, never written. */
export interface ToolSpec<T> {
  readonly name: string
  readonly description: string
  /** The input's parser; field descriptions (`.describe()`) reach the model through it. */
  readonly input: z.ZodType<T>
}

/**
 * The JSON Schema the model is given for a zod input schema: the conversion the SDK's own
 * `betaZodTool` makes, which the API accepts. `io: 'input'` describes what the model may send
 * (a field with a default stays optional); the `$schema` key is dropped because the API needs
 * none and every tool would repeat it in every request.
 */
export function toolInputSchema(input: z.ZodType): ToolInputSchema {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(input, { io: 'input' })
  if (schema.type !== 'object') {
    throw new Error(`A tool's input must be a zod object, not ${String(schema.type)}`)
  }
  return { ...schema, type: 'object', properties: schema.properties ?? {} }
}

/**
 * Builds a Tool from a zod schema. Invalid input, a thrown TeamError and a file-system error
 * (an Error with a `code` such as ENOENT) become `isError` outcomes the model can act on. A bug
 * (TypeError and the like) also becomes an outcome, marked "internal error", rather than a throw:
 * one broken tool call must not take the agent's whole turn down with it.
 */
export function defineTool<T>(
  spec: ToolSpec<T>,
  run: (input: T, context: ToolContext) => Promise<string>,
): Tool {
  const definition: ToolDefinition = {
    name: spec.name,
    description: spec.description,
    input_schema: toolInputSchema(spec.input),
  }
  const schema = spec.input
  return {
    definition,
    input: schema,
    async run(input: unknown, context: ToolContext): Promise<ToolOutcome> {
      try {
        const parsed = schema.safeParse(input)
        if (!parsed.success) {
          return { content: invalidInputMessage(definition.name, parsed.error), isError: true }
        }
        return { content: await run(parsed.data, context), isError: false }
      } catch (error) {
        return { content: failureMessage(definition.name, error, context), isError: true }
      }
    },
  }
}

/**
 * Thrown inside a tool's `run` when the call finished but failed in a way that has output worth
 * showing (bash's non-zero exit): the content goes to the model as is, marked as an error.
 */
export class ToolFailure extends Error {
  override readonly name = 'ToolFailure'
  constructor(readonly content: string) {
    super(content)
  }
}

function invalidInputMessage(toolName: string, error: z.ZodError): string {
  const problems = error.issues.map((issue) => {
    const field = issue.path.length === 0 ? '(input)' : issue.path.map(String).join('.')
    // zod prefixes type problems with "Invalid input: ", which our own prefix already says.
    return `${field}: ${issue.message.replace(/^Invalid input: /, '')}`
  })
  return `Invalid input for ${toolName}: ${problems.join('; ')}`
}

function failureMessage(toolName: string, error: unknown, context: ToolContext): string {
  if (error instanceof ToolFailure) return error.content
  if (error instanceof TeamError) return error.message
  if (isSystemError(error)) {
    // Node's messages name absolute paths; the model thinks in workspace-relative ones.
    const message = error.message.replaceAll(`${context.workspace}/`, '')
    return `${toolName}: ${message}`
  }
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  return `${toolName} hit an internal error (a bug in the app, not in your input): ${detail}`
}

function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string'
}
