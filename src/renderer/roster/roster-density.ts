import { createStoredChoice, pageStorage, pageWindow, type StoredChoice } from '../ui/stored-choice'

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

/** The person's choice, kept across reloads. */
export type DensityController = StoredChoice<RosterDensityChoice>

export function createDensityController(storage: Storage | null): DensityController {
  return createStoredChoice(storage, STORAGE_KEY, parseDensityChoice)
}

let shared: DensityController | null = null

/** The page's one controller, read from the window's storage the first time it is asked for. */
export function densityController(): DensityController {
  shared ??= createDensityController(pageStorage(pageWindow()))
  return shared
}
