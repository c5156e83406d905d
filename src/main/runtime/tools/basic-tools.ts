import { z } from 'zod'
import type { BashResult } from './bash'
import {
  DEFAULT_BASH_TIMEOUT_MS,
  DEFAULT_MAX_OUTPUT_CHARACTERS,
  refusedCommandReason,
  runBash,
} from './bash'
import { pidNamespacesAvailable } from './bash-launch'
import { resolveBashShell, type BashShell } from './shell'
import { editWorkspaceFile, readWorkspaceFile, writeWorkspaceFile } from './file-tools'
import type { Tool } from './types'
import { defineTool, ToolFailure } from './types'

/** Secrets of the app itself that a command has no business reading (and echoing to a model). */
const HIDDEN_ENVIRONMENT = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN']

export interface BashToolOptions {
  readonly timeoutMs?: number
  readonly maxOutputCharacters?: number
  /** Which bash to run, asked at each call; tests inject another platform's answer. */
  readonly resolveShell?: () => BashShell
}

/** The bash tool with its limits; `bashTool` has the defaults (120 s, 50,000 characters). */
export function createBashTool(options: BashToolOptions = {}): Tool {
  const timeoutMs = options.timeoutMs ?? DEFAULT_BASH_TIMEOUT_MS
  return defineTool(
    {
      name: 'bash',
      description:
        'Run a shell command in your workspace folder with /bin/bash. stdout and stderr come ' +
        `back together, capped at ${options.maxOutputCharacters ?? DEFAULT_MAX_OUTPUT_CHARACTERS} ` +
        `characters; the command is killed after ${formatSeconds(timeoutMs)} s. Processes it ` +
        'leaves running in the background are stopped when it ends. It runs with the ' +
        "user's own rights: it can read and change files outside the workspace and use the " +
        'network, so keep to the workspace. ' +
        (pidNamespacesAvailable()
          ? 'It runs in a PID namespace of its own: everything it starts ends with it.'
          : 'Processes detached with setsid or daemons may outlive it; do not start them.'),
      input_schema: {
        type: 'object',
        properties: { command: { type: 'string' } },
        required: ['command'],
      },
    },
    z.object({ command: z.string().min(1) }),
    async (input, context) => {
      const reason = refusedCommandReason(input.command)
      if (reason !== null) {
        throw new ToolFailure(
          `Command refused by the safety guard: ${reason}. Nothing was run; work inside the ` +
            'workspace instead.',
        )
      }
      const shell = (options.resolveShell ?? resolveBashShell)()
      if (!shell.ok) throw new ToolFailure(shell.reason)
      const environment = { ...process.env }
      for (const name of HIDDEN_ENVIRONMENT) delete environment[name]
      const result = await runBash(input.command, {
        cwd: context.workspace,
        timeoutMs,
        maxOutputCharacters: options.maxOutputCharacters,
        signal: context.signal,
        env: environment,
        shell: shell.file,
      })
      const content = describeBashResult(result, timeoutMs)
      if (isFailure(result)) throw new ToolFailure(content)
      return content
    },
  )
}

/** The output, or "(no output)", and a trailer line when the command did not simply succeed. */
export function describeBashResult(result: BashResult, timeoutMs: number): string {
  const output = result.output === '' ? '(no output)' : result.output
  const trailer = bashTrailer(result, timeoutMs)
  if (trailer === null) return output
  return output.endsWith('\n') ? `${output}${trailer}` : `${output}\n${trailer}`
}

function bashTrailer(result: BashResult, timeoutMs: number): string | null {
  if (result.aborted) return '[stopped]'
  if (result.timedOut) {
    return `[timed out after ${formatSeconds(timeoutMs)} s; process group killed]`
  }
  if (result.signal !== null) return `[killed by ${result.signal}]`
  if (result.exitCode !== 0) return `[exit code ${result.exitCode}]`
  return null
}

function isFailure(result: BashResult): boolean {
  return result.aborted || result.timedOut || result.exitCode !== 0
}

function formatSeconds(milliseconds: number): string {
  return String(Math.round((milliseconds / 1000) * 10) / 10)
}

export const bashTool: Tool = createBashTool()

export const readFileTool: Tool = defineTool(
  {
    name: 'read_file',
    description:
      'Read a text file in your workspace (a path relative to it). ' +
      'limit: read only the first N lines.',
    input_schema: {
      type: 'object',
      properties: { path: { type: 'string' }, limit: { type: 'integer', minimum: 1 } },
      required: ['path'],
    },
  },
  z.object({ path: z.string(), limit: z.int().min(1).optional() }),
  (input, context) => readWorkspaceFile(context.workspace, input.path, { limit: input.limit }),
)

export const writeFileTool: Tool = defineTool(
  {
    name: 'write_file',
    description:
      'Write content to a file in your workspace, replacing it if it exists; ' +
      'missing folders are created.',
    input_schema: {
      type: 'object',
      properties: { path: { type: 'string' }, content: { type: 'string' } },
      required: ['path', 'content'],
    },
  },
  z.object({ path: z.string(), content: z.string() }),
  (input, context) => writeWorkspaceFile(context.workspace, input.path, input.content),
)

export const editFileTool: Tool = defineTool(
  {
    name: 'edit_file',
    description:
      'Replace exact text in a file in your workspace. old_text must occur exactly once, ' +
      'whitespace included.',
    input_schema: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        old_text: { type: 'string' },
        new_text: { type: 'string' },
      },
      required: ['path', 'old_text', 'new_text'],
    },
  },
  z.object({ path: z.string(), old_text: z.string(), new_text: z.string() }),
  (input, context) =>
    editWorkspaceFile(context.workspace, input.path, input.old_text, input.new_text),
)

/** The tools every agent has, lead and teammates alike. */
export const basicTools: readonly Tool[] = [bashTool, readFileTool, writeFileTool, editFileTool]
