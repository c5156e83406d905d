/** How the roster lays out its members: as the team's size says, or one of them always. */
export type RosterDensityChoice = 'auto' | 'normal' | 'compact'
export type RosterDensity = 'normal' | 'compact'

export const ROSTER_DENSITY_CHOICES: readonly RosterDensityChoice[] = ['auto', 'normal', 'compact']

/**
 * From this many agents (the lead included) Auto goes compact: a normal row is about 110 px
 * tall, so past eight the list no longer fits a laptop's window and the person scrolls for
 * who is working.
 */
export const COMPACT_FROM = 9

/** A setting of this window's look (as the theme), not of the team or the workspace. */
const STORAGE_KEY = 'agent-teams.roster-density'

export function parseDensityChoice(value: unknown): RosterDensityChoice {
  return ROSTER_DENSITY_CHOICES.find((choice) => choice === value) ?? 'auto'
}

export function resolveDensity(choice: RosterDensityChoice, agents: number): RosterDensity {
  if (choice === 'auto') return agents >= COMPACT_FROM ? 'compact' : 'normal'
  return choice
}

/** The person's choice, kept across reloads; React reads it with useSyncExternalStore. */
export interface DensityController {
  choice(): RosterDensityChoice
  choose(choice: RosterDensityChoice): void
  subscribe(listener: () => void): () => void
}

export function createDensityController(storage: Storage | null): DensityController {
  const listeners = new Set<() => void>()
  let current = parseDensityChoice(read(storage))
  return {
    choice: () => current,
    choose(next) {
      current = next
      try {
        storage?.setItem(STORAGE_KEY, next)
      } catch {
        // Storage refused (a private window): the choice holds until the page reloads.
      }
      for (const listener of listeners) listener()
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

function read(storage: Storage | null): string | null {
  try {
    return storage?.getItem(STORAGE_KEY) ?? null
  } catch {
    return null
  }
}

let shared: DensityController | null = null

/** The page's one controller, read from the window's storage the first time it is asked for. */
export function densityController(): DensityController {
  shared ??= createDensityController(storageOf(window))
  return shared
}

function storageOf(target: Window): Storage | null {
  try {
    return target.localStorage
  } catch {
    return null
  }
}
