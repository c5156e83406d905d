import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, describe, expect, it, onTestFinished, vi } from 'vitest'
import { defaultBashSandbox } from '../../src/runtime/tools/bash-sandbox'
import type { Tool } from '../../src/runtime/tools/types'
import { queueScript } from '../../src/offline-model/script'
import type { BlockedAction } from '../../src/shared/sandbox'
import { startHost } from '../helpers/host'
import { probeServer } from '../helpers/hostile-workspace'
import { writeMcpJson } from '../helpers/mcp'
import { sandboxSkipReason, snapshotTree, tempFolder } from '../helpers/sandbox'
import { waitFor } from '../helpers/wait'
import { tempWorkspace } from '../helpers/workspace'

/**
 * The attacker is a stdio MCP server the person trusted (its script is the test's): whatever
 * it tries, it runs inside the OS sandbox, like bash. It must not act as the person (append
 * to `.team/control.jsonl`), write outside the workspace, read the app's config folder (the
 * key), see the API key, or reach a host the team has not allowed.
 */

const skipReason = sandboxSkipReason()
if (skipReason !== null) console.info(`[skipped] MCP sandbox tests: ${skipReason}`)

afterAll(() => defaultBashSandbox.close())

const KEY = 'sk-ant-mcp-sandbox-probe-51c'
const WAIT = { timeout: 20_000, interval: 25 }

async function trustedProbe() {
  const config = tempFolder('agent-teams-config-')
  const folder = join(config, 'agent-teams')
  mkdirSync(folder)
  writeFileSync(join(folder, 'settings.json'), `{"apiKey":"${KEY}"}\n`)
  vi.stubEnv('XDG_CONFIG_HOME', config)
  vi.stubEnv('ANTHROPIC_API_KEY', KEY)
  onTestFinished(() => void vi.unstubAllEnvs())
  const { dir } = tempWorkspace('agent-teams-mcp-sandbox-')
  const outside = tempFolder('agent-teams-mcp-outside-')
  mkdirSync(join(dir, 'tools'))
  writeFileSync(join(dir, 'tools', 'probe.mjs'), probeServer())
  writeMcpJson(dir, { probe: { command: process.execPath, args: ['tools/probe.mjs'] } })
  const blocked: { agent: string; action: BlockedAction }[] = []
  const team = await startHost(queueScript({}), {
    workspace: dir,
    // The person trusts this workspace (its server) for the run.
    trust: { store: null, forRun: true },
    privateFolders: [folder],
    sandboxHooks: {
      onBlocked: (agent, actions) => blocked.push(...actions.map((action) => ({ agent, action }))),
    },
  })
  await waitFor(
    () => team.host.mcp.state().servers[0]?.status === 'running',
    () => `the probe running (now ${JSON.stringify(team.host.mcp.state())})`,
    WAIT,
  )
  const tool = team.host.mcp
    .tools(() => true)
    .find((each) => each.definition.name === 'mcp__probe__try')
  if (tool === undefined) throw new Error('the probe has no tool')
  const run = async (input: Record<string, unknown>): Promise<string> =>
    (
      await (tool as Tool).run(input, {
        workspace: dir,
        agent: 'alice',
        signal: new AbortController().signal,
      })
    ).content
  return { team, dir, outside, folder, blocked, run }
}

describe.skipIf(skipReason !== null)('a trusted stdio MCP server runs in the OS sandbox', () => {
  it('cannot act as the person, write outside, read the config folder or see the key', async () => {
    const { team, dir, outside, folder, blocked, run } = await trustedProbe()
    const control = join(dir, '.team', 'control.jsonl')
    const teamBefore = snapshotTree(join(dir, '.team'))
    const outsideBefore = snapshotTree(outside)

    // Its own work goes on: the workspace is writable.
    expect(await run({ what: 'write', path: join(dir, 'made-by-server.txt') })).toBe('written')
    expect(readFileSync(join(dir, 'made-by-server.txt'), 'utf8')).toBe('probe')

    const appended = await run({
      what: 'append',
      path: control,
      text: `${JSON.stringify({ v: 1, command: 'stop', agent: 'lead' })}\n`,
    })
    expect(appended).toMatch(/EROFS|read-only/i)
    expect(existsSync(control) ? readFileSync(control, 'utf8') : '').not.toContain('"stop"')
    expect(await run({ what: 'write', path: join(dir, '.team', 'config.json') })).toMatch(/EROFS/)
    expect(snapshotTree(join(dir, '.team'))).toEqual(teamBefore)

    expect(await run({ what: 'write', path: join(outside, 'planted') })).toMatch(/EROFS|EACCES/)
    expect(snapshotTree(outside)).toEqual(outsideBefore)

    const config = await run({ what: 'read', path: join(folder, 'settings.json') })
    expect(config).not.toContain(KEY)
    expect(await run({ what: 'list', path: folder })).toBe('[]')

    const environment = await run({ what: 'env' })
    expect(environment).not.toContain(KEY)
    expect(JSON.parse(environment)).toMatchObject({ key: null })
    // What the sandbox refused during alice's calls reached the hook, in her name.
    expect(blocked).toContainEqual({
      agent: 'alice',
      action: expect.objectContaining({ kind: 'blocked-write' }),
    })
    await team.host.close()
  }, 60_000)

  it('reaches a loopback HTTP server only once its host is allowed', async () => {
    const requests: string[] = []
    const server = createServer((request, response) => {
      requests.push(request.url ?? '')
      response.end('hello from the host\n')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
    const port = (server.address() as AddressInfo).port
    const { team, blocked, run } = await trustedProbe()
    const url = `http://127.0.0.1:${port}/from-the-server`

    const refused = await run({ what: 'fetch', url })
    expect(refused).not.toContain('hello from the host')
    expect(requests).toEqual([])
    expect(blocked).toContainEqual({
      agent: 'alice',
      action: expect.objectContaining({ kind: 'blocked-network', host: '127.0.0.1', port }),
    })

    // The person allows it (Settings): the running server follows the team's list.
    team.host.setAllowedHosts([`127.0.0.1:${port}`])
    expect(await run({ what: 'fetch', url })).toContain('hello from the host')
    expect(requests).toEqual(['/from-the-server'])
    await team.host.close()
  }, 60_000)
})
