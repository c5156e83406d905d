import { onTestFinished } from 'vitest'
import type { TeamEvent } from '../../src/shared/events'
import type { TranscriptRecord } from '../../src/shared/transcript'
import { TeamHost, type HostOptions } from '../../src/runtime/host/host'
import type { ModelEndpoint } from '../../src/runtime/model/client'
import {
  OfflineModelServer,
  type OfflineServerOptions,
} from '../../src/offline-model/offline-server'
import type { Script } from '../../src/offline-model/script'
import { tempWorkspace } from './workspace'

/**
 * Host options; the endpoint's fields are added to the offline server's (its URL, key, model).
 * `trust` defaults to trusting the workspace for the run (tests of trust itself pass their own).
 */
export type TestHostOptions = Partial<Omit<HostOptions, 'endpoint'>> & {
  endpoint?: Partial<ModelEndpoint>
}

export interface HostUnderTest {
  readonly host: TeamHost
  readonly server: OfflineModelServer
  readonly workspace: string
  readonly events: TeamEvent[]
  /** The transcript records of `name` of one kind. */
  records<K extends TranscriptRecord['kind']>(
    name: string,
    kind: K,
  ): Extract<TranscriptRecord, { kind: K }>[]
  /** Closes the host and opens a new one on the same workspace and server (a restart). */
  restart(options?: TestHostOptions): Promise<HostUnderTest>
}

/**
 * A team host on a fresh workspace, talking through the real SDK to an offline model server
 * driven by `script`. Both are closed when the test finishes.
 */
export async function startHost(
  script: Script,
  options: TestHostOptions & {
    server?: Partial<OfflineServerOptions>
    workspace?: string
  } = {},
): Promise<HostUnderTest> {
  const server = await OfflineModelServer.start({ script, apiKey: 'test-key', ...options.server })
  onTestFinished(() => server.close())
  const workspace = options.workspace ?? tempWorkspace().dir
  return openOn(server, workspace, options)
}

async function openOn(
  server: OfflineModelServer,
  workspace: string,
  options: TestHostOptions,
): Promise<HostUnderTest> {
  const { endpoint, ...rest } = options
  const host = await TeamHost.open({
    trust: { store: null, forRun: true },
    ...rest,
    workspace,
    endpoint: {
      apiKey: 'test-key',
      baseURL: server.url,
      model: 'offline-test',
      maxRetries: 0,
      ...endpoint,
    },
  })
  onTestFinished(() => host.close())
  const events: TeamEvent[] = []
  host.subscribe((event) => events.push(event))
  const self: HostUnderTest = {
    host,
    server,
    workspace,
    events,
    records: (name, kind) =>
      host.transcript(name).records.filter((record) => record.kind === kind) as never,
    restart: async (next = {}) => {
      await host.close()
      return openOn(server, workspace, { ...options, ...next })
    },
  }
  return self
}

/** Every message id delivered to `name`, through injections and read_inbox. */
export function deliveredIds(target: HostUnderTest, name: string): string[] {
  return target.host.transcript(name).records.flatMap((record) => {
    if (record.kind === 'inbox') return record.messages.map((message) => message.id)
    if (record.kind === 'tool-result' && record.inbox_ids) return record.inbox_ids
    return []
  })
}
