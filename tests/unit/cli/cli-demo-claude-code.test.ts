import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readTranscript } from '../../../src/runtime/agents/transcript-store'
import { Roster } from '../../../src/runtime/roster/roster'
import { TeamPaths } from '../../../src/runtime/team/paths'
import { runAgentTeams, type BinFinished } from '../../helpers/bin'
import { claudeCodeMissing } from '../../helpers/claude-code'
import { gitIn, gitWorkspace } from '../../helpers/git'
import { tempWorkspace } from '../../helpers/workspace'

const DEMO_TIMEOUT_MS = 90_000

const missing = claudeCodeMissing()
if (missing !== null) console.log(`agent-teams demo --claude-code tests skipped: ${missing}`)

/** The tool names an agent's transcript shows it called, in order. */
function calledTools(workspace: string, name: string): string[] {
  const { records } = readTranscript(new TeamPaths(workspace).transcript(name))
  return records.flatMap((record) =>
    record.kind === 'assistant'
      ? record.content.flatMap((block) =>
          block.type === 'tool_use' && typeof block['name'] === 'string' ? [block['name']] : [],
        )
      : [],
  )
}

describe.skipIf(missing !== null)('agent-teams demo --claude-code (the real binary)', () => {
  let parent = ''
  let workspace = ''
  let result: BinFinished

  beforeAll(async () => {
    parent = mkdtempSync(join(tmpdir(), 'agent-teams-cli-demo-claude-code-'))
    workspace = gitWorkspace({ 'README.md': '# Project\n' }, parent)
    result = await runAgentTeams(['demo', '--claude-code', '--workspace', workspace], {
      // Not needed as root either: Claude Code wants it only for bypassPermissions.
      env: { XDG_CONFIG_HOME: join(parent, 'config'), IS_SANDBOX: undefined },
      timeoutMs: DEMO_TIMEOUT_MS,
    })
  }, DEMO_TIMEOUT_MS + 5_000)
  afterAll(() => rmSync(parent, { recursive: true, force: true }))

  it('runs the demo with bob, the tester, as a Claude Code session', () => {
    expect(result.timedOut).toBe(false)
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.lines[0]).toMatch(/; bob, the tester, is a Claude Code session$/)
    // The person's request asks for it, and the lead spawns bob on that engine.
    expect(result.stdout).toContain(
      "[lead] ← spawn_teammate: Spawned 'bob' (role: tester, engine: Claude Code)",
    )
    expect(Roster.read(new TeamPaths(workspace)).members).toContainEqual(
      expect.objectContaining({ name: 'bob', role: 'tester', engine: 'claude-code' }),
    )
    // alice stays on the built-in engine; the plain demo's tip is not repeated here.
    expect(result.stdout).toContain('[alice] → write_file {"path":"demo/stats.mjs"')
    expect(result.stdout).not.toContain('"agent-teams demo --claude-code" runs')
  })

  it("bob works with Claude Code's own tools and the team's through MCP", () => {
    expect(calledTools(workspace, 'bob')).toEqual([
      'mcp__team__claim_task',
      'Bash',
      'Write',
      'Bash',
      'Bash',
      'mcp__team__update_task',
      'mcp__team__send_message',
    ])
    expect(result.stdout).toMatch(
      /\[bob\] → Write \{"file_path":"\/[^"]*\/demo\/stats\.test\.mjs","content":/,
    )
    expect(result.stdout).toContain(
      '[bob] → Bash {"command":"node --test demo/stats.test.mjs","description":"Running the tests"}',
    )
    // His tests ran in his worktree, on alice's module, and are committed on his branch.
    const { records } = readTranscript(new TeamPaths(workspace).transcript('bob'))
    const testRun = records.find(
      (record) => record.kind === 'tool-result' && /ℹ pass 4|# pass 4/.test(record.content),
    )
    expect(testRun).toMatchObject({ name: 'Bash', is_error: false })
    expect(gitIn(workspace, 'show', 'team/bob:demo/stats.test.mjs')).toContain('node:test')
  })

  it('his report reached the lead through the mailbox, and the lead summed up from it', () => {
    const { records } = readTranscript(new TeamPaths(workspace).transcript('lead'))
    const fromBob = records
      .flatMap((record) => (record.kind === 'inbox' ? record.messages : []))
      .filter((message) => message.from === 'bob')
    expect(fromBob.map((message) => message.content)).toEqual([
      "All 4 tests passed. (node --test demo/stats.test.mjs, for alice's demo/stats.mjs)",
    ])
    expect(result.stdout).toMatch(/^\[lead\] Done\. .*tests pass/m)
    expect(result.stdout).toContain(
      "Each teammate's work is on its own branch (team/alice, team/bob)",
    )
  })
  it(
    'runs again in the same folder, bob resuming his Claude Code session',
    async () => {
      const before = calledTools(workspace, 'bob').length
      const again = await runAgentTeams(['demo', '--claude-code', '--workspace', workspace], {
        env: { XDG_CONFIG_HOME: join(parent, 'config') },
        timeoutMs: DEMO_TIMEOUT_MS,
      })
      expect(again.stderr).toBe('')
      expect(again.code).toBe(0)
      expect(again.stdout).toContain('[bob → lead] (message) All 4 tests passed.')
      expect(calledTools(workspace, 'bob').slice(before)).toContain('mcp__team__send_message')
    },
    DEMO_TIMEOUT_MS + 5_000,
  )
})

describe.skipIf(missing !== null)('agent-teams demo, where Claude Code is installed', () => {
  it(
    'says that --claude-code exists, and refuses it where bob is on the roster on another engine',
    async () => {
      const { dir } = tempWorkspace()
      const { dir: config } = tempWorkspace('agent-teams-config-')
      const env = { XDG_CONFIG_HOME: config }
      const plain = await runAgentTeams(['demo', '--workspace', dir], {
        env,
        timeoutMs: DEMO_TIMEOUT_MS,
      })
      expect(plain.code).toBe(0)
      expect(plain.lines.at(-1)).toBe(
        'Claude Code is installed here: "agent-teams demo --claude-code" runs bob, the tester, as a Claude Code session.',
      )
      // The lead's spawn would keep bob's engine: refused before anything runs, saying why.
      const again = await runAgentTeams(['demo', '--claude-code', '--workspace', dir], { env })
      expect(again.code).toBe(1)
      expect(again.stdout).toBe('')
      expect(again.stderr).toBe(
        `agent-teams demo: bob is on the roster of ${dir} already, on the built-in engine, and the lead's spawn keeps a member's own engine. Run "agent-teams demo --claude-code" without --workspace (a fresh folder), or in a folder without a team.\n`,
      )
    },
    DEMO_TIMEOUT_MS + 10_000,
  )
})
