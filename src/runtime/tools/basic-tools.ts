import { z } from 'zod'
import { createBashTool, type BashToolOptions } from './bash-tool'
import { editWorkspaceFile, readWorkspaceFile, writeWorkspaceFile } from './file-tools'
import type { Tool } from './types'
import { defineTool } from './types'

export {
  createBashTool,
  describeBashResult,
  type BashApproval,
  type BashSandboxHooks,
  type BashSandboxOptions,
  type BashToolOptions,
} from './bash-tool'

export const bashTool: Tool = createBashTool()

export const readFileTool: Tool = defineTool(
  {
    name: 'read_file',
    description:
      'Read a text file in your workspace (a path relative to it). ' +
      'limit: read only the first N lines.',
    input: z.object({ path: z.string(), limit: z.int().min(1).optional() }),
  },
  (input, context) => readWorkspaceFile(context.workspace, input.path, { limit: input.limit }),
)

export const writeFileTool: Tool = defineTool(
  {
    name: 'write_file',
    description:
      'Write content to a file in your workspace, replacing it if it exists; ' +
      'missing folders are created.',
    input: z.object({ path: z.string(), content: z.string() }),
  },
  (input, context) => writeWorkspaceFile(context.workspace, input.path, input.content),
)

export const editFileTool: Tool = defineTool(
  {
    name: 'edit_file',
    description:
      'Replace exact text in a file in your workspace. old_text must occur exactly once, ' +
      'whitespace included.',
    input: z.object({ path: z.string(), old_text: z.string(), new_text: z.string() }),
  },
  (input, context) =>
    editWorkspaceFile(context.workspace, input.path, input.old_text, input.new_text),
)

/** The tools every agent has, lead and teammates alike. */
export const basicTools: readonly Tool[] = [bashTool, readFileTool, writeFileTool, editFileTool]

/** The basic tools with a bash of the team's own: its sandbox rules and approval hooks. */
export function basicToolsWith(bash: BashToolOptions): readonly Tool[] {
  return [createBashTool(bash), readFileTool, writeFileTool, editFileTool]
}
