import {
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { locateClaudeCode } from '../../src/runtime/engines/claude-code/availability'
import type { ModelRequest } from '../../src/offline-model/script'

/**
 * Why Claude Code tests cannot run here (its SDK or binary, or the OS sandbox, missing), or
 * null. Printed by the tests that skip for it.
 */
export function claudeCodeMissing(): string | null {
  const found = locateClaudeCode()
  return 'problem' in found ? found.problem : null
}

/** Claude Code wants this as root (CI runs as root) to take the prompts it is given. */
export const CLAUDE_CODE_TEST_ENV: Readonly<Record<string, string>> = { IS_SANDBOX: '1' }

/** A model id Claude Code knows (it warns of one it does not, and picks its own defaults). */
export const CLAUDE_CODE_TEST_MODEL = 'claude-sonnet-4-5'

/** Puts idle members on a new workspace's roster, with their engines, before a host opens it. */
export function rosterWith(
  workspace: string,
  members: readonly {
    name: string
    role?: string
    engine?: string
    profile?: string
    approval?: string
    model?: string
  }[],
): void {
  mkdirSync(join(workspace, '.team'), { recursive: true })
  writeFileSync(
    join(workspace, '.team', 'config.json'),
    JSON.stringify({
      team_name: 'test',
      members: members.map((member) => ({ role: 'engineer', status: 'idle', ...member })),
    }),
  )
}

/** The names of the tools a Claude Code request offers (to play its side by tool name). */
export function offeredTools(request: ModelRequest): string[] {
  return (request.tools ?? []).flatMap((tool) =>
    typeof tool === 'object' && tool !== null && 'name' in tool && typeof tool.name === 'string'
      ? [tool.name]
      : [],
  )
}

/** The text of a request's last user message (what it was just told). */
export function lastUserText(request: ModelRequest): string {
  const last = request.messages.at(-1) as { content?: unknown } | undefined
  const content = last?.content
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .map((block) => {
      if (typeof block !== 'object' || block === null) return ''
      const value = block as { text?: unknown; content?: unknown }
      if (typeof value.text === 'string') return value.text
      if (typeof value.content === 'string') return value.content
      if (Array.isArray(value.content))
        return value.content.map((inner: { text?: string }) => inner.text ?? '').join('\n')
      return ''
    })
    .join('\n')
}

/** The Claude Code processes running now with `folder` as their working folder (Linux). */
export function claudeCodeProcessesIn(folder: string): number[] {
  return readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return []
    try {
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8')
      if (!command.includes('claude-agent-sdk')) return []
      return realpathSync(readlinkSync(`/proc/${entry}/cwd`)) === realpathSync(folder)
        ? [Number(entry)]
        : []
    } catch {
      return []
    }
  })
}
