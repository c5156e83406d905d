import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { SettingsView } from '../shared/contract'
import { TeamError } from '../shared/errors'
import { priceOverridesSchema, type PriceOverrides } from '../shared/prices'
import { DEFAULT_DEMO_SPEED, demoSpeedSchema, type DemoSpeed } from '../shared/demo-speed'
import { writeFileAtomicSync } from '../runtime/fs/durable'
import { FILE_CAPS, readRegularTextSync } from '../runtime/fs/safe-open'
import { DEFAULT_MODEL, readSettings, type Settings } from '../runtime/model/config'
import type { SecretStore } from '../runtime/secrets/secrets'

const RECENT_LIMIT = 10

/**
 * The app's settings (base URL, model, offline model, lead wake-up) in the settings file, the key
 * in the secret store, and the recent workspaces; the environment's ANTHROPIC_* values win.
 */
export class AppSettings {
  constructor(
    readonly directory: string,
    private readonly secrets: SecretStore,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  get settingsFile(): string {
    return join(this.directory, 'settings.json')
  }

  private get recentFile(): string {
    return join(this.directory, 'recent.json')
  }

  read(): Settings {
    return readSettings(this.settingsFile)
  }

  apiKey(): string | null {
    return this.env.ANTHROPIC_API_KEY || this.secrets.load()
  }

  view(): SettingsView {
    const settings = this.read()
    return {
      apiKeySet: this.apiKey() !== null,
      apiKeySource: this.env.ANTHROPIC_API_KEY
        ? 'environment'
        : this.secrets.load()
          ? 'settings'
          : 'none',
      baseURL: this.env.ANTHROPIC_BASE_URL || settings.baseURL || null,
      model: this.env.MODEL_ID || settings.model || DEFAULT_MODEL,
      useOfflineModel: settings.useOfflineModel === true,
      secretStorage: this.secrets.kind,
      secretStorageNote: this.secrets.note,
      leadWakesOnMessages: settings.leadWakesOnMessages !== false,
      demoSpeed: settings.demoSpeed ?? DEFAULT_DEMO_SPEED,
      contextWindow: settings.contextWindow ?? null,
      prices: settings.prices ?? {},
    }
  }

  async save(change: {
    apiKey?: string | null
    baseURL?: string | null
    model?: string
    useOfflineModel?: boolean
    leadWakesOnMessages?: boolean
    demoSpeed?: DemoSpeed
    contextWindow?: number | null
    prices?: PriceOverrides
  }): Promise<SettingsView> {
    if (change.apiKey !== undefined) {
      await this.secrets.save(
        change.apiKey === null || change.apiKey.trim() === '' ? null : change.apiKey.trim(),
      )
    }
    const settings: Record<string, unknown> = { ...this.read() }
    if (change.baseURL !== undefined) {
      if (change.baseURL === null) delete settings.baseURL
      else settings.baseURL = change.baseURL
    }
    if (change.model !== undefined) settings.model = change.model
    if (change.useOfflineModel !== undefined) settings.useOfflineModel = change.useOfflineModel
    if (change.leadWakesOnMessages !== undefined)
      settings.leadWakesOnMessages = change.leadWakesOnMessages
    if (change.demoSpeed !== undefined) settings.demoSpeed = demoSpeedSchema.parse(change.demoSpeed)
    if (change.contextWindow === null) delete settings.contextWindow
    else if (change.contextWindow !== undefined) settings.contextWindow = change.contextWindow
    if (change.prices !== undefined) {
      // Checked here too: the CLI and tests call this without the contract's parse.
      const prices = priceOverridesSchema.safeParse(change.prices)
      if (!prices.success)
        throw new TeamError(
          'invalid-argument',
          `The prices are invalid: ${prices.error.issues.map((issue) => `${issue.path.join('.') || 'prices'}: ${issue.message}`).join('; ')}`,
        )
      if (Object.keys(prices.data).length === 0) delete settings.prices
      else settings.prices = prices.data
    }
    mkdirSync(this.directory, { recursive: true })
    // Read after the secret store saved: a plain-file store keeps the key in this same file.
    // Every field, ours or not (the CLI's apiKey among them), is written back as it was read.
    writeFileAtomicSync(this.settingsFile, `${JSON.stringify(settings, null, 2)}\n`, {
      mode: 0o600,
    })
    return this.view()
  }

  recentWorkspaces(): string[] {
    try {
      const text = readRegularTextSync(this.recentFile, {
        what: 'The list of recent workspaces',
        maxBytes: FILE_CAPS.record,
      })
      const value = JSON.parse(text ?? '[]') as unknown
      return Array.isArray(value)
        ? value.filter((item): item is string => typeof item === 'string').slice(0, RECENT_LIMIT)
        : []
    } catch {
      return []
    }
  }

  rememberWorkspace(path: string): void {
    const paths = [path, ...this.recentWorkspaces().filter((item) => item !== path)].slice(
      0,
      RECENT_LIMIT,
    )
    mkdirSync(this.directory, { recursive: true })
    writeFileAtomicSync(this.recentFile, `${JSON.stringify(paths, null, 2)}\n`)
  }
}
