import type { Usage } from '../../../shared/transcript'

/*
 * Numbers read from what a Claude Code session or its answers report: untrusted JSON (the
 * process runs in the sandbox), so a count is a finite whole number of at least 0, or 0.
 */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A token count as reported, or 0 for anything that is not one. */
export function tokenCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0
}

/** The Messages API's `usage` object (snake_case) as a Usage. */
export function apiUsage(value: unknown): Usage {
  const usage = isRecord(value) ? value : {}
  return {
    input_tokens: tokenCount(usage['input_tokens']),
    output_tokens: tokenCount(usage['output_tokens']),
    cache_creation_input_tokens: tokenCount(usage['cache_creation_input_tokens']),
    cache_read_input_tokens: tokenCount(usage['cache_read_input_tokens']),
  }
}
