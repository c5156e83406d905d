import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createServeCommand } from '../../../src/cli/serve-command'
import { commandContext } from '../../helpers/streams'
import { http, TestClient } from './fixture'

type Handler = (reason: unknown) => void

describe('agent-teams serve: the process guard', () => {
  it('turns an unhandled rejection into a logged fault and a team alert, and goes on serving', async () => {
    const root = mkdtempSync(join(tmpdir(), 'agent-teams-guard-'))
    onTestFinished(() => rmSync(root, { recursive: true, force: true }))
    const [workspace, configHome, staticDirectory] = ['workspace', 'config', 'static'].map((name) =>
      join(root, name),
    ) as [string, string, string]
    for (const path of [workspace, configHome, staticDirectory]) mkdirSync(path)
    writeFileSync(join(staticDirectory, 'index.html'), '<!doctype html><title>ok</title>')
    const before = new Set(process.listeners('unhandledRejection'))
    let stop = (): void => {}
    const stopped = new Promise<void>((resolve) => (stop = resolve))
    const observed: { status: number; alert: unknown; listeners: number } = {
      status: 0,
      alert: null,
      listeners: 0,
    }
    const { value: context, stderr } = commandContext(workspace)
    const serve = createServeCommand({
      env: { XDG_CONFIG_HOME: configHome },
      staticDirectory,
      untilStopped: () => stopped,
      onListening: (server) => {
        void (async () => {
          const added = process
            .listeners('unhandledRejection')
            .filter((listener) => !before.has(listener)) as Handler[]
          observed.listeners = added.length
          // What Node does with a rejection nobody handled, called directly so that the test
          // runner's own handler is not involved.
          for (const listener of added) listener(new Error('a bug in a handler'))
          observed.status = (await http(server.port, `/?token=${server.token}`)).status
          const client = await TestClient.open(
            `ws://127.0.0.1:${server.port}/ws?token=${server.token}`,
            { origin: `http://127.0.0.1:${server.port}` },
          )
          const snapshot = await client.request('getSnapshot')
          observed.alert = snapshot.ok ? (snapshot.result as { alert: unknown }).alert : null
          client.socket.close()
          stop()
        })()
      },
    })
    expect(await serve(context)).toBe(0)
    expect(observed.listeners).toBe(1)
    expect(observed.status).toBe(200)
    expect(observed.alert).toEqual({
      code: 'internal',
      message: 'An internal error was caught and the team goes on: a bug in a handler',
    })
    expect(stderr.text).toContain('internal error (unhandledRejection): Error: a bug in a handler')
    // Removed when serve ends: Node's own behaviour is back.
    expect(
      process.listeners('unhandledRejection').filter((listener) => !before.has(listener)),
    ).toEqual([])
  })
})
