import { z } from 'zod'

/**
 * How fast the built-in offline model streams. A newcomer watching the demo in the window needs
 * to see the team work, so the window starts slow; tests and the CLI want it instant.
 */
export const DEMO_SPEEDS = ['slow', 'normal', 'instant'] as const
export const demoSpeedSchema = z.enum(DEMO_SPEEDS)
export type DemoSpeed = z.infer<typeof demoSpeedSchema>

export const DEFAULT_DEMO_SPEED: DemoSpeed = 'slow'

/** The pause between two streamed events (each carries about a dozen characters). */
export function demoEventDelayMs(speed: DemoSpeed): number {
  return speed === 'slow' ? 45 : speed === 'normal' ? 12 : 0
}
