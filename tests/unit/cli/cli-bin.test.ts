import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { HELP } from '../../../src/cli/main'
import { runBin } from '../../helpers/processes'
import { tempTeam } from '../../helpers/workspace'

describe('the agent-teams command (bin/agent-teams.mjs, a real process)', () => {
  it('--help prints the help and exits 0', async () => {
    const result = await runBin(['--help'])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toBe(`${HELP.trimEnd()}\n`)
  })

  it('works on the current folder by default: send, then drain, then drain again', async () => {
    const team = tempTeam()
    const sent = await runBin(['send', 'alice', 'from a shell', '--json'], { cwd: team.dir })
    expect(sent.stderr).toBe('')
    expect(sent.code).toBe(0)
    const message = JSON.parse(sent.stdout) as { id: string }
    expect(readFileSync(team.paths.inbox('alice'), 'utf8')).toContain(message.id)
    const drained = await runBin(['drain', 'alice', '--workspace', team.dir])
    expect(drained.code).toBe(0)
    expect(
      drained.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { id: string }).id),
    ).toEqual([message.id])
    const again = await runBin(['drain', 'alice'], { cwd: team.dir })
    expect(again.code).toBe(0)
    expect(again.stdout).toBe('')
  })

  it('exits non-zero with the message on stderr', async () => {
    const team = tempTeam()
    const unknown = await runBin(['send', 'nobody', 'x'], { cwd: team.dir })
    expect(unknown.code).toBe(1)
    expect(unknown.stdout).toBe('')
    expect(unknown.stderr).toMatch(/Unknown recipient "nobody"/)
    const usage = await runBin(['frobnicate'], { cwd: team.dir })
    expect(usage.code).toBe(2)
    expect(usage.stderr).toMatch(/unknown command "frobnicate"/)
  })
})
