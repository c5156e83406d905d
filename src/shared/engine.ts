import { z } from 'zod'

/**
 * What runs an agent's turns. `builtin` is this app's own loop against any Anthropic-compatible
 * endpoint; `claude-code` is a Claude Code session through `@anthropic-ai/claude-agent-sdk`.
 * The mailbox, roster, board, worktrees, review, profiles, Needs-you, sandbox and budgets treat
 * every engine the same; only the host's agent factory reads this.
 */
export const ENGINES = ['builtin', 'claude-code'] as const
export const engineSchema = z.enum(ENGINES)
export type EngineName = z.infer<typeof engineSchema>

/** A member without an `engine` field (every roster written before engines) runs builtin. */
export const DEFAULT_ENGINE: EngineName = 'builtin'

/** What each engine is, for the spawn dialog and `agent-teams engines`. */
export const ENGINE_LABELS: Readonly<Record<EngineName, string>> = {
  builtin: 'Built-in',
  'claude-code': 'Claude Code',
}

/**
 * Whether an engine can run here, and what it needs and costs, said to the person: what
 * `getEngines` answers, `agent-teams engines` prints and the spawn dialog shows.
 */
export const engineAvailabilitySchema = z.object({
  engine: engineSchema,
  available: z.boolean(),
  /** Why it cannot run here and what to install, or null when it can. */
  problem: z.string().nullable(),
  /** What it needs and costs, one sentence each, for the spawn dialog. */
  needs: z.string(),
  costs: z.string(),
})
export type EngineAvailability = Readonly<z.infer<typeof engineAvailabilitySchema>>

/** The engine a roster member runs (absent: builtin). */
export function engineOf(member: { readonly engine?: EngineName | null } | undefined): EngineName {
  return member?.engine ?? DEFAULT_ENGINE
}
