import { homedir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import { TeamError } from '../../shared/errors'
import { FILE_CAPS, readRegularTextSync } from '../fs/safe-open'
import { priceOverridesSchema } from '../../shared/prices'
import { demoSpeedSchema } from '../../shared/demo-speed'

export const DEFAULT_MODEL = 'claude-sonnet-4-5'

const settingsSchema = z.looseObject({
  apiKey: z.string().optional(),
  baseURL: z.string().optional(),
  model: z.string().optional(),
  useOfflineModel: z.boolean().optional(),
  leadWakesOnMessages: z.boolean().optional(),
  /** An unknown speed (a newer app's) reads as the default rather than refusing the file. */
  demoSpeed: demoSpeedSchema.optional().catch(undefined),
  /** The context window of the configured model, in tokens, where the built-in table has none. */
  contextWindow: z.number().int().min(1000).optional(),
  /** USD per million tokens, per model id or family prefix (src/shared/prices.ts). */
  prices: priceOverridesSchema.optional(),
})
export type Settings = z.infer<typeof settingsSchema>

export interface ModelConfig {
  readonly apiKey?: string
  readonly baseURL?: string
  readonly model: string
  readonly contextWindow?: number
  /** Where each value came from, for the settings view and error messages. */
  readonly sources: {
    apiKey: 'environment' | 'settings' | 'none'
    baseURL: 'environment' | 'settings' | 'default'
    model: 'environment' | 'settings' | 'default'
  }
}

/** The settings file in the user's config folder: `$XDG_CONFIG_HOME/agent-teams/settings.json`. */
export function settingsPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'agent-teams', 'settings.json')
}

export function readSettings(path: string): Settings {
  const text = readRegularTextSync(path, {
    what: 'The settings file',
    maxBytes: FILE_CAPS.record,
    code: 'file-invalid',
    remedy: 'Fix it or move it aside (the settings then start from their defaults).',
  })
  if (text === null) return {}
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new TeamError(
      'file-invalid',
      `The settings file ${path} is not valid JSON (${(error as Error).message}); fix or remove it.`,
    )
  }
  const parsed = settingsSchema.safeParse(value)
  if (!parsed.success)
    throw new TeamError(
      'file-invalid',
      `The settings file ${path} is invalid: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
    )
  return parsed.data
}

/**
 * The model configuration as the tutorial reads it: ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL and
 * MODEL_ID from the environment, each falling back to the settings file.
 */
export function loadModelConfig(
  env: NodeJS.ProcessEnv = process.env,
  path = settingsPath(env),
): ModelConfig {
  const settings = readSettings(path)
  const apiKey = env.ANTHROPIC_API_KEY || settings.apiKey
  const baseURL = env.ANTHROPIC_BASE_URL || settings.baseURL
  const model = env.MODEL_ID || settings.model || DEFAULT_MODEL
  return {
    ...(apiKey ? { apiKey } : {}),
    ...(baseURL ? { baseURL } : {}),
    model,
    ...(settings.contextWindow ? { contextWindow: settings.contextWindow } : {}),
    sources: {
      apiKey: env.ANTHROPIC_API_KEY ? 'environment' : settings.apiKey ? 'settings' : 'none',
      baseURL: env.ANTHROPIC_BASE_URL ? 'environment' : settings.baseURL ? 'settings' : 'default',
      model: env.MODEL_ID ? 'environment' : settings.model ? 'settings' : 'default',
    },
  }
}
