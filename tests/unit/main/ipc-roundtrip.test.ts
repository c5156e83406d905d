import { EventEmitter } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { WebContents } from 'electron'
import { hostEventSchema, type AgentTeamsApi, type HostEvent } from '../../../src/shared/contract'
import { commandChannel, commandNames, EVENTS_CHANNEL } from '../../../src/shared/ipc-channels'
import { AppService } from '../../../src/app/app-service'
import { plainFileSecretStore } from '../../../src/runtime/secrets/secrets'
import { createIpcAdapter, type IpcAdapter } from '../../../src/main/ipc'

/**
 * Main's adapter and the preload, joined by a fake of the three Electron objects they use:
 * requests and replies are structured-cloned as real IPC does, so the whole path (preload →
 * sender check → AppService.execute → reply → preload) runs in Node without the binary.
 */
const electron = vi.hoisted(() => {
  type Handler = (event: unknown, ...args: unknown[]) => unknown
  const handlers = new Map<string, Handler>()
  const rendererListeners = new Map<string, Set<(event: unknown, ...args: unknown[]) => void>>()
  const exposed = new Map<string, unknown>()
  /** The frame's URL and the WebContents that the next request comes from. */
  const sender: { url: string; contents: unknown } = {
    url: 'app://agent-teams/index.html',
    contents: undefined,
  }
  return {
    handlers,
    rendererListeners,
    exposed,
    sender,
    ipcMain: {
      handle(channel: string, handler: Handler) {
        if (handlers.has(channel))
          throw new Error(`Attempted to register a second handler for '${channel}'`)
        handlers.set(channel, handler)
      },
      removeHandler(channel: string) {
        handlers.delete(channel)
      },
    },
    ipcRenderer: {
      async invoke(channel: string, ...args: unknown[]) {
        const handler = handlers.get(channel)
        if (handler === undefined) throw new Error(`No handler registered for '${channel}'`)
        const event = { senderFrame: { url: sender.url }, sender: sender.contents }
        return structuredClone(await handler(event, ...args.map((arg) => structuredClone(arg))))
      },
      on(channel: string, listener: (event: unknown, ...args: unknown[]) => void) {
        const set = rendererListeners.get(channel) ?? new Set()
        set.add(listener)
        rendererListeners.set(channel, set)
      },
      removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void) {
        rendererListeners.get(channel)?.delete(listener)
      },
    },
    contextBridge: {
      exposeInMainWorld(key: string, api: unknown) {
        exposed.set(key, api)
      },
    },
  }
})

vi.mock('electron', () => ({
  // eslint-disable-next-line no-restricted-syntax -- the fake of Electron's IPC, not a use of it
  ipcMain: electron.ipcMain,
  // eslint-disable-next-line no-restricted-syntax -- the fake of Electron's IPC, not a use of it
  ipcRenderer: electron.ipcRenderer,
  contextBridge: electron.contextBridge,
}))

/** A window's WebContents as far as the adapter uses it: send, isDestroyed, 'destroyed'. */
class FakeWebContents extends EventEmitter {
  destroyed = false
  sent = 0
  isDestroyed(): boolean {
    return this.destroyed
  }
  send(channel: string, ...args: unknown[]): void {
    this.sent++
    const event = { sender: 'the IpcRendererEvent, which the page must never see' }
    for (const listener of electron.rendererListeners.get(channel) ?? [])
      listener(event, ...args.map((arg) => structuredClone(arg)))
  }
  destroy(): void {
    this.destroyed = true
    this.emit('destroyed')
  }
}

const TRUSTED_URL = 'app://agent-teams/index.html'
let folders: string[] = []
let service: AppService
let adapter: IpcAdapter
let api: AgentTeamsApi
/** The window whose page makes the requests, attached to `service`. */
let page: FakeWebContents

function folder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  folders.push(dir)
  return dir
}

function nextBatch(): Promise<HostEvent[]> {
  return new Promise((resolve) => {
    const subscription = api.onEvents((events) => {
      subscription.dispose()
      // The receiver parses, as the window's store does.
      resolve(hostEventSchema.array().parse(events))
    })
  })
}

beforeEach(async () => {
  const config = folder('agent-teams-config-')
  service = await AppService.create({
    mode: 'electron',
    version: '9.9.9',
    configDirectory: config,
    secrets: plainFileSecretStore(join(config, 'settings.json')),
    env: {},
  })
  adapter = createIpcAdapter({ isTrustedUrl: (url) => url === TRUSTED_URL })
  page = new FakeWebContents()
  adapter.attach(page as unknown as WebContents, service)
  electron.sender.url = TRUSTED_URL
  electron.sender.contents = page
  vi.resetModules()
  electron.exposed.clear()
  await import('../../../src/preload/index')
  api = electron.exposed.get('agentTeams') as AgentTeamsApi
})

afterEach(async () => {
  adapter.dispose()
  await service.close()
  for (const dir of folders) rmSync(dir, { recursive: true, force: true })
  folders = []
})

describe('the IPC adapter and the preload', () => {
  it('registers one channel per command, and the preload exposes only named functions', () => {
    expect([...electron.handlers.keys()].sort()).toEqual(commandNames.map(commandChannel).sort())
    expect(Object.keys(api).sort()).toEqual([...commandNames, 'onEvents'].sort())
    for (const value of Object.values(api)) expect(typeof value).toBe('function')
  })

  it('runs a command through the service and returns its parsed result', async () => {
    expect(await api.getInfo({})).toEqual({
      version: '9.9.9',
      workspace: null,
      mode: 'electron',
      offline: false,
    })
    expect(await api.getSnapshot({})).toBeNull()
    expect(await api.pickFolder({})).toEqual({ path: null, supported: false })
  })

  it('rejects with the error taxonomy: name, code and message', async () => {
    await expect(api.openWorkspace({ path: join(tmpdir(), 'no-such-folder-x') })).rejects.toEqual({
      name: 'TeamError',
      code: 'not-found',
      message: expect.stringContaining('There is no folder'),
    })
    await expect(api.chat({ text: '' })).rejects.toMatchObject({
      name: 'TeamError',
      code: 'invalid-argument',
      message: expect.stringContaining('Invalid parameters for chat'),
    })
    // Extra fields are refused by the strict schemas: nothing unchecked reaches the runtime.
    await expect(
      api.stopAgent({ name: 'alice', force: true } as unknown as { name: string }),
    ).rejects.toMatchObject({ code: 'invalid-argument' })
  })

  it('refuses a sender that is not the app page, before the service sees the request', async () => {
    const execute = vi.spyOn(service, 'execute')
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    electron.sender.url = 'https://evil.example/'
    await expect(api.getInfo({})).rejects.toThrow(/not the app's own page/)
    expect(execute).not.toHaveBeenCalled()
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('https://evil.example/'))
    warn.mockRestore()
  })

  it('streams events in batches to the page, and only the events', async () => {
    const received: unknown[][] = []
    const subscription = api.onEvents((...args: unknown[]) => received.push(args))
    const workspace = folder('agent-teams-workspace-')
    const batch = nextBatch()
    const snapshot = await api.openWorkspace({ path: workspace })
    const events = await batch
    expect(events.map((event) => event.type)).toContain('workspace-opened')
    expect(events.find((event) => event.type === 'workspace-opened')).toMatchObject({
      type: 'workspace-opened',
      snapshot: { workspace: snapshot.workspace, lead: { name: 'lead' } },
    })
    expect(received.every((args) => args.length === 1 && Array.isArray(args[0]))).toBe(true)
    subscription.dispose()
    expect(electron.rendererListeners.get(EVENTS_CHANNEL)?.size).toBe(0)
  })

  it("sends main's own events (a menu command) to that window's page, parsed by the contract", async () => {
    const contents = page
    const batch = nextBatch()
    adapter.send(contents as unknown as WebContents, {
      type: 'menu-command',
      command: { kind: 'open-recent', path: '/home/dana/stats' },
    })
    const events = await batch
    expect(events).toEqual([
      { type: 'menu-command', command: { kind: 'open-recent', path: '/home/dana/stats' } },
    ])
    expect(hostEventSchema.safeParse(events[0]).success).toBe(true)
  })

  it("sends the events a command caused before the command's reply", async () => {
    const order: string[] = []
    const subscription = api.onEvents((events) => {
      for (const event of hostEventSchema.array().parse(events)) order.push(event.type)
    })
    await api.openWorkspace({ path: folder('agent-teams-workspace-') })
    order.push('reply')
    expect(order.indexOf('workspace-opened')).toBeGreaterThanOrEqual(0)
    expect(order.indexOf('workspace-opened')).toBeLessThan(order.indexOf('reply'))
    subscription.dispose()
  })

  it('attaches a window once, however often it is asked', async () => {
    const contents = page
    adapter.attach(contents as unknown as WebContents, service)
    expect(contents.listenerCount('destroyed')).toBe(1)
    const opened: HostEvent[] = []
    const subscription = api.onEvents((events) =>
      opened.push(
        ...hostEventSchema
          .array()
          .parse(events)
          .filter((event) => event.type === 'workspace-opened'),
      ),
    )
    await api.openWorkspace({ path: folder('agent-teams-workspace-') })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(opened).toHaveLength(1)
    subscription.dispose()
  })

  it('stops streaming to a window once it is destroyed', async () => {
    const contents = page
    contents.destroy()
    expect(contents.listenerCount('destroyed')).toBe(0)
    // Its page is gone: a late request from it finds no team, and the service's events go nowhere.
    await expect(api.getInfo({})).rejects.toThrow(/no team attached/)
    await service.execute('openWorkspace', { path: folder('agent-teams-workspace-') })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(contents.sent).toBe(0)
  })

  it("routes each window's commands to its own team, and its team's events to it alone", async () => {
    const config = folder('agent-teams-config-')
    const other = await AppService.create({
      mode: 'electron',
      version: '9.9.9',
      configDirectory: config,
      secrets: plainFileSecretStore(join(config, 'settings.json')),
      env: {},
    })
    try {
      const second = new FakeWebContents()
      adapter.attach(second as unknown as WebContents, other)
      const first = folder('agent-teams-workspace-')
      await api.openWorkspace({ path: first })
      const sentToFirst = page.sent
      expect(second.sent).toBe(0)
      electron.sender.contents = second
      expect((await api.getInfo({})).workspace).toBeNull()
      const secondFolder = folder('agent-teams-workspace-')
      await api.openWorkspace({ path: secondFolder })
      expect((await api.getInfo({})).workspace).toBe(secondFolder)
      expect(second.sent).toBeGreaterThan(0)
      expect(page.sent).toBe(sentToFirst)
      electron.sender.contents = page
      expect((await api.getInfo({})).workspace).toBe(first)
    } finally {
      await other.close()
    }
  })

  it('refuses a request from a trusted page that has no team attached', async () => {
    electron.sender.contents = new FakeWebContents()
    await expect(api.getInfo({})).rejects.toThrow(/no team attached/)
  })

  it('dispose removes every handler and every stream', async () => {
    const contents = page
    adapter.dispose()
    expect(electron.handlers.size).toBe(0)
    expect(contents.listenerCount('destroyed')).toBe(0)
    await expect(api.getInfo({})).rejects.toThrow(/No handler registered/)
    await service.execute('openWorkspace', { path: folder('agent-teams-workspace-') })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(contents.sent).toBe(0)
  })
})
