import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { queueScript } from '../../../src/offline-model/script'
import { trustStoreFor } from '../../../src/cli/workspace-trust'
import { readReactionsConfig } from '../../../src/runtime/reactions/config-file'
import { TeamPaths } from '../../../src/runtime/team/paths'
import { DEFAULT_REACTIONS } from '../../../src/shared/reactions'
import { cli } from '../../helpers/cli'
import { startHost } from '../../helpers/host'
import { waitFor } from '../../helpers/wait'
import { tempWorkspace } from '../../helpers/workspace'

beforeEach(() => {
  vi.stubEnv('XDG_CONFIG_HOME', tempWorkspace('agent-teams-config-').dir)
  return () => vi.unstubAllEnvs()
})

function workspaceWithTeam(): string {
  const workspace = tempWorkspace().dir
  mkdirSync(join(workspace, '.team'), { recursive: true })
  return workspace
}

const reactionsFile = (workspace: string): string => join(workspace, '.team', 'reactions.json')

describe('agent-teams reactions', () => {
  it('sets each reaction and shows them with their counts, without a running team', async () => {
    const workspace = workspaceWithTeam()
    const at = ['--workspace', workspace]
    const set = await cli([
      'reactions',
      'set',
      'check',
      '--command',
      'npm test',
      '--timeout',
      '5m',
      ...at,
    ])
    expect(set.code).toBe(0)
    expect(set.stdout).toContain('Check: npm test (killed after 5m).')
    expect((await cli(['reactions', 'set', 'stall', '--after', '2m', ...at])).code).toBe(0)
    expect((await cli(['reactions', 'set', 'idle-task', '--off', ...at])).code).toBe(0)
    expect((await cli(['reactions', 'set', 'escalate', '--after', '1h30m', ...at])).code).toBe(0)
    expect((await cli(['reactions', 'set', 'conflicts', 'off', ...at])).code).toBe(0)

    expect(JSON.parse(readFileSync(reactionsFile(workspace), 'utf8'))).toEqual({
      version: 1,
      check: { command: 'npm test', timeout_seconds: 300 },
      stall: { on: true, after_seconds: 120 },
      idle_task: { on: false, after_seconds: 600 },
      escalate_after_seconds: 5400,
      conflicts: false,
    })
    writeFileSync(
      join(workspace, '.team', 'reactions.jsonl'),
      [
        '{"v":1,"id":"r-1","kind":"nudge","at":1,"end":null,"agent":"alice","summary":"s","failed":false}',
        'torn {',
        '{"v":1,"id":"r-2","kind":"check","at":2,"end":3,"agent":"alice","summary":"s","failed":true,"commit":"abc1234","exit_code":1,"command":"npm test","output_tail":"boom"}',
        '',
      ].join('\n'),
    )
    const shown = await cli(['reactions', ...at])
    expect(shown.code).toBe(0)
    expect(shown.lines).toEqual([
      'Check: npm test (killed after 5m).',
      'Stall nudge: after 2m.',
      'Idle-with-a-task nudge: off.',
      'Escalation to Needs-you: 1h30m after a nudge.',
      "Merge conflicts to the branch's owner: off.",
      'They do not run until you trust this workspace ("agent-teams trust").',
      'Counts: check 1, nudge 1, escalate 0, conflict 0, fold 0 (1 unreadable lines)',
      'Last check of alice: failed on abc1234 (s)',
    ])
    const json = JSON.parse((await cli(['reactions', '--json', ...at])).stdout) as {
      counts: Record<string, number>
      checks: { state: string; output_tail: string }[]
    }
    expect(json.counts).toEqual({ check: 1, nudge: 1, escalate: 0, conflict: 0, fold: 0 })
    expect(json.checks).toMatchObject([{ state: 'failed', output_tail: 'boom' }])

    expect((await cli(['reactions', 'set', 'check', '--off', ...at])).code).toBe(0)
    expect(readReactionsConfig(new TeamPaths(workspace)).config.check).toBeNull()
  })

  it('refuses bad arguments with the rule, and writes nothing', async () => {
    const workspace = workspaceWithTeam()
    const at = ['--workspace', workspace]
    const cases: [string[], number, RegExp][] = [
      [['set', 'check'], 2, /needs --command/],
      [['set', 'check', '--command', 'x', '--timeout', 'soon'], 2, /duration/],
      [['set', 'stall', '--after', '10m', '--off'], 2, /not both/],
      [['set', 'conflicts', 'maybe'], 2, /on" or/],
      [['set', 'nothing'], 2, /expected/],
      [['set', 'stall', '--after', '1s'], 1, /after_seconds/],
      [['set', 'check', '--command', 'x', '--timeout', '2h'], 1, /timeout_seconds/],
      [['set', 'check', '--command', '   '], 1, /blank/],
    ]
    for (const [args, code, message] of cases) {
      const result = await cli(['reactions', ...args, ...at])
      expect([args, result.code]).toEqual([args, code])
      expect(result.stderr).toMatch(message)
    }
    expect(() => readFileSync(reactionsFile(workspace))).toThrow()
  })

  const hostile: [string, (file: string) => void, RegExp][] = [
    ['garbage', (file) => writeFileSync(file, '{"version":1, check'), /not valid JSON/],
    [
      'a wrong shape',
      (file) => writeFileSync(file, JSON.stringify({ ...DEFAULT_REACTIONS, version: 2, x: 1 })),
      /not valid \(version/,
    ],
    ['a huge file', (file) => writeFileSync(file, ' '.repeat(70 * 1024)), /65536|64 KiB|larger/],
    [
      'a symlink',
      (file) => {
        const target = join(tempWorkspace().dir, 'elsewhere.json')
        writeFileSync(target, JSON.stringify(DEFAULT_REACTIONS))
        symlinkSync(target, file)
      },
      /link/,
    ],
  ]
  for (const [what, plant, problem] of hostile)
    it(`a reactions.json that is ${what} is reported with its reason and never overwritten`, async () => {
      const workspace = workspaceWithTeam()
      const file = reactionsFile(workspace)
      plant(file)
      const before = readFileSync(file)
      const shown = await cli(['reactions', '--workspace', workspace])
      expect(shown.code).toBe(1)
      expect(shown.stderr).toMatch(problem)
      expect(shown.stdout).toContain('Check: off.')

      const set = await cli(['reactions', 'set', 'conflicts', 'off', '--workspace', workspace])
      expect(set.code).toBe(1)
      expect(set.stderr).toContain('were not saved')
      expect(set.stderr).toContain('Fix the file or remove it')
      expect(readFileSync(file)).toEqual(before)
    })

  it('a running team takes a change made from another process, and stays trusted', async () => {
    const workspace = tempWorkspace().dir
    const team = await startHost(queueScript({}), {
      workspace,
      trust: { store: trustStoreFor(), forRun: false },
    })
    expect(team.host.trust.isTrusted()).toBe(true)
    const set = await cli([
      'reactions',
      'set',
      'check',
      '--command',
      'make test',
      '--workspace',
      workspace,
    ])
    expect(set.code).toBe(0)
    expect(team.host.reactions.view().config.check).toEqual({
      command: 'make test',
      timeout_seconds: 600,
    })
    await waitFor(
      () => team.host.trust.view().grants.checks?.length === 1,
      () => 'the running team to read the new grant',
      { timeout: 5000 },
    )
    expect(team.host.trust.isTrusted()).toBe(true)
    expect(team.host.reactions.view().trusted).toBe(true)
  })
})
