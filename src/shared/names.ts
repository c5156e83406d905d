import { TeamError } from './errors'

/** The lead agent: always a valid recipient, never spawnable. */
export const LEAD = 'lead'
/** The person at the keyboard: a sender, never spawnable. */
export const USER = 'user'
/**
 * The app's reactions (`shared/reactions.ts`): the sender of a failed check, a nudge or a merge
 * conflict in an agent's inbox. A sender only, like the person, and never spawnable, so that a
 * teammate cannot pass for it.
 */
export const REACTIONS_SENDER = 'reactions'
export const RESERVED_NAMES: readonly string[] = [LEAD, USER, REACTIONS_SENDER]

export const NAME_PATTERN = /^[a-z][a-z0-9_-]{0,31}$/
export const NAME_RULE =
  'a name is 1-32 characters: lowercase letters, digits, "-" and "_", starting with a letter'

export function isValidName(name: unknown): name is string {
  return typeof name === 'string' && NAME_PATTERN.test(name)
}

/** Why `name` is not a valid agent name, or null when it is one. */
export function nameProblem(name: string): string | null {
  if (name.length === 0) return 'the name is empty'
  if (name.length > 32) return `"${truncate(name)}" is longer than 32 characters`
  if (!/^[a-z]/.test(name)) return `"${truncate(name)}" must start with a lowercase letter`
  if (!NAME_PATTERN.test(name)) {
    return `"${truncate(name)}" may contain only lowercase letters, digits, "-" and "_"`
  }
  return null
}

export function assertValidName(name: string, what = 'name'): void {
  const problem = nameProblem(name)
  if (problem !== null)
    throw new TeamError('invalid-name', `Invalid ${what}: ${problem} (${NAME_RULE}).`)
}

/** A teammate name: valid and not reserved. */
export function assertSpawnableName(name: string): void {
  assertValidName(name)
  if (RESERVED_NAMES.includes(name)) {
    throw new TeamError(
      'reserved-name',
      `"${name}" is reserved (${RESERVED_NAMES.join(', ')}) and cannot be spawned.`,
    )
  }
}

function truncate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text
}
