import { TeamError } from '../shared/errors'
import { demoEventDelayMs, type DemoSpeed } from '../shared/demo-speed'
import { sameEndpoint, type ModelEndpoint } from '../runtime/model/client'
import { OfflineModelServer } from '../offline-model/offline-server'
import { demoScript } from '../offline-model/scenarios/demo'
import type { AppSettings } from './app-settings'

/**
 * The model endpoint the open team runs on, held by the app service. It is built when a
 * workspace opens (the offline demo's folder among them) and built again when the settings are
 * saved; a command that calls the model (a chat, a send, a spawn, a resume) only uses it, so a
 * chat never replaces the client nor lifts a refused-key alert. The offline model's server
 * starts with the first endpoint that needs it and runs until the app closes.
 */
export class AppEndpoint {
  private offline: OfflineModelServer | null = null
  private held: ModelEndpoint | null = null
  /** Whether there is a model to call: a key, the offline model chosen, or a demo folder. */
  private usable = false

  constructor(private readonly settings: AppSettings) {}

  /** The endpoint for a workspace that opens (`demo`: the offline demo made it), now held. */
  async build(demo: boolean): Promise<ModelEndpoint> {
    const endpoint = await this.fromSettings(demo)
    this.held = endpoint
    return endpoint
  }

  /**
   * The endpoint the settings give now that they were saved, or null when it is the one held.
   * Settings without a model to call keep the one held: an agent still at work goes on with
   * it rather than fall onto the offline demo's script, and commands are refused meanwhile.
   */
  async rebuild(demo: boolean): Promise<ModelEndpoint | null> {
    const endpoint = await this.fromSettings(demo)
    if (!this.usable || (this.held !== null && sameEndpoint(this.held, endpoint))) return null
    this.held = endpoint
    return endpoint
  }

  /** Refuses a command that would call the model when there is none to call. */
  assertUsable(): void {
    if (this.usable) return
    throw new TeamError(
      'no-api-key',
      'No API key is set. Enter one in Settings, or turn on the offline model to watch a scripted team.',
    )
  }

  /** The demo's pace (a setting): the offline model's next reply streams at it. */
  setDemoSpeed(speed: DemoSpeed): void {
    this.offline?.setEventDelay(demoEventDelayMs(speed))
  }

  async close(): Promise<void> {
    await this.offline?.close()
    this.offline = null
  }

  /** The offline model for demos, when chosen and without a key; else the key's endpoint. */
  private async fromSettings(demo: boolean): Promise<ModelEndpoint> {
    const view = this.settings.view()
    const key = this.settings.apiKey()
    this.usable = view.apiKeySet || view.useOfflineModel || demo
    if (view.useOfflineModel || demo || !key) {
      this.offline ??= await OfflineModelServer.start({
        script: demoScript(),
        apiKey: 'offline',
        // Ids count on from the last run's: a resumed Claude Code session drops a turn whose
        // message id it has seen before.
        firstId: Date.now(),
      })
      this.setDemoSpeed(view.demoSpeed)
      return { apiKey: 'offline', baseURL: this.offline.url, model: 'offline-demo', maxRetries: 0 }
    }
    const { contextWindow } = this.settings.read()
    return {
      apiKey: key,
      model: view.model,
      ...(view.baseURL ? { baseURL: view.baseURL } : {}),
      ...(contextWindow ? { contextWindow } : {}),
    }
  }
}
