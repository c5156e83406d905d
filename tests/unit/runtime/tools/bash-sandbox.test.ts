import { createServer, type Server } from 'node:http'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, describe, expect, it, onTestFinished, vi } from 'vitest'
import type { BlockedAction } from '../../../../src/shared/sandbox'
import { createBashTool } from '../../../../src/runtime/tools/basic-tools'
import {
  BashSandbox,
  blockedWrites,
  defaultBashSandbox,
  probeSandbox,
} from '../../../../src/runtime/tools/bash-sandbox'
import type { ToolContext } from '../../../../src/runtime/tools/types'
import { plantVictim, sandboxSkipReason, snapshotTree, tempFolder } from '../../../helpers/sandbox'
import { tempWorkspace } from '../../../helpers/workspace'

const skipReason = sandboxSkipReason()
if (skipReason !== null) console.info(`[skipped] bash sandbox tests: ${skipReason}`)

afterAll(() => defaultBashSandbox.close())

interface Setup {
  readonly workspace: string
  readonly context: ToolContext
  readonly outside: string
  readonly blocked: BlockedAction[]
  run(
    command: string,
    allowedHosts?: readonly string[],
  ): Promise<{ content: string; isError: boolean }>
}

function setup(): Setup {
  const { dir: workspace } = tempWorkspace('agent-teams-sandbox-')
  mkdirSync(join(workspace, '.team', 'inbox'), { recursive: true })
  writeFileSync(join(workspace, '.team', 'config.json'), '{"team_name":"t","members":[]}\n')
  const outside = tempFolder('agent-teams-outside-')
  plantVictim(outside)
  const blocked: BlockedAction[] = []
  const context: ToolContext = { workspace, agent: 'alice', signal: new AbortController().signal }
  return {
    workspace,
    context,
    outside,
    blocked,
    run: (command, allowedHosts = []) =>
      createBashTool({
        timeoutMs: 30_000,
        sandbox: {
          allowedHosts: () => allowedHosts,
          hooks: { onBlocked: (_agent, actions) => blocked.push(...actions) },
        },
      }).run({ command }, context),
  }
}

describe.skipIf(skipReason !== null)('bash in the OS sandbox', () => {
  it('writes in the workspace and its private $TMPDIR, nowhere else', async () => {
    const { workspace, outside, run, blocked } = setup()
    const before = snapshotTree(outside)
    const outcome = await run(
      `echo made > made.txt && echo temp > "$TMPDIR/t" && cat "$TMPDIR/t" && ` +
        `echo pwned > ${outside}/file; touch ${outside}/planted; rm -rf ${outside}/sub; ` +
        'echo pwned > ~/agent-teams-sandbox-probe; echo done',
    )
    expect(readFileSync(join(workspace, 'made.txt'), 'utf8')).toBe('made\n')
    expect(outcome.content).toContain('temp\n')
    expect(outcome.content).toContain('done')
    expect(snapshotTree(outside)).toEqual(before)
    expect(outcome.content).toMatch(/\[sandbox blocked: writing /)
    expect(blocked).toContainEqual(
      expect.objectContaining({ kind: 'blocked-write', path: `${outside}/planted` }),
    )
  })

  it('cannot write into .team/, even from inside the workspace', async () => {
    const { workspace, run, blocked } = setup()
    const teamFolder = join(workspace, '.team')
    const before = snapshotTree(teamFolder)
    const outcome = await run(
      'echo \'{"type":"message","from":"lead","content":"forged"}\' >> .team/inbox/bob.jsonl; ' +
        'echo "{}" > .team/config.json; rm -rf .team/inbox; mv .team .gone; echo done',
    )
    expect(outcome.content).toContain('done')
    expect(snapshotTree(teamFolder)).toEqual(before)
    expect(blocked.some((action) => action.kind === 'blocked-write')).toBe(true)
  })

  it("cannot read the app's settings or the API key", async () => {
    const config = tempFolder('agent-teams-config-')
    const folder = join(config, 'agent-teams')
    mkdirSync(folder)
    writeFileSync(join(folder, 'settings.json'), '{"apiKey":"sk-ant-sandbox-probe-51c"}\n')
    writeFileSync(join(folder, 'secrets.bin'), 'sk-ant-sandbox-probe-51c')
    vi.stubEnv('XDG_CONFIG_HOME', config)
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-sandbox-probe-51c')
    onTestFinished(() => void vi.unstubAllEnvs())
    const { run } = setup()
    const outcome = await run(
      `cat ${folder}/settings.json; cat ${folder}/secrets.bin; ls -a ${folder}; ` +
        `grep -r sk-ant ${config}; env | grep -c sk-ant; cat /proc/*/environ | tr '\\0' '\\n' | grep -c sk-ant; echo done`,
    )
    expect(outcome.content).toContain('done')
    expect(outcome.content).not.toContain('sk-ant-sandbox-probe-51c')
    // `ls` lists nothing: the folder is an empty one laid over the real.
    expect(outcome.content).not.toMatch(/^(secrets\.bin|settings\.json)$/m)
  })

  it('reaches a loopback server only once its host is allowed', async () => {
    const requests: string[] = []
    const server = await listen(
      createServer((request, response) => {
        requests.push(request.url ?? '')
        response.end('hello from the host\n')
      }),
    )
    const port = (server.address() as AddressInfo).port
    const { run, blocked } = setup()
    // Through the sandbox's proxy, as a package manager would go (NO_PROXY would send it
    // straight to the sandbox's own empty loopback), and straight, which has no route out.
    const fetch = `NO_PROXY= no_proxy= curl -sS --max-time 20 http://127.0.0.1:${port}/via-proxy; `
    const direct = `exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected-directly; echo done`

    const refused = await run(fetch + direct)
    expect(refused.content).not.toContain('hello from the host')
    expect(refused.content).not.toContain('connected-directly')
    expect(requests).toEqual([])
    expect(blocked).toContainEqual(
      expect.objectContaining({ kind: 'blocked-network', host: '127.0.0.1', port }),
    )
    expect(refused.content).toMatch(/\[sandbox blocked: connecting to 127\.0\.0\.1:\d+/)

    const allowed = await run(fetch + direct, [`127.0.0.1:${port}`])
    expect(allowed.content).toContain('hello from the host')
    expect(allowed.content).not.toContain('connected-directly')
    expect(requests).toEqual(['/via-proxy'])
  })
})

describe('where there is no sandbox', () => {
  const missing = new BashSandbox({ platform: 'linux', path: '/nonexistent' })

  it('says so once, naming what to install', async () => {
    const status = await missing.use(async (found) => found)
    expect(status).toEqual({
      available: false,
      reason: expect.stringMatching(
        /bwrap, socat, rg are not installed.*apt-get install bubblewrap socat ripgrep/,
      ),
    })
    expect(probeSandbox({ platform: 'win32', path: '' })).toEqual({
      available: false,
      reason: expect.stringMatching(/needs Linux or macOS.*waits for your approval/),
    })
  })

  it('holds every command for approval through the hook: deny runs nothing, approve runs it', async () => {
    const { dir } = tempWorkspace('agent-teams-nosandbox-')
    const asked: string[] = []
    let answer = { approved: false, reason: 'not today' }
    const tool = createBashTool({
      sandbox: {
        sandbox: missing,
        hooks: {
          approveUnsandboxed: async (request) => {
            asked.push(`${request.agent}: ${request.command} (${request.reason.split(':')[0]})`)
            return answer
          },
        },
      },
    })
    const context = { workspace: dir, agent: 'bob', signal: new AbortController().signal }
    const denied = await tool.run({ command: 'touch ran' }, context)
    expect(denied).toEqual({
      content: 'The person did not approve this command, so it was not run: not today',
      isError: true,
    })
    expect(() => readFileSync(join(dir, 'ran'))).toThrow()
    answer = { approved: true, reason: '' }
    expect(await tool.run({ command: 'touch ran && echo ran' }, context)).toEqual({
      content: 'ran\n',
      isError: false,
    })
    expect(asked).toEqual([
      'bob: touch ran (bash cannot be sandboxed)',
      'bob: touch ran && echo ran (bash cannot be sandboxed)',
    ])
  })
})

describe('blocked writes are read from the errors tools print', () => {
  it.each([
    ["touch: cannot touch '/x/a': Read-only file system", '/x/a'],
    ['/bin/bash: line 1: /x/b: Read-only file system', '/x/b'],
    ['mkdir: cannot create directory ‘/x/c’: Read-only file system', '/x/c'],
    ["OSError: [Errno 30] Read-only file system: '/x/d'", '/x/d'],
    ["rm: cannot remove '.team/config.json': Read-only file system", '.team/config.json'],
  ])('%s', (line, path) => {
    expect(blockedWrites(`noise\n${line}\n`, 'cmd')).toEqual([
      { kind: 'blocked-write', path, command: 'cmd' },
    ])
  })
})

function listen(server: Server): Promise<Server> {
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}
