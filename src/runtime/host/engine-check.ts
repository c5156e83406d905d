import { ENGINE_LABELS, type EngineAvailability, type EngineName } from '../../shared/engine'
import { TeamError } from '../../shared/errors'

/**
 * Refuses a spawn onto an engine that cannot run here (`engine-unavailable`), in the words of
 * its availability: why, and what to install. Every spawn is checked by the host; the CLI asks
 * it too before it writes the control line, to say so at once.
 */
export function assertEngineAvailable(
  engine: EngineName,
  engines: readonly EngineAvailability[],
): void {
  const found = engines.find((candidate) => candidate.engine === engine)
  if (found?.available === true) return
  throw new TeamError(
    'engine-unavailable',
    found?.problem ?? `The ${ENGINE_LABELS[engine]} engine cannot run here.`,
  )
}
