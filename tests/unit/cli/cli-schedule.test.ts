import { readFileSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { text } from '../../../src/offline-model/script'
import { scheduleListingSchema } from '../../../src/shared/schedules'
import { WorkspaceTrustStore } from '../../../src/runtime/trust/trust-store'
import { cli } from '../../helpers/cli'
import { startHost } from '../../helpers/host'
import { tempWorkspace } from '../../helpers/workspace'
import { templates } from '../runtime/schedules/schedule-helpers'

afterEach(() => {
  vi.unstubAllEnvs()
})

/** A workspace, and a config folder of its own (settings, templates, the trust record). */
function setUp(): { workspace: string; config: string } {
  const config = tempWorkspace('agent-teams-config-').dir
  vi.stubEnv('XDG_CONFIG_HOME', config)
  return { workspace: tempWorkspace().dir, config: `${config}/agent-teams` }
}

const schedule = (workspace: string, ...args: string[]) =>
  cli(['schedule', ...args, '--workspace', workspace])

describe('agent-teams schedule', () => {
  it('add, list and remove work without a running team', async () => {
    const { workspace } = setUp()
    const added = await schedule(
      workspace,
      'add',
      'nightly',
      '--cron',
      '0 2 * * *',
      '--prompt',
      'Check the build.',
    )
    expect(added.stderr).toBe('')
    expect(added.code).toBe(0)
    expect(added.stdout).toMatch(
      /Added the schedule nightly: cron 0 2 \* \* \*, next run \d{4}-.*, cap \$5\.00 \(the default\)/,
    )
    const hourly = await schedule(
      workspace,
      'add',
      'hourly',
      '--every',
      '1h30m',
      '--prompt',
      'Look.',
      '--tokens',
      '200000',
      '--usd',
      '2.5',
      '--missed',
      'skip',
      '--overlap',
      'skip',
    )
    expect(hourly.code).toBe(0)
    expect(hourly.stdout).toContain('cap $2.50 or 200,000 tokens.')

    const listed = await schedule(workspace, 'list')
    expect(listed.code).toBe(0)
    expect(listed.stdout).toMatch(
      /nightly \[idle\] cron 0 2 \* \* \*; next .*; cap \$5\.00; missed run-once; overlap wait/,
    )
    expect(listed.stdout).toMatch(/hourly \[idle\] every 1h30m; next .*missed skip; overlap skip/)
    expect(listed.stdout).toContain('never ran')
    const json = scheduleListingSchema.parse(
      JSON.parse((await schedule(workspace, 'list', '--json')).stdout),
    )
    expect(json.schedules.map((view) => view.schedule.name)).toEqual(['nightly', 'hourly'])
    expect(json.schedules[1]?.next_run).toBeGreaterThan(Date.now() / 1000)
    // The person's own schedules in a folder the app made: trusted.
    expect(json.trusted).toBe(true)

    expect((await schedule(workspace, 'remove', 'nightly')).stdout).toBe(
      'Removed the schedule nightly.\n',
    )
    expect((await schedule(workspace, 'remove', 'nightly')).code).toBe(1)
    const after = scheduleListingSchema.parse(
      JSON.parse((await schedule(workspace, 'list', '--json')).stdout),
    )
    expect(after.schedules.map((view) => view.schedule.name)).toEqual(['hourly'])
  })

  it('refuses bad arguments with the rule: exit 2 for usage, 1 for what the team refuses', async () => {
    const { workspace } = setUp()
    const cases: [string[], number, RegExp][] = [
      [['add', 'x', '--prompt', 'p'], 2, /give exactly one of --at TIME, --in DURATION/],
      [['add', 'x', '--in', '1h', '--every', '1h', '--prompt', 'p'], 2, /\(2 given\)/],
      [['add', 'x', '--in', '10x', '--prompt', 'p'], 2, /--in takes a duration such as 90s/],
      [['add', 'x', '--every', '30s', '--prompt', 'p'], 2, /--every is at least 1m/],
      [['add', 'x', '--at', 'noon', '--prompt', 'p'], 2, /--at: "noon" is not a time: write HH:MM/],
      [['add', 'x', '--at', '2001-01-01T00:00Z', '--prompt', 'p'], 2, /has passed/],
      [
        ['add', 'x', '--cron', '* * *', '--prompt', 'p'],
        2,
        /has 3 fields; a cron expression has five/,
      ],
      [['add', 'x', '--cron', '0 25 * * *', '--prompt', 'p'], 2, /--cron: .*hour/],
      [['add', 'x', '--in', '1h'], 2, /--prompt TEXT is needed/],
      [['add', 'x', '--in', '1h', '--prompt', 'p', '--usd', '$5'], 2, /--usd takes an amount/],
      [
        ['add', 'x', '--in', '1h', '--prompt', 'p', '--tokens', '0'],
        2,
        /--tokens takes a whole number/,
      ],
      [['add', 'x', '--in', '1h', '--prompt', 'p', '--usd', 'none'], 1, /needs a cap/],
      [
        ['add', 'x', '--in', '1h', '--prompt', 'p', '--missed', 'twice'],
        2,
        /--missed takes run-once or skip/,
      ],
      [
        ['add', 'x', '--in', '1h', '--prompt', 'p', '--overlap', 'both'],
        2,
        /--overlap takes wait or skip/,
      ],
      [['add', 'X/../y', '--in', '1h', '--prompt', 'p'], 2, /must start with a lowercase letter/],
      [['add', 'x', '--in', '1h', '--prompt', 'p', '--template', 'nope'], 1, /no template "nope"/],
      [['add'], 2, /expected "schedule add <name>"/],
      [['frobnicate'], 2, /expected "schedule add <name>/],
      [['remove'], 2, /expected "schedule remove <name>"/],
      [['list', 'extra'], 2, /takes no arguments/],
    ]
    for (const [args, code, message] of cases) {
      const result = await schedule(workspace, ...args)
      expect({ args, code: result.code }).toEqual({ args, code })
      expect(result.stderr).toMatch(message)
    }
    const first = await schedule(workspace, 'add', 'x', '--in', '1h', '--prompt', 'p')
    expect(first.code).toBe(0)
    const again = await schedule(workspace, 'add', 'x', '--in', '1h', '--prompt', 'p')
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/already a schedule "x"/)
  })

  it('a hostile schedules.json is shown as the problem (exit 1), never overwritten', async () => {
    const { workspace } = setUp()
    await schedule(workspace, 'add', 'x', '--in', '1h', '--prompt', 'p')
    const path = `${workspace}/.team/schedules.json`
    writeFileSync(path, '{"v": 7}')
    const listed = await schedule(workspace, 'list')
    expect(listed.code).toBe(1)
    expect(listed.stdout).toMatch(/format version 7/)
    const added = await schedule(workspace, 'add', 'y', '--in', '1h', '--prompt', 'p')
    expect(added.code).toBe(1)
    expect(readFileSync(path, 'utf8')).toBe('{"v": 7}')
  })

  it('run-now needs a running team, and then reports what it did', async () => {
    const { workspace, config } = setUp()
    await schedule(
      workspace,
      'add',
      'poll',
      '--every',
      '1h',
      '--prompt',
      'Report.',
      '--tokens',
      '500000',
    )
    const alone = await schedule(workspace, 'run-now', 'poll')
    expect(alone.code).toBe(1)
    expect(alone.stderr).toMatch(/No team is running in .*: a scheduled run needs one/)
    expect((await schedule(workspace, 'run-now', 'nobody')).stderr).toMatch(/no schedule "nobody"/)

    const { records } = await startHost(() => text('Reported.'), {
      workspace,
      schedules: { template: templates },
      trust: { store: new WorkspaceTrustStore(config) },
    })
    const ran = await schedule(workspace, 'run-now', 'poll')
    expect(ran.stderr).toBe('')
    expect(ran.stdout).toMatch(/^started: poll: sent its prompt to the lead \(cap 500,000 tokens\)/)
    expect(records('lead', 'user').map((record) => record.text)).toEqual(['Report.'])
  })
})
