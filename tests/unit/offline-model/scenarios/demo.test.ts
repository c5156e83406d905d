import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  DEMO_MODULE_PATH,
  DEMO_REQUEST,
  DEMO_TEST_PATH,
  demoScript,
} from '../../../../src/offline-model/scenarios/demo'
import { isFault, type Script } from '../../../../src/offline-model/script'
import type { TranscriptRecord } from '../../../../src/shared/transcript'
import { startHost, type HostUnderTest } from '../../../helpers/host'
import { run } from '../../../helpers/processes'
import { tempWorkspace } from '../../../helpers/workspace'

type Assistant = Extract<TranscriptRecord, { kind: 'assistant' }>
type ToolUse = { type: 'tool_use'; name: string; input: Record<string, unknown> }

/** The demo as the CLI runs it: the person's request to the lead, then wait for an idle team. */
async function runDemo(script: Script, workspace?: string): Promise<HostUnderTest> {
  const team = await startHost(script, workspace === undefined ? {} : { workspace })
  team.host.chat(DEMO_REQUEST)
  await team.host.whenIdle()
  return team
}

function texts(record: Assistant): string[] {
  return record.content.flatMap((block) =>
    block.type === 'text' && typeof block.text === 'string' ? [block.text] : [],
  )
}

function lastText(team: HostUnderTest, name: string): string {
  const replies = team.records(name, 'assistant').filter((record) => texts(record).length > 0)
  const last = replies[replies.length - 1]
  return last ? texts(last).join('\n') : ''
}

function toolUses(team: HostUnderTest, name: string, tool: string): ToolUse[] {
  return team
    .records(name, 'assistant')
    .flatMap((record) => record.content)
    .filter((block): block is ToolUse => block.type === 'tool_use' && block.name === tool)
}

/** What each message to `to` said, as the tool calls of `from` sent it. */
function sentTo(team: HostUnderTest, from: string, to: string): string[] {
  return toolUses(team, from, 'send_message')
    .filter((block) => block.input.to === to)
    .map((block) => String(block.input.content))
}

function rosterOf(team: HostUnderTest): [string, string, string][] {
  return team.host
    .roster()
    .members.map((member) => [member.name, member.role, member.status] as [string, string, string])
}

/** `node --test demo/stats.test.mjs` run by the test itself, in the demo's workspace. */
function runSuite(workspace: string): ReturnType<typeof run> {
  return run(process.execPath, ['--test', DEMO_TEST_PATH], { cwd: workspace })
}

/**
 * The demo's script, except that alice's module is written with a wrong mean(): the rest of the
 * team must notice from what really happens (a failing `node --test`), not from a tape.
 */
function withBrokenMean(): Script {
  const inner = demoScript()
  return async (request, context) => {
    const reply = await inner(request, context)
    if (context.agent !== 'alice' || isFault(reply)) return reply
    return {
      ...reply,
      content: reply.content.map((block) => {
        if (block.type !== 'tool_use' || block.name !== 'write_file') return block
        const source = String(block.input.content)
        const broken = source.replace('/ values.length', '/ (values.length + 1)')
        if (broken === source) throw new Error('the demo module no longer divides by its length')
        return { ...block, input: { ...block.input, content: broken } }
      }),
    }
  }
}

describe('the offline demo scenario, through TeamHost and the real SDK', () => {
  it('runs to the end and leaves a passing test suite in its workspace', async () => {
    const team = await runDemo(demoScript())

    expect(team.host.errors()).toEqual([])
    expect(rosterOf(team)).toEqual([
      ['alice', 'coder', 'idle'],
      ['bob', 'tester', 'idle'],
    ])
    expect(team.host.roster().lead.status).toBe('idle')

    // alice wrote the module and told bob; bob wrote the tests, ran them and reported.
    expect(toolUses(team, 'alice', 'write_file').map((block) => block.input.path)).toEqual([
      DEMO_MODULE_PATH,
    ])
    expect(sentTo(team, 'alice', 'bob')).toHaveLength(1)
    expect(toolUses(team, 'bob', 'write_file').map((block) => block.input.path)).toEqual([
      DEMO_TEST_PATH,
    ])
    const bash = team.records('bob', 'tool-result').filter((record) => record.name === 'bash')
    expect(bash).toHaveLength(1)
    expect(bash[0]?.is_error).toBe(false)
    expect(bash[0]?.content).toMatch(/^[#ℹ] pass 4\b/m)
    expect(bash[0]?.content).toMatch(/^[#ℹ] fail 0\b/m)
    expect(sentTo(team, 'bob', 'lead')).toEqual([expect.stringMatching(/^All 4 tests passed\./)])

    // The lead got bob's report once and summed up for the person.
    const reports = team
      .records('lead', 'inbox')
      .flatMap((record) => record.messages)
      .filter((message) => message.from === 'bob')
    expect(reports).toHaveLength(1)
    expect(lastText(team, 'lead')).toMatch(/tests pass/)
    expect(lastText(team, 'lead')).toContain('All 4 tests passed')

    // The key check: the suite the team left behind passes when we run it ourselves.
    expect(readFileSync(join(team.workspace, DEMO_MODULE_PATH), 'utf8')).toContain(
      'export function mean',
    )
    const suite = await runSuite(team.workspace)
    expect(suite.stderr).toBe('')
    expect(suite.stdout).toMatch(/^[#ℹ] pass 4\b/m)
    expect(suite.code).toBe(0)
  })

  it('reacts to failing tests: a wrong mean() is reported as failing, not as a pass', async () => {
    const team = await runDemo(withBrokenMean())

    expect(team.host.errors()).toEqual([])
    expect(rosterOf(team)).toEqual([
      ['alice', 'coder', 'idle'],
      ['bob', 'tester', 'idle'],
    ])
    expect(readFileSync(join(team.workspace, DEMO_MODULE_PATH), 'utf8')).toContain(
      '/ (values.length + 1)',
    )
    const bash = team.records('bob', 'tool-result').filter((record) => record.name === 'bash')
    expect(bash).toHaveLength(1)
    expect(bash[0]?.is_error).toBe(true)
    expect(bash[0]?.content).toMatch(/^[#ℹ] fail 1\b/m)
    expect(bash[0]?.content).toMatch(/^[#ℹ] pass 3\b/m)

    const [report] = sentTo(team, 'bob', 'lead')
    expect(sentTo(team, 'bob', 'lead')).toHaveLength(1)
    expect(report).toMatch(/^1 of 4 tests failed\./)
    expect(report).not.toMatch(/passed/)
    const leadSays = lastText(team, 'lead')
    expect(leadSays).toContain('did not pass')
    expect(leadSays).toContain('1 of 4 tests failed')
    expect(leadSays).not.toMatch(/tests pass\b/)

    const suite = await runSuite(team.workspace)
    expect(suite.code).not.toBe(0)
    expect(suite.stdout).toMatch(/^[#ℹ] fail 1\b/m)
  })

  it('reacts to a failed write: alice tells the lead, bob tests nothing, the team ends idle', async () => {
    const { dir } = tempWorkspace()
    mkdirSync(join(dir, DEMO_MODULE_PATH), { recursive: true })
    const team = await runDemo(demoScript(), dir)

    expect(team.host.errors()).toEqual([])
    expect(rosterOf(team)).toEqual([
      ['alice', 'coder', 'idle'],
      ['bob', 'tester', 'idle'],
    ])
    expect(team.host.roster().lead.status).toBe('idle')
    const written = team.records('alice', 'tool-result').filter((r) => r.name === 'write_file')
    expect(written).toHaveLength(1)
    expect(written[0]?.is_error).toBe(true)

    // alice tells the lead (not bob), with the real error from the tool.
    expect(sentTo(team, 'alice', 'bob')).toEqual([])
    const [failure] = sentTo(team, 'alice', 'lead')
    expect(sentTo(team, 'alice', 'lead')).toHaveLength(1)
    expect(failure).toContain(`I could not write ${DEMO_MODULE_PATH}: `)
    expect(failure).toContain(written[0]?.content ?? '<no result>')
    const mail = team
      .records('lead', 'inbox')
      .flatMap((record) => record.messages)
      .filter((message) => message.from === 'alice')
    expect(mail.map((message) => message.content)).toEqual([failure])
    expect(lastText(team, 'lead')).toContain('I could not write')
    expect(lastText(team, 'lead')).not.toMatch(/tests pass/)

    // bob never heard from alice: no tests written, nothing run, nothing reported.
    expect(toolUses(team, 'bob', 'write_file')).toEqual([])
    expect(toolUses(team, 'bob', 'bash')).toEqual([])
    expect(sentTo(team, 'bob', 'lead')).toEqual([])
    expect(existsSync(join(dir, DEMO_TEST_PATH))).toBe(false)
  })

  it('after the script, the lead answers from the real roster and the mail that came', async () => {
    const team = await runDemo(demoScript())
    // The demo's summary looked at the roster once already.
    const before = toolUses(team, 'lead', 'list_teammates').length
    team.host.chat('How is it going?')
    await team.host.whenIdle()

    expect(team.host.errors()).toEqual([])
    // It looked at the real roster, then named each teammate with its status and news.
    expect(toolUses(team, 'lead', 'list_teammates')).toHaveLength(before + 1)
    const answer = lastText(team, 'lead')
    expect(answer).not.toMatch(/The team is working/)
    expect(answer).toMatch(/alice \(coder\) is idle/)
    expect(answer).toMatch(/bob \(tester\) is idle; last said: "All 4 tests passed\./)

    // The roster really changes the answer: a teammate shut down shows as such.
    team.host.requestShutdown('alice')
    await team.host.whenIdle()
    team.host.chat('And now?')
    await team.host.whenIdle()
    expect(lastText(team, 'lead')).toMatch(/alice \(coder\) is shutdown/)
  })

  it('plays again when `demo` runs again in the same folder', async () => {
    const team = await runDemo(demoScript())
    team.host.chat(DEMO_REQUEST)
    await team.host.whenIdle()

    expect(team.host.errors()).toEqual([])
    expect(lastText(team, 'lead')).not.toMatch(/The team is working/)
    expect(lastText(team, 'lead')).toMatch(/^Done\. alice wrote/)
    // The team really did the work a second time: two writes of the module, two test runs.
    expect(toolUses(team, 'alice', 'write_file')).toHaveLength(2)
    const runs = team.records('bob', 'tool-result').filter((record) => record.name === 'bash')
    expect(runs).toHaveLength(2)
    expect(sentTo(team, 'bob', 'lead')).toEqual([
      expect.stringMatching(/^All 4 tests passed\./),
      expect.stringMatching(/^All 4 tests passed\./),
    ])
  })
})
