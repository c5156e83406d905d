import type { EngineAvailability } from '../../shared/engine'
import { claudeCodeAvailability } from './claude-code/availability'

const BUILTIN: EngineAvailability = {
  engine: 'builtin',
  available: true,
  problem: null,
  needs: "The team's endpoint and key (any Anthropic-compatible endpoint).",
  costs: "The model's prices, with this app's small tool set and prompt.",
}

/** Every engine, and whether it can run here: asked afresh (an install may come meanwhile). */
export function engineAvailability(): EngineAvailability[] {
  return [BUILTIN, claudeCodeAvailability()]
}
