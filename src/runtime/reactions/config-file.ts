import { mkdirSync } from 'node:fs'
import { TeamError } from '../../shared/errors'
import {
  applyReactionsChange,
  DEFAULT_REACTIONS,
  reactionsChangeSchema,
  reactionsConfigSchema,
  type ReactionsChange,
  type ReactionsConfig,
} from '../../shared/reactions'
import { writeFileAtomicSync } from '../fs/durable'
import { readRegularTextSync } from '../fs/safe-open'
import type { TeamPaths } from '../team/paths'

/** `.team/reactions.json` is small: anything over this is refused, not read. */
export const MAX_REACTIONS_FILE_BYTES = 64 * 1024

/** What `.team/reactions.json` says, or why it cannot be used (then the defaults apply). */
export interface ReactionsReading {
  readonly config: ReactionsConfig
  readonly problem: string | null
  /** Whether the file exists (a missing one is the defaults, and no problem). */
  readonly present: boolean
}

/**
 * Reads `.team/reactions.json`: a regular file (never through a link, a FIFO or a folder), at
 * most 64 KiB, JSON, and the schema, else the defaults apply and `problem` says why. Anything
 * can be put under `.team/`, so nothing in it is trusted further than that.
 */
export function readReactionsConfig(paths: TeamPaths): ReactionsReading {
  const file = paths.reactionsConfig
  let text: string | null
  try {
    text = readRegularTextSync(file, {
      what: "The team's reactions",
      maxBytes: MAX_REACTIONS_FILE_BYTES,
    })
  } catch (error) {
    return refused(error instanceof Error ? error.message : String(error))
  }
  if (text === null) return { config: DEFAULT_REACTIONS, problem: null, present: false }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return refused(
      `${file} is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    )
  }
  const parsed = reactionsConfigSchema.safeParse(value)
  if (!parsed.success) return refused(`${file} is not valid (${describeIssues(parsed.error)})`)
  return { config: parsed.data, problem: null, present: true }
}

/**
 * The person's change, written atomically (a reader sees the old file or the new one). A file
 * that cannot be used is never overwritten: the change is refused with its reason, so what it
 * held is not lost to a default; fix it or remove it first.
 */
export function writeReactionsConfig(paths: TeamPaths, change: ReactionsChange): ReactionsConfig {
  const checked = reactionsChangeSchema.safeParse(change)
  if (!checked.success)
    throw new TeamError(
      'invalid-argument',
      `The reactions were not saved: ${describeIssues(checked.error)}.`,
    )
  const reading = readReactionsConfig(paths)
  if (reading.problem !== null)
    throw new TeamError(
      'file-invalid',
      `The reactions were not saved: ${reading.problem}. Fix the file or remove it, then set them again.`,
    )
  const next = applyReactionsChange(reading.config, checked.data)
  mkdirSync(paths.root, { recursive: true })
  writeFileAtomicSync(paths.reactionsConfig, `${JSON.stringify(next, null, 2)}\n`)
  return next
}

function refused(reason: string): ReactionsReading {
  return {
    config: DEFAULT_REACTIONS,
    problem: `${reason}; the default reactions apply (no check command) until it is fixed`,
    present: true,
  }
}

function describeIssues(error: {
  issues: readonly { path: readonly PropertyKey[]; message: string }[]
}): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map(String).join('.') || 'file'}: ${issue.message}`)
    .join('; ')
}
