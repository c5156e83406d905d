import { describe, expect, it } from 'vitest'
import { text } from '../../../../src/offline-model/script'
import { USER } from '../../../../src/shared/names'
import { rosterOnDisk } from '../../../helpers/agents'
import {
  claudeCodeMissing,
  CLAUDE_CODE_TEST_ENV,
  CLAUDE_CODE_TEST_MODEL,
  offeredTools,
} from '../../../helpers/claude-code'
import { startHost } from '../../../helpers/host'

const missing = claudeCodeMissing()
if (missing !== null) console.log(`The engine switch test skipped: ${missing}`)

describe.skipIf(missing !== null)('the person re-spawns a teammate onto another engine', () => {
  it('the agent is made again on the engine it now has, and back', async () => {
    const offered: string[][] = []
    const sent: string[] = []
    const team = await startHost(
      (request, context) => {
        if (context.agent === 'alice') offered.push(offeredTools(request))
        if (context.agent === 'alice') sent.push(JSON.stringify(request.messages))
        return text('Ok.')
      },
      {
        endpoint: { model: CLAUDE_CODE_TEST_MODEL },
        claudeCodeEnvironment: CLAUDE_CODE_TEST_ENV,
        leadWakesOnMessages: false,
      },
    )
    const spawn = (prompt: string, engine?: 'builtin' | 'claude-code') =>
      team.host.spawn({
        name: 'alice',
        role: 'coder',
        prompt,
        by: USER,
        ...(engine === undefined ? {} : { engine }),
      })
    /** Which engine answered each of alice's turns since `from`: Claude Code offers `Bash`. */
    const engines = (from: number) =>
      offered.slice(from).map((tools) => (tools.includes('Bash') ? 'claude-code' : 'builtin'))

    await spawn('First.')
    await team.host.whenIdle()
    expect(engines(0)).toEqual(['builtin'])

    let from = offered.length
    expect(await spawn('Second.', 'claude-code')).toContain('engine: Claude Code')
    await team.host.whenIdle()
    expect(rosterOnDisk(team.workspace)[0]).toMatchObject({ engine: 'claude-code' })
    expect(new Set(engines(from))).toEqual(new Set(['claude-code']))
    // Its new session gets its new task, not a replay of what the built-in engine answered.
    expect(sent[from]).toContain('Second.')
    expect(sent[from]).not.toContain('First.')

    // Kept when the person's re-spawn does not say.
    from = offered.length
    await spawn('Third.')
    await team.host.whenIdle()
    expect(new Set(engines(from))).toEqual(new Set(['claude-code']))

    from = offered.length
    await spawn('Fourth.', 'builtin')
    await team.host.whenIdle()
    expect(rosterOnDisk(team.workspace)[0]).not.toHaveProperty('engine')
    expect(engines(from)).toEqual(['builtin'])

    // Back on Claude Code: its old session goes on, handed only what came since, not what the
    // built-in engine answered in between.
    from = offered.length
    await spawn('Fifth.', 'claude-code')
    await team.host.whenIdle()
    expect(new Set(engines(from))).toEqual(new Set(['claude-code']))
    const handed = JSON.stringify(JSON.parse(sent[from] ?? '[]').at(-1))
    expect(handed).toContain('Fifth.')
    expect(handed).not.toContain('Fourth.')
  }, 90_000)
})
