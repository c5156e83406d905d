import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createServeCommand } from '../../../src/cli/serve-command'
import type { BrowserServer } from '../../../src/server/browser-server'
import { cli } from '../../helpers/cli'
import { commandContext } from '../../helpers/streams'
import { http } from './fixture'

function folders(): { workspace: string; configHome: string; staticDirectory: string } {
  const root = mkdtempSync(join(tmpdir(), 'agent-teams-serve-'))
  onTestFinished(() => rmSync(root, { recursive: true, force: true }))
  const paths = {
    workspace: join(root, 'workspace'),
    configHome: join(root, 'config'),
    staticDirectory: join(root, 'static'),
  }
  for (const path of Object.values(paths)) mkdirSync(path)
  writeFileSync(join(paths.staticDirectory, 'index.html'), '<!doctype html><title>ok</title>')
  return paths
}

function context(workspace: string, port?: string) {
  return commandContext(workspace, { port })
}

describe('agent-teams serve', () => {
  it('refuses a --port that is not 0–65535 with a usage error (exit 2)', async () => {
    for (const port of ['65536', 'abc', '80.5', '-1', '']) {
      const result = await cli(['serve', `--port=${port}`])
      expect(result.code, port).toBe(2)
      expect(result.stderr).toContain(
        '--port takes a whole number from 1 to 65535, or 0 for any free port',
      )
    }
  })

  it('takes --port 0 as any free port, and prints the port it got', async () => {
    const { workspace, configHome, staticDirectory } = folders()
    let listening: BrowserServer | null = null
    const serve = createServeCommand({
      env: { XDG_CONFIG_HOME: configHome },
      staticDirectory,
      untilStopped: () => Promise.resolve(),
      onListening: (server) => (listening = server),
    })
    const run = context(workspace, '0')
    expect(await serve(run.value)).toBe(0)
    const port = (listening as BrowserServer | null)?.port ?? 0
    expect(port).toBeGreaterThan(0)
    expect(run.stdout.lines[0]).toBe(
      `Agent Teams is running at http://127.0.0.1:${port}/?token=${(listening as BrowserServer | null)?.token ?? ''} (port ${port})`,
    )
  })

  it('prints the address, serves the workspace until stopped, then exits 0', async () => {
    const { workspace, configHome, staticDirectory } = folders()
    let stop = (): void => {}
    const stopped = new Promise<void>((resolve) => (stop = resolve))
    let answer = 0
    const serve = createServeCommand({
      env: { XDG_CONFIG_HOME: configHome },
      staticDirectory,
      untilStopped: () => stopped,
      onListening: (server) => {
        void http(server.port, `/?token=${server.token}`).then((reply) => {
          answer = reply.status
          stop()
        })
      },
    })
    const run = context(workspace)
    expect(await serve(run.value)).toBe(0)
    expect(answer).toBe(200)
    expect(run.stdout.lines).toEqual([
      expect.stringMatching(
        /^Agent Teams is running at http:\/\/127\.0\.0\.1:(\d+)\/\?token=[\w-]{43} \(port \1\)$/,
      ),
      'Open it in a browser; press Ctrl+C to stop.',
    ])
    expect(run.stderr.text).toBe('')
    // The service opened the workspace and remembered it in $XDG_CONFIG_HOME/agent-teams.
    expect(existsSync(join(configHome, 'agent-teams', 'recent.json'))).toBe(true)
  })

  it('asks for a build when the UI is missing', async () => {
    const { workspace, configHome } = folders()
    const serve = createServeCommand({
      env: { XDG_CONFIG_HOME: configHome },
      staticDirectory: join(configHome, 'nothing-here'),
      untilStopped: () => Promise.resolve(),
    })
    await expect(serve(context(workspace).value)).rejects.toThrow(
      /^Build the UI first: npm run build/,
    )
  })

  it('says so when the port is in use', async () => {
    const { workspace, configHome, staticDirectory } = folders()
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    onTestFinished(() => new Promise<void>((resolve) => blocker.close(() => resolve())))
    const address = blocker.address()
    const port = typeof address === 'object' && address !== null ? address.port : 0
    const serve = createServeCommand({
      env: { XDG_CONFIG_HOME: configHome },
      staticDirectory,
      untilStopped: () => Promise.resolve(),
    })
    await expect(serve(context(workspace, String(port)).value)).rejects.toMatchObject({
      code: 'io',
      message: expect.stringContaining(`Port ${port} on 127.0.0.1 is already in use`),
    })
  })
})
